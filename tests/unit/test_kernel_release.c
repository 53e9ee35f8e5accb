// SPDX-License-Identifier: GPL-2.0
/* Which kernel release an image is for: the system's newest, or a tree's only one. */
#include <limits.h>
#include <stdlib.h>

#include "check.h"
#include "lib/errmsg.h"
#include "initramfs/kernel_release.h"

static char root[] = "/tmp/iomatrix-release-XXXXXX";

static void sh(const char *fmt, const char *arg)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), fmt, arg, arg, arg, arg);
	CHECK_EQ_INT(system(cmd), 0);
}

static void test_system_newest_with_kernel(void)
{
	char release[256], moddir[PATH_MAX], want[PATH_MAX], err[ERRMSG_LEN];

	CHECK(mkdtemp(root) != NULL);
	sh("mkdir -p %s/lib/modules/5.9.0 %s/lib/modules/5.10.0-1 %s/lib/modules/6.1.0 %s/boot",
	   root);
	sh("touch %1$s/boot/vmlinuz-5.9.0 %1$s/boot/vmlinuz-5.10.0-1", root);
	/* 6.1.0 has modules but no kernel: not a candidate; 5.10 sorts after 5.9 */
	CHECK_EQ_INT(kernel_release_pick(root, NULL, NULL, release, sizeof(release), moddir,
					 sizeof(moddir), err, sizeof(err)), 0);
	CHECK_EQ_STR(release, "5.10.0-1");
	snprintf(want, sizeof(want), "%s/lib/modules/5.10.0-1", root);
	CHECK_EQ_STR(moddir, want);
	/* an explicit release needs only its modules */
	CHECK_EQ_INT(kernel_release_pick(root, NULL, "6.1.0", release, sizeof(release), moddir,
					 sizeof(moddir), err, sizeof(err)), 0);
	CHECK_EQ_INT(kernel_release_pick(root, NULL, "7.0", release, sizeof(release), moddir,
					 sizeof(moddir), err, sizeof(err)), -1);
	CHECK(strstr(err, "kernel release 7.0:") && strstr(err, "install linux-image-7.0"));
	CHECK_EQ_INT(kernel_release_pick(root, NULL, "../x", release, sizeof(release), moddir,
					 sizeof(moddir), err, sizeof(err)), -1);
	CHECK(strstr(err, "not a kernel release name") != NULL);
}

static void test_system_without_kernel(void)
{
	char release[256], moddir[PATH_MAX], err[ERRMSG_LEN], empty[PATH_MAX];

	snprintf(empty, sizeof(empty), "%s/empty", root);
	sh("mkdir -p %s/empty/lib/modules/1.0 %s/empty/boot", root);
	CHECK_EQ_INT(kernel_release_pick(empty, NULL, NULL, release, sizeof(release), moddir,
					 sizeof(moddir), err, sizeof(err)), -1);
	CHECK(strstr(err, "no installed kernel") && strstr(err, "make deps"));
}

static void test_tree(void)
{
	char release[256], moddir[PATH_MAX], err[ERRMSG_LEN], tree[PATH_MAX];

	snprintf(tree, sizeof(tree), "%s/tree", root);
	CHECK_EQ_INT(kernel_release_pick("", tree, NULL, release, sizeof(release), moddir,
					 sizeof(moddir), err, sizeof(err)), -1);
	CHECK(strstr(err, "no such directory") != NULL);
	sh("mkdir -p %s/tree", root);
	CHECK_EQ_INT(kernel_release_pick("", tree, NULL, release, sizeof(release), moddir,
					 sizeof(moddir), err, sizeof(err)), -1);
	CHECK(strstr(err, "has no lib/modules") && strstr(err, "INSTALL_MOD_PATH"));
	sh("mkdir -p %s/tree/lib/modules", root);
	CHECK_EQ_INT(kernel_release_pick("", tree, NULL, release, sizeof(release), moddir,
					 sizeof(moddir), err, sizeof(err)), -1);
	CHECK(strstr(err, "holds no kernel release") != NULL);
	sh("mkdir -p %s/tree/lib/modules/6.12.0-rc1+", root);
	CHECK_EQ_INT(kernel_release_pick("", tree, NULL, release, sizeof(release), moddir,
					 sizeof(moddir), err, sizeof(err)), 0);
	CHECK_EQ_STR(release, "6.12.0-rc1+");
	sh("mkdir -p %s/tree/lib/modules/6.13.0", root);
	CHECK_EQ_INT(kernel_release_pick("", tree, NULL, release, sizeof(release), moddir,
					 sizeof(moddir), err, sizeof(err)), -1);
	CHECK(strstr(err, "holds 2 releases") && strstr(err, "--release"));
	CHECK_EQ_INT(kernel_release_pick("", tree, "6.13.0", release, sizeof(release), moddir,
					 sizeof(moddir), err, sizeof(err)), 0);
	CHECK_EQ_INT(kernel_release_pick("", tree, "6.14.0", release, sizeof(release), moddir,
					 sizeof(moddir), err, sizeof(err)), -1);
	CHECK(strstr(err, "make modules_install") != NULL);
	sh("rm -rf %s", root);
}

int main(void)
{
	RUN_TEST(test_system_newest_with_kernel);
	RUN_TEST(test_system_without_kernel);
	RUN_TEST(test_tree);
	CHECK_EXIT();
}
