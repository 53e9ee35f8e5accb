// SPDX-License-Identifier: GPL-2.0
/* The image's entry list: parents, duplicates, conflicts, sorted output. */
#include <stdlib.h>

#include "lib/byte_buf.h"
#include "check.h"
#include "lib/errmsg.h"
#include "initramfs/image_tree.h"

static int to_buf(void *ctx, const void *buf, size_t len, char *err, size_t errlen)
{
	if (byte_buf_append(ctx, buf, len))
		return errmsg(err, errlen, "out of memory");
	return 0;
}

static unsigned char *dup_bytes(const char *s)
{
	return (unsigned char *)strdup(s);
}

static void test_parents_are_added(void)
{
	struct image_tree t = { 0 };
	char err[ERRMSG_LEN];
	const struct image_entry *e;

	CHECK_EQ_INT(image_add_buffer(&t, "/a/b/c.txt", 0644, PART_DATA, dup_bytes("x"), 1, err,
				      sizeof(err)), 0);
	CHECK_EQ_INT(t.count, 3);
	e = image_find(&t, "/a/b");
	CHECK(e && e->kind == ENTRY_DIR && e->perm == 0755 && e->part == PART_LAYOUT);
	CHECK(image_find(&t, "/a") != NULL);
	image_tree_free(&t);
}

static void test_duplicates_and_conflicts(void)
{
	struct image_tree t = { 0 };
	char err[ERRMSG_LEN];

	CHECK_EQ_INT(image_add_symlink(&t, "/bin/sh", "busybox", PART_TOOLS, err, sizeof(err)), 0);
	CHECK_EQ_INT(image_add_symlink(&t, "/bin/sh", "busybox", PART_TOOLS, err, sizeof(err)), 0);
	CHECK_EQ_INT(image_add_symlink(&t, "/bin/sh", "bash", PART_TOOLS, err, sizeof(err)), -1);
	CHECK(strstr(err, "/bin/sh") && strstr(err, "symlink"));
	CHECK_EQ_INT(image_add_dir(&t, "/bin/sh", 0755, err, sizeof(err)), -1);
	CHECK_EQ_INT(image_add_dir(&t, "/bin/sh/x", 0755, err, sizeof(err)), -1);
	CHECK(strstr(err, "parent /bin/sh") != NULL);
	CHECK_EQ_INT(image_add_host_file(&t, "/etc/f", 0644, PART_DATA, "/nonexistent/x", err,
					 sizeof(err)), -1);
	CHECK(strstr(err, "/nonexistent/x") != NULL);
	CHECK_EQ_INT(image_add_char_dev(&t, "/dev/null", 0666, 1, 3, err, sizeof(err)), 0);
	CHECK_EQ_INT(image_add_char_dev(&t, "/dev/null", 0666, 1, 5, err, sizeof(err)), -1);
	CHECK_EQ_INT(t.count, 4); /* /bin /bin/sh /dev /dev/null */
	image_tree_free(&t);
}

static void test_bad_paths(void)
{
	static const char *const bad[] = { "rel", "/", "/a/", "/a//b", "/a/./b", "/a/../b", "" };
	struct image_tree t = { 0 };
	char err[ERRMSG_LEN];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_EQ_INT(image_add_dir(&t, bad[i], 0755, err, sizeof(err)), -1);
		CHECK(strstr(err, "not a clean absolute path") != NULL);
	}
	CHECK_EQ_INT(t.count, 0);
	image_tree_free(&t);
}

struct parts_seen {
	char order[16];
	size_t n;
};

static int record_part(void *ctx, enum image_part part, char *err, size_t errlen)
{
	struct parts_seen *p = ctx;

	(void)err;
	(void)errlen;
	if (p->n < sizeof(p->order) - 1)
		p->order[p->n++] = (char)('0' + part);
	return 0;
}

/* Whatever the order of adding, the archive is the same, sorted by path. */
static void test_written_sorted(void)
{
	struct image_tree t1 = { 0 }, t2 = { 0 };
	struct byte_buf b1 = { 0 }, b2 = { 0 };
	struct cpio_writer w1, w2;
	struct parts_seen seen = { 0 };
	char err[ERRMSG_LEN];
	char *dev, *init;

	CHECK_EQ_INT(image_add_buffer(&t1, "/init", 0755, PART_RUNNER, dup_bytes("R"), 1, err,
				      sizeof(err)), 0);
	CHECK_EQ_INT(image_add_char_dev(&t1, "/dev/console", 0600, 5, 1, err, sizeof(err)), 0);
	CHECK_EQ_INT(image_add_dir(&t1, "/a-b", 0755, err, sizeof(err)), 0);
	CHECK_EQ_INT(image_add_char_dev(&t2, "/dev/console", 0600, 5, 1, err, sizeof(err)), 0);
	CHECK_EQ_INT(image_add_dir(&t2, "/a-b", 0755, err, sizeof(err)), 0);
	CHECK_EQ_INT(image_add_buffer(&t2, "/init", 0755, PART_RUNNER, dup_bytes("R"), 1, err,
				      sizeof(err)), 0);
	cpio_writer_init(&w1, to_buf, &b1, 0);
	cpio_writer_init(&w2, to_buf, &b2, 0);
	CHECK_EQ_INT(image_tree_write(&t1, &w1, record_part, &seen, err, sizeof(err)), 0);
	CHECK_EQ_INT(image_tree_write(&t2, &w2, NULL, NULL, err, sizeof(err)), 0);
	CHECK(b1.len == b2.len && !memcmp(b1.data, b2.data, b1.len));
	/* a-b, dev, dev/console, init, then the trailer (layout) */
	CHECK_EQ_STR(seen.order, "55505");
	dev = memmem(b1.data, b1.len, "dev/console", 11);
	init = memmem(b1.data, b1.len, "init", 5);
	CHECK(dev && init && dev < init);
	image_tree_free(&t1);
	image_tree_free(&t2);
	byte_buf_free(&b1);
	byte_buf_free(&b2);
}

int main(void)
{
	RUN_TEST(test_parents_are_added);
	RUN_TEST(test_duplicates_and_conflicts);
	RUN_TEST(test_bad_paths);
	RUN_TEST(test_written_sorted);
	CHECK_EXIT();
}
