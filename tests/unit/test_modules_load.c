// SPDX-License-Identifier: GPL-2.0
/* modules.load: parsing, and what a failed load says. */
#include <errno.h>

#include "check.h"
#include "runner/modules.h"

static struct module_list list;

static int parse(const char *text, char *err)
{
	return modules_parse("modules.load", text, strlen(text), &list, err, MODULES_ERR_LEN);
}

static void test_entries_comments_blanks(void)
{
	char err[MODULES_ERR_LEN];

	CHECK_EQ_INT(parse("# load order\n\n  crc32c_generic /lib/modules/R/a/crc32c_generic.ko\n"
			   "virtio_pci\t/lib/modules/R/b/virtio_pci.ko\r\n   # indented comment\n"
			   "xfs /lib/modules/R/c/xfs.ko",
			   err),
		     0);
	CHECK_EQ_INT(list.count, 3);
	CHECK_EQ_STR(list.mod[0].name, "crc32c_generic");
	CHECK_EQ_INT(list.mod[0].line, 3);
	CHECK_EQ_STR(list.mod[1].path, "/lib/modules/R/b/virtio_pci.ko");
	CHECK_EQ_STR(list.mod[2].name, "xfs");
	CHECK_EQ_INT(list.mod[2].line, 6);
}

static void test_errors_name_the_line(void)
{
	char err[MODULES_ERR_LEN];

	CHECK_EQ_INT(parse("a /x.ko\nb\n", err), -1);
	CHECK_EQ_STR(err, "modules.load:2: expected \"<name> <path> [parameters]\", got \"b\"");
	CHECK_EQ_INT(parse("a x.ko\n", err), -1);
	CHECK_EQ_STR(err, "modules.load:1: module a: path x.ko is not absolute");
}

static void test_parameters_are_the_rest_of_the_line(void)
{
	char err[MODULES_ERR_LEN];

	CHECK_EQ_INT(parse("null_blk /n.ko nr_devices=0 queue_mode=2\nxfs /x.ko\n", err), 0);
	CHECK_EQ_STR(list.mod[0].params, "nr_devices=0 queue_mode=2");
	CHECK_EQ_STR(list.mod[1].params, "");
}

static void test_empty_is_an_empty_list(void)
{
	char err[MODULES_ERR_LEN];

	CHECK_EQ_INT(parse("", err), 0);
	CHECK_EQ_INT(list.count, 0);
	CHECK_EQ_INT(parse("# only a comment\n", err), 0);
	CHECK_EQ_INT(list.count, 0);
}

static void test_missing_file_fails_with_its_errno(void)
{
	struct module_entry m = { .name = "nothere", .path = "/nonexistent/nothere.ko", .line = 1 };
	double secs;
	int error;

	CHECK_EQ_INT(module_load(&m, &secs, &error), MODULE_FAILED);
	CHECK_EQ_INT(error, ENOENT);
}

static void test_read_missing_file(void)
{
	char err[MODULES_ERR_LEN];

	CHECK_EQ_INT(modules_read("/nonexistent/modules.load", &list, err, sizeof(err)), -1);
	CHECK_EQ_STR(err, "cannot open /nonexistent/modules.load: No such file or directory");
}

int main(void)
{
	RUN_TEST(test_entries_comments_blanks);
	RUN_TEST(test_errors_name_the_line);
	RUN_TEST(test_parameters_are_the_rest_of_the_line);
	RUN_TEST(test_empty_is_an_empty_list);
	RUN_TEST(test_missing_file_fails_with_its_errno);
	RUN_TEST(test_read_missing_file);
	CHECK_EXIT();
}
