// SPDX-License-Identifier: GPL-2.0
/* modules.builtin and modules.softdep as the image builder reads them. */
#include "check.h"
#include "initramfs/module_lists.h"

static void test_builtin(void)
{
	static const char text[] = "kernel/fs/ext4/ext4.ko\nkernel/drivers/md/md-mod.ko\r\n"
				   "\nnot-a-module.txt\nkernel/x.ko\nkernel/x.ko\nunix.ko";
	struct name_list l;

	CHECK_EQ_INT(module_builtin_parse(text, sizeof(text) - 1, &l), 0);
	CHECK_EQ_INT(l.count, 4);
	CHECK(name_list_has(&l, "ext4"));
	CHECK(name_list_has(&l, "md_mod")); /* '-' normalised */
	CHECK(!name_list_has(&l, "md-mod"));
	CHECK(name_list_has(&l, "x") && name_list_has(&l, "unix"));
	name_list_free(&l);
}

static void test_softdep(void)
{
	/* as depmod writes it for btrfs: one line per softdep= */
	static const char text[] = "# Soft dependencies extracted from modules themselves.\n"
				   "softdep btrfs pre: blake2b-256\n"
				   "softdep btrfs pre: xxhash64\n"
				   "softdep crc-t10dif pre: crct10dif post: after-a after-b\n"
				   "softdep cifs gcm\n"
				   "softdep\nsoftdep lonely\n"
				   "alias x y\n";
	struct softdep_list l;

	CHECK_EQ_INT(module_softdep_parse(text, sizeof(text) - 1, &l), 0);
	CHECK_EQ_INT(l.count, 5);
	CHECK_EQ_STR(l.items[0].module, "btrfs");
	CHECK_EQ_STR(l.items[0].pre.names[0], "blake2b-256");
	CHECK_EQ_STR(l.items[1].module, "btrfs");
	CHECK_EQ_STR(l.items[1].pre.names[0], "xxhash64");
	CHECK_EQ_STR(l.items[2].module, "crc_t10dif");
	CHECK_EQ_INT(l.items[2].pre.count, 1);
	CHECK_EQ_INT(l.items[2].post.count, 2);
	CHECK_EQ_STR(l.items[2].post.names[1], "after-b");
	/* words before pre:/post: are not soft dependencies */
	CHECK_EQ_INT(l.items[3].pre.count + l.items[3].post.count, 0);
	CHECK_EQ_STR(l.items[4].module, "lonely");
	softdep_list_free(&l);
}

int main(void)
{
	RUN_TEST(test_builtin);
	RUN_TEST(test_softdep);
	CHECK_EXIT();
}
