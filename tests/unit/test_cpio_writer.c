// SPDX-License-Identifier: GPL-2.0
/* The newc writer: exact header bytes, alignment, misuse, and GNU cpio reading it back. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/byte_buf.h"
#include "check.h"
#include "initramfs/cpio_writer.h"
#include "lib/errmsg.h"

static int to_buf(void *ctx, const void *buf, size_t len, char *err, size_t errlen)
{
	if (byte_buf_append(ctx, buf, len))
		return errmsg(err, errlen, "out of memory");
	return 0;
}

static void test_header_bytes(void)
{
	struct byte_buf b = { 0 };
	struct cpio_writer w;
	char err[ERRMSG_LEN];
	const char *want = "070701"
			   "00000001" /* ino */
			   "000041ED" /* S_IFDIR | 0755 */
			   "00000000" "00000000" /* uid gid */
			   "00000002" /* nlink */
			   "0000005F" /* mtime */
			   "00000000" /* size */
			   "00000000" "00000000" "00000000" "00000000" /* dev, rdev */
			   "00000004" /* namesize: "dev" + NUL */
			   "00000000" /* check */
			   "dev\0";

	cpio_writer_init(&w, to_buf, &b, 0x5f);
	CHECK_EQ_INT(cpio_write_dir(&w, "/dev", 0755, err, sizeof(err)), 0);
	/* 110 bytes of header + 4 of name = 114, padded to 116 */
	CHECK_EQ_INT(b.len, 116);
	CHECK(b.len >= 114 && !memcmp(b.data, want, 114));
	CHECK(b.len == 116 && b.data[114] == 0 && b.data[115] == 0);
	byte_buf_free(&b);
}

static void test_alignment_and_inodes(void)
{
	struct byte_buf b = { 0 };
	struct cpio_writer w;
	char err[ERRMSG_LEN];

	cpio_writer_init(&w, to_buf, &b, 0);
	CHECK_EQ_INT(cpio_write_file(&w, "a", 0644, "12345", 5, err, sizeof(err)), 0);
	CHECK_EQ_INT(b.len % 4, 0);
	CHECK_EQ_INT(cpio_write_symlink(&w, "bb", "target", err, sizeof(err)), 0);
	CHECK_EQ_INT(b.len % 4, 0);
	CHECK_EQ_INT(cpio_write_node(&w, "dev/null", S_IFCHR, 0666, 1, 3, err, sizeof(err)), 0);
	CHECK_EQ_INT(w.next_ino, 4);
	CHECK_EQ_INT(cpio_write_trailer(&w, err, sizeof(err)), 0);
	CHECK_EQ_INT(b.len % 4, 0);
	CHECK_EQ_INT(w.offset, b.len);
	/* the trailer's header: inode 0, nlink 1, name TRAILER!!! */
	CHECK(b.len > 124 && !memcmp(b.data + b.len - 124, "07070100000000", 14));
	CHECK(b.len > 124 && !memcmp(b.data + b.len - 124 + 110, "TRAILER!!!", 11));
	byte_buf_free(&b);
}

static void test_streamed_file_misuse(void)
{
	struct byte_buf b = { 0 };
	struct cpio_writer w;
	char err[ERRMSG_LEN];

	cpio_writer_init(&w, to_buf, &b, 0);
	CHECK_EQ_INT(cpio_begin_file(&w, "/f", 0600, 4, err, sizeof(err)), 0);
	CHECK_EQ_INT(cpio_file_data(&w, "ab", 2, err, sizeof(err)), 0);
	CHECK_EQ_INT(cpio_write_dir(&w, "/d", 0755, err, sizeof(err)), -1);
	CHECK(strstr(err, "still open") != NULL);
	CHECK_EQ_INT(cpio_end_file(&w, err, sizeof(err)), -1);
	CHECK(strstr(err, "2 bytes short") != NULL);
	CHECK_EQ_INT(cpio_file_data(&w, "cde", 3, err, sizeof(err)), -1);
	CHECK(strstr(err, "more data") != NULL);
	CHECK_EQ_INT(cpio_file_data(&w, "cd", 2, err, sizeof(err)), 0);
	CHECK_EQ_INT(cpio_end_file(&w, err, sizeof(err)), 0);
	CHECK_EQ_INT(cpio_write_dir(&w, "/", 0755, err, sizeof(err)), -1);
	CHECK(strstr(err, "empty name") != NULL);
	CHECK_EQ_INT(cpio_write_node(&w, "/x", S_IFREG, 0600, 1, 1, err, sizeof(err)), -1);
	byte_buf_free(&b);
}

static int write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "w");
	int ok = f && fwrite(data, 1, len, f) == len;

	if (f && fclose(f))
		ok = 0;
	return ok ? 0 : -1;
}

/* What GNU cpio lists and extracts must be what was written. */
static void test_gnu_cpio_reads_it(void)
{
	struct byte_buf b = { 0 }, got = { 0 };
	struct cpio_writer w;
	char err[ERRMSG_LEN], dir[] = "/tmp/iomatrix-cpio-XXXXXX", cmd[512], path[256], link[64];
	static const char big[] = "0123456789abcdef0123456789abcdef0";
	struct stat st;
	ssize_t n;

	CHECK(mkdtemp(dir) != NULL);
	cpio_writer_init(&w, to_buf, &b, 1234567);
	CHECK_EQ_INT(cpio_write_dir(&w, "/etc", 0755, err, sizeof(err)), 0);
	CHECK_EQ_INT(cpio_write_file(&w, "/etc/a.conf", 0640, "k=v\n", 4, err, sizeof(err)), 0);
	CHECK_EQ_INT(cpio_begin_file(&w, "/etc/big", 0755, sizeof(big), err, sizeof(err)), 0);
	CHECK_EQ_INT(cpio_file_data(&w, big, 10, err, sizeof(err)), 0);
	CHECK_EQ_INT(cpio_file_data(&w, big + 10, sizeof(big) - 10, err, sizeof(err)), 0);
	CHECK_EQ_INT(cpio_end_file(&w, err, sizeof(err)), 0);
	CHECK_EQ_INT(cpio_write_symlink(&w, "/etc/link", "a.conf", err, sizeof(err)), 0);
	CHECK_EQ_INT(cpio_write_file(&w, "/empty", 0644, NULL, 0, err, sizeof(err)), 0);
	CHECK_EQ_INT(cpio_write_node(&w, "/console", S_IFCHR, 0600, 5, 1, err, sizeof(err)), 0);
	CHECK_EQ_INT(cpio_write_trailer(&w, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/a.cpio", dir);
	CHECK_EQ_INT(write_file(path, b.data, b.len), 0);

	/* listing: types, modes, owners, sizes, the device numbers */
	snprintf(cmd, sizeof(cmd),
		 "cd %s && cpio -itv --quiet < a.cpio > list && "
		 "grep -q '^drwxr-xr-x .* root *root .* etc$' list && "
		 "grep -q '^-rw-r----- .* root *root *4 .* etc/a.conf$' list && "
		 "grep -q '^-rwxr-xr-x .* 34 .* etc/big$' list && "
		 "grep -q '^lrwxrwxrwx .* etc/link -> a.conf$' list && "
		 "grep -q '^crw------- .* 5, *1 .* console$' list && "
		 "test $(wc -l < list) = 6",
		 dir);
	CHECK_EQ_INT(system(cmd), 0);
	/* extraction: contents and link target; the node needs root, so it is left out */
	snprintf(cmd, sizeof(cmd),
		 "mkdir %s/x && cd %s/x && cpio -idm --quiet --no-absolute-filenames "
		 "< ../a.cpio etc etc/a.conf etc/big etc/link empty",
		 dir, dir);
	CHECK_EQ_INT(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/x/etc/big", dir);
	CHECK_EQ_INT(byte_buf_read_file(&got, path, 1 << 20, err, sizeof(err)), 0);
	CHECK(got.len == sizeof(big) && !memcmp(got.data, big, sizeof(big)));
	CHECK(!stat(path, &st) && (st.st_mode & 07777) == 0755 && st.st_mtime == 1234567);
	snprintf(path, sizeof(path), "%s/x/etc/link", dir);
	n = readlink(path, link, sizeof(link) - 1);
	CHECK(n == 6 && !memcmp(link, "a.conf", 6));
	snprintf(path, sizeof(path), "%s/x/empty", dir);
	CHECK(!stat(path, &st) && st.st_size == 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK_EQ_INT(system(cmd), 0);
	byte_buf_free(&b);
	byte_buf_free(&got);
}

int main(void)
{
	RUN_TEST(test_header_bytes);
	RUN_TEST(test_alignment_and_inodes);
	RUN_TEST(test_streamed_file_misuse);
	RUN_TEST(test_gnu_cpio_reads_it);
	CHECK_EXIT();
}
