// SPDX-License-Identifier: GPL-2.0
/* Compression of the image and decompression of modules: round trips, determinism, errors. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "lib/byte_buf.h"
#include "check.h"
#include "lib/decompress.h"
#include "lib/errmsg.h"
#include "lib/compress.h"

#define INPUT_LEN (600 * 1024)

static unsigned char *make_input(void)
{
	unsigned char *p = malloc(INPUT_LEN);
	unsigned x = 12345;

	/* half text-like, half noise: both paths of every encoder */
	for (size_t i = 0; i < INPUT_LEN; i++) {
		x = x * 1103515245u + 12345u;
		p[i] = i < INPUT_LEN / 2 ? (unsigned char)("iomatrix "[i % 9]) : (unsigned char)(x >> 16);
	}
	return p;
}

/* Compress input (with a flush in the middle) into a buffer via a temp file. */
static int compress_to(enum compression id, const unsigned char *in, struct byte_buf *out)
{
	char path[] = "/tmp/iomatrix-comp-XXXXXX", err[ERRMSG_LEN];
	int fd = mkstemp(path);
	struct compressor *c;
	int ret = -1;

	if (fd < 0)
		return -1;
	c = compressor_new(id, fd, err, sizeof(err));
	if (c && !compressor_write(c, in, 1000, err, sizeof(err)) &&
	    !compressor_flush(c, err, sizeof(err)) &&
	    !compressor_write(c, in + 1000, INPUT_LEN - 1000, err, sizeof(err)) &&
	    !compressor_finish(c, err, sizeof(err)) &&
	    compressor_bytes_out(c) == (uint64_t)lseek(fd, 0, SEEK_END))
		ret = byte_buf_read_file(out, path, 1 << 24, err, sizeof(err));
	compressor_free(c);
	close(fd);
	unlink(path);
	return ret;
}

static void round_trip(enum compression id)
{
	unsigned char *in = make_input();
	struct byte_buf a = { 0 }, b = { 0 }, plain = { 0 };
	char err[ERRMSG_LEN];

	CHECK_EQ_INT(compress_to(id, in, &a), 0);
	CHECK_EQ_INT(compress_to(id, in, &b), 0);
	CHECK(a.len == b.len && !memcmp(a.data, b.data, a.len)); /* deterministic */
	CHECK(a.len < INPUT_LEN * 3 / 4);
	CHECK_EQ_INT(compression_from_magic(a.data, a.len), id);
	CHECK_EQ_INT(decompress_buffer(id, a.data, a.len, &plain, INPUT_LEN, "t", err,
				       sizeof(err)), 0);
	CHECK(plain.len == INPUT_LEN && !memcmp(plain.data, in, INPUT_LEN));
	byte_buf_free(&plain);
	/* refuses more output than allowed */
	CHECK_EQ_INT(decompress_buffer(id, a.data, a.len, &plain, INPUT_LEN / 2, "t", err,
				       sizeof(err)), -1);
	CHECK(strstr(err, "more than") != NULL);
	byte_buf_free(&plain);
	/* a truncated stream is an error, never a short success */
	CHECK_EQ_INT(decompress_buffer(id, a.data, a.len / 2, &plain, INPUT_LEN, "t", err,
				       sizeof(err)), -1);
	CHECK(strstr(err, "t: ") == err);
	byte_buf_free(&plain);
	byte_buf_free(&a);
	byte_buf_free(&b);
	free(in);
}

static void test_zstd(void)
{
	round_trip(COMP_ZSTD);
}

static void test_xz(void)
{
	unsigned char *in = make_input();
	struct byte_buf a = { 0 };

	round_trip(COMP_XZ);
	/* the stream flags' check type: CRC32 (1), the one the kernel verifies */
	CHECK_EQ_INT(compress_to(COMP_XZ, in, &a), 0);
	CHECK(a.len > 8 && a.data[6] == 0 && a.data[7] == 1);
	byte_buf_free(&a);
	free(in);
}

static void test_gzip(void)
{
	unsigned char *in = make_input();
	struct byte_buf a = { 0 };

	round_trip(COMP_GZIP);
	/* no file name flag, mtime 0: nothing from the build machine */
	CHECK_EQ_INT(compress_to(COMP_GZIP, in, &a), 0);
	CHECK(a.len > 10 && a.data[3] == 0 && !a.data[4] && !a.data[5] && !a.data[6] && !a.data[7]);
	byte_buf_free(&a);
	free(in);
}

static void test_none_is_verbatim(void)
{
	unsigned char *in = make_input();
	struct byte_buf a = { 0 };

	CHECK_EQ_INT(compress_to(COMP_NONE, in, &a), 0);
	CHECK(a.len == INPUT_LEN && !memcmp(a.data, in, INPUT_LEN));
	byte_buf_free(&a);
	free(in);
}

static void test_names_and_magic(void)
{
	struct byte_buf out = { 0 };
	char err[ERRMSG_LEN];

	CHECK(compression_by_name("zstd") == &compression_kinds[COMP_ZSTD]);
	CHECK_EQ_STR(compression_by_name("xz")->ext, "xz");
	CHECK_EQ_STR(compression_by_name("gzip")->rd_config, "CONFIG_RD_GZIP");
	CHECK(compression_by_name("lz4") == NULL);
	CHECK_EQ_INT(compression_from_magic("\x7f" "ELF", 4), COMP_NONE);
	CHECK_EQ_INT(decompress_buffer(COMP_XZ, "\x7f" "ELF\0\0\0\0", 8, &out, 100, "m.ko.xz",
				       err, sizeof(err)), -1);
	CHECK_EQ_STR(err, "m.ko.xz: not xz data (wrong magic bytes)");
	byte_buf_free(&out);
}

int main(void)
{
	RUN_TEST(test_zstd);
	RUN_TEST(test_xz);
	RUN_TEST(test_gzip);
	RUN_TEST(test_none_is_verbatim);
	RUN_TEST(test_names_and_magic);
	CHECK_EXIT();
}
