// SPDX-License-Identifier: GPL-2.0
/*
 * The image's list: every kind of line read as written, the shipped list
 * read whole, and each kind of bad line refused with FILE:LINE and what is
 * wrong.
 */
#include <stdlib.h>

#include "check.h"
#include "initramfs/appliance_list.h"
#include "lib/appliance_contract.h"
#include "lib/errmsg.h"

static int parse(struct appliance_list *l, const char *text, char *err)
{
	return appliance_list_parse(l, "dir/t.list", text, strlen(text), err, ERRMSG_LEN);
}

static void test_good_lines(void)
{
	static const char text[] =
		"# a comment\n"
		"\n"
		"dir /tmp 1777   # trailing comment\n"
		"nod\t/dev/console 0600 c 5 1\r\n"
		"slink /bin/sh busybox\n"
		"file /etc/a.conf /etc/a.conf 0644 pkg\n"
		"file /etc/b.conf b.conf 0600\n"
		"tool /bin/busybox busybox-static \"shell and applets\"\n"
		"tool /sbin/wipefs util-linux wipe optional\n"
		"module fs ext2 CONFIG_EXT2_FS \"ext2\" if-module "
		"served-by=ext4:CONFIG_EXT4_USE_FOR_EXT2\n"
		"module virtio virtio-rng CONFIG_HW_RANDOM_VIRTIO entropy optional\n"
		"module md md-mod CONFIG_BLK_DEV_MD \"md arrays\"\n"
		"options null-blk nr_devices=0 queue_mode=2\n"
		"data matrix/*.matrix /etc/iomatrix/matrix\n";
	struct appliance_list l;
	struct wanted_module *w;
	char err[ERRMSG_LEN] = "";
	const struct list_entry *e;

	CHECK_EQ_INT(parse(&l, text, err), 0);
	CHECK_EQ_STR(err, "");
	CHECK_EQ_INT(l.count, 12);
	e = &l.entries[0];
	CHECK(e->kind == LIST_DIR && e->line == 3 && e->mode == 01777);
	CHECK_EQ_STR(e->path, "/tmp");
	e = &l.entries[1];
	CHECK(e->kind == LIST_NOD && e->mode == 0600 && e->major == 5 && e->minor == 1);
	e = &l.entries[2];
	CHECK(e->kind == LIST_SLINK);
	CHECK_EQ_STR(e->target, "busybox");
	e = &l.entries[3];
	CHECK(e->kind == LIST_FILE && e->mode == 0644);
	CHECK_EQ_STR(e->host, "/etc/a.conf");
	CHECK_EQ_STR(e->package, "pkg");
	e = &l.entries[4];
	CHECK_EQ_STR(e->host, "dir/b.conf"); /* from the list's directory */
	CHECK(e->package == NULL);
	e = &l.entries[5];
	CHECK(e->kind == LIST_TOOL && !e->optional);
	CHECK_EQ_STR(e->why, "shell and applets");
	CHECK(l.entries[6].optional);
	e = &l.entries[7];
	CHECK(e->kind == LIST_MODULE && e->need == NEED_IF_MODULE);
	CHECK_EQ_STR(e->class, "fs");
	CHECK_EQ_STR(e->served_by, "ext4");
	CHECK_EQ_STR(e->served_by_config, "CONFIG_EXT4_USE_FOR_EXT2");
	CHECK(l.entries[8].need == NEED_OPTIONAL);
	CHECK_EQ_STR(l.entries[8].name, "virtio-rng"); /* as written: libkmod resolves it */
	CHECK(l.entries[9].need == NEED_ALWAYS && l.entries[9].served_by == NULL);
	CHECK_EQ_STR(appliance_list_params(&l, "null_blk"), "nr_devices=0 queue_mode=2");
	CHECK(appliance_list_params(&l, "md_mod") == NULL);
	e = &l.entries[11];
	CHECK(e->kind == LIST_DATA);
	CHECK_EQ_STR(e->path, "matrix/*.matrix");
	CHECK_EQ_STR(e->dir, "/etc/iomatrix/matrix");

	w = appliance_list_modules(&l);
	CHECK(w != NULL);
	if (w) {
		CHECK_EQ_STR(w[0].name, "ext2");
		CHECK_EQ_STR(w[1].name, "virtio-rng");
		CHECK_EQ_STR(w[2].why, "md arrays");
		CHECK(w[3].name == NULL);
		free(w);
	}
	appliance_list_free(&l);
}

/*
 * The shipped list reads, and holds what the appliance cannot boot without;
 * its matrices and job files go where the runner looks for them
 * (lib/appliance_contract.h), which no boot test would name if they did not.
 */
static void test_shipped_list(void)
{
	struct appliance_list l;
	char err[ERRMSG_LEN] = "";
	size_t tools = 0, modules = 0, etc_dir = 0;
	const char *matrix_dir = NULL, *jobs_dir = NULL;

	CHECK_EQ_INT(appliance_list_load(&l, APPLIANCE_LIST_IN_TREE, err, sizeof(err)), 0);
	CHECK_EQ_STR(err, "");
	for (size_t i = 0; i < l.count; i++) {
		tools += l.entries[i].kind == LIST_TOOL;
		modules += l.entries[i].kind == LIST_MODULE;
		etc_dir += l.entries[i].kind == LIST_DIR && !strcmp(l.entries[i].path, IMAGE_ETC_DIR);
		if (l.entries[i].kind == LIST_DATA && !strcmp(l.entries[i].path, "matrix/*.matrix"))
			matrix_dir = l.entries[i].dir;
		if (l.entries[i].kind == LIST_DATA && !strcmp(l.entries[i].path, "configs/jobs/*.fio"))
			jobs_dir = l.entries[i].dir;
	}
	CHECK_EQ_INT(etc_dir, 1);
	CHECK(matrix_dir && !strcmp(matrix_dir, IMAGE_MATRIX_DIR));
	CHECK(jobs_dir && !strcmp(jobs_dir, IMAGE_JOBS_DIR));
	CHECK_EQ_INT(tools, 6);
	CHECK_EQ_INT(modules, 21);
	CHECK_EQ_STR(appliance_list_params(&l, "null_blk"), "nr_devices=0");
	appliance_list_free(&l);
}

static const struct {
	const char *text;
	const char *err;
} bad_lines[] = {
	{ "dir /a 0755\nfrob /x\n",
	  "dir/t.list:2: 'frob' is not a kind of entry (dir, nod, slink, file, tool, module, "
	  "options, data)" },
	{ "dir /a\n", "dir/t.list:1: dir takes PATH MODE (1 word given)" },
	{ "\n\nnod /dev/x 0600 c 1\n",
	  "dir/t.list:3: nod takes PATH MODE c MAJOR MINOR (4 words given)" },
	{ "dir a/b 0755\n", "dir/t.list:1: 'a/b' is not a clean absolute path in the image" },
	{ "dir /a/../b 0755\n",
	  "dir/t.list:1: '/a/../b' is not a clean absolute path in the image" },
	{ "dir /a 0855\n", "dir/t.list:1: mode '0855' is not octal from 0 to 7777" },
	{ "dir /a 17777\n", "dir/t.list:1: mode '17777' is not octal from 0 to 7777" },
	{ "nod /dev/sda 0600 b 8 0\n",
	  "dir/t.list:1: device type 'b': only character devices (c) are supported" },
	{ "nod /dev/x 0600 c 4096 0\n",
	  "dir/t.list:1: major '4096' is not a number from 0 to 4095" },
	{ "nod /dev/x 0600 c 1 -3\n",
	  "dir/t.list:1: minor '-3' is not a number from 0 to 1048575" },
	{ "slink /bin/sh \"\"\n", "dir/t.list:1: the link target is empty" },
	{ "tool /sbin/x pkg \"why\" required\n",
	  "dir/t.list:1: 'required': the only word after WHY can be 'optional'" },
	{ "tool /sbin/x pkg \"why\n", "dir/t.list:1: a quote that does not end on its line" },
	{ "tool /sbin/x pkg \"why\"not\n",
	  "dir/t.list:1: a quoted word must be followed by a blank" },
	{ "tool /sbin/x pkg wh\"y\n", "dir/t.list:1: a quote inside the word 'wh\"y'" },
	{ "module FS ext4 CONFIG_EXT4_FS ext4\n",
	  "dir/t.list:1: class 'FS' is not a word of small letters, digits, '_' and '-'" },
	{ "module fs ext/4 CONFIG_EXT4_FS ext4\n",
	  "dir/t.list:1: 'ext/4' is not a module name (letters, digits, '_' and '-')" },
	{ "module fs ext4 EXT4_FS ext4\n",
	  "dir/t.list:1: 'EXT4_FS' is not a kernel option (CONFIG_ and capitals, digits, '_')" },
	{ "module fs ext4 CONFIG_EXT4_FS ext4 sometimes\n",
	  "dir/t.list:1: 'sometimes': after WHY come 'optional', or 'if-module' and "
	  "'served-by=MODULE:OPTION', each once" },
	{ "module fs ext4 CONFIG_EXT4_FS ext4 optional optional\n",
	  "dir/t.list:1: 'optional': after WHY come 'optional', or 'if-module' and "
	  "'served-by=MODULE:OPTION', each once" },
	{ "module fs ext2 CONFIG_EXT2_FS ext2 optional if-module\n",
	  "dir/t.list:1: a module is 'optional' or 'if-module', not both" },
	{ "module fs ext2 CONFIG_EXT2_FS ext2 served-by=ext4:CONFIG_EXT4_USE_FOR_EXT2\n",
	  "dir/t.list:1: served-by= is for an 'if-module' module" },
	{ "module fs ext2 CONFIG_EXT2_FS ext2 if-module served-by=ext4\n",
	  "dir/t.list:1: 'served-by=ext4' is not served-by=MODULE:OPTION" },
	{ "module md md-mod CONFIG_BLK_DEV_MD md\nmodule md md_mod CONFIG_BLK_DEV_MD md\n",
	  "dir/t.list:2: module md_mod is on line 1 already" },
	{ "options null_blk nr_devices=0\noptions null-blk x=1\n",
	  "dir/t.list:2: options for null_blk are on line 1 already" },
	{ "options null_blk\n", "dir/t.list:1: options takes MODULE PARAM... (1 word given)" },
	{ "dir /bin 0755\ntool /bin pkg why\n", "dir/t.list:2: /bin is on line 1 already" },
	{ "data /etc/*.conf /etc\n",
	  "dir/t.list:1: pattern '/etc/*.conf' is not relative to --data-dir" },
	{ "data a/../../b /etc\n", "dir/t.list:1: pattern 'a/../../b' climbs out of --data-dir" },
	{ "dir /a 0755\ndir /b 0755 \"\0\"\n", "dir/t.list:2: a NUL byte" },
	{ "options m a b c d e f g h i j k l m n o p q r s t u v w x y z 1 2 3 4 5\n",
	  "dir/t.list:1: more than 32 words" },
};

static void test_bad_lines(void)
{
	for (size_t i = 0; i < sizeof(bad_lines) / sizeof(bad_lines[0]); i++) {
		const char *text = bad_lines[i].text;
		size_t len = strlen(text);
		struct appliance_list l;
		char err[ERRMSG_LEN] = "";

		if (strstr(bad_lines[i].err, "NUL"))
			len += strlen(text + len + 1) + 1; /* past the NUL the line holds */
		CHECK_EQ_INT(appliance_list_parse(&l, "dir/t.list", text, len, err, sizeof(err)),
			     -1);
		CHECK_EQ_STR(err, bad_lines[i].err);
		CHECK(l.count == 0 && l.entries == NULL); /* nothing left on failure */
	}
}

static void test_load_missing(void)
{
	struct appliance_list l;
	char err[ERRMSG_LEN] = "";

	CHECK_EQ_INT(appliance_list_load(&l, "build/tests/no-such.list", err, sizeof(err)), -1);
	CHECK(strstr(err, "build/tests/no-such.list") != NULL);
}

int main(void)
{
	RUN_TEST(test_good_lines);
	RUN_TEST(test_shipped_list);
	RUN_TEST(test_bad_lines);
	RUN_TEST(test_load_missing);
	CHECK_EXIT();
}
