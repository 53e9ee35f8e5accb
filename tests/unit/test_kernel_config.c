// SPDX-License-Identifier: GPL-2.0
/* A kernel .config: values, unset options, where it is looked for. */
#include <stdlib.h>

#include "check.h"
#include "lib/errmsg.h"
#include "initramfs/kernel_config.h"

static void test_values(void)
{
	static const char text[] = "#\n# Automatically generated file\n"
				   "CONFIG_RD_GZIP=y\n"
				   "# CONFIG_RD_XZ is not set\n"
				   "CONFIG_EXT4_FS=m\r\n"
				   "CONFIG_LOCALVERSION=\"-x y\"\n"
				   "CONFIG_=y\nCONFIGX=y\nCONFIG_BAD KEY=y\n"
				   "CONFIG_RD_GZIP=m\n"
				   "CONFIG_LAST=1";
	struct kernel_config c;

	CHECK_EQ_INT(kernel_config_parse(&c, "t.config", text, sizeof(text) - 1), 0);
	CHECK_EQ_STR(kernel_config_get(&c, "CONFIG_RD_GZIP"), "m"); /* the last one wins */
	CHECK(kernel_config_get(&c, "CONFIG_RD_XZ") == NULL);
	CHECK_EQ_STR(kernel_config_get(&c, "CONFIG_EXT4_FS"), "m");
	CHECK_EQ_STR(kernel_config_get(&c, "CONFIG_LOCALVERSION"), "\"-x y\"");
	CHECK_EQ_STR(kernel_config_get(&c, "CONFIG_LAST"), "1");
	CHECK(kernel_config_get(&c, "CONFIG_") == NULL);
	CHECK(kernel_config_get(&c, "CONFIG_BAD") == NULL);
	CHECK_EQ_STR(c.path, "t.config");
	kernel_config_free(&c);
}

static void test_find(void)
{
	char dir[] = "/tmp/iomatrix-kconfig-XXXXXX", cmd[512], out[512], tried[2048],
	     want[512], err[ERRMSG_LEN];
	struct kernel_config c;

	CHECK(mkdtemp(dir) != NULL);
	CHECK_EQ_INT(kernel_config_find(dir, "6.9.0", out, sizeof(out), tried, sizeof(tried)), -1);
	CHECK(strstr(tried, "/boot/config-6.9.0") && strstr(tried, "/.config"));
	/* the build tree's .config, found through modules_install's build link */
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p %1$s/src %1$s/lib/modules/6.9.0 && echo CONFIG_RD_ZSTD=y > %1$s/src/.config"
		 " && ln -s %1$s/src %1$s/lib/modules/6.9.0/build",
		 dir);
	CHECK_EQ_INT(system(cmd), 0);
	CHECK_EQ_INT(kernel_config_find(dir, "6.9.0", out, sizeof(out), tried, sizeof(tried)), 0);
	snprintf(want, sizeof(want), "%s/lib/modules/6.9.0/build/.config", dir);
	CHECK_EQ_STR(out, want);
	CHECK_EQ_INT(kernel_config_load(&c, out, err, sizeof(err)), 0);
	CHECK_EQ_STR(kernel_config_get(&c, "CONFIG_RD_ZSTD"), "y");
	kernel_config_free(&c);
	/* /boot/config-R comes first */
	snprintf(cmd, sizeof(cmd), "mkdir -p %1$s/boot && touch %1$s/boot/config-6.9.0", dir);
	CHECK_EQ_INT(system(cmd), 0);
	CHECK_EQ_INT(kernel_config_find(dir, "6.9.0", out, sizeof(out), tried, sizeof(tried)), 0);
	snprintf(want, sizeof(want), "%s/boot/config-6.9.0", dir);
	CHECK_EQ_STR(out, want);
	CHECK_EQ_INT(kernel_config_load(&c, "/nonexistent/config", err, sizeof(err)), -1);
	CHECK_EQ_STR(err, "/nonexistent/config: No such file or directory");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK_EQ_INT(system(cmd), 0);
}

int main(void)
{
	RUN_TEST(test_values);
	RUN_TEST(test_find);
	CHECK_EXIT();
}
