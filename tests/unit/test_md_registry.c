// SPDX-License-Identifier: GPL-2.0
/* The md array registry, stopped through a stand-in mdadm on PATH. */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "runner/setup/md_registry.h"
#include "runner/spawn.h"

static char dir[] = "/tmp/iomatrix-md-XXXXXX";
static char log_path[256];

/* An mdadm that logs its arguments and fails for /dev/md9. */
static void fake_mdadm(void)
{
	char path[256], env[512];
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(log_path, sizeof(log_path), "%s/log", dir);
	snprintf(path, sizeof(path), "%s/mdadm", dir);
	f = fopen(path, "w");
	CHECK(f != NULL);
	fprintf(f, "#!/bin/sh\necho \"$*\" >> %s\n[ \"$2\" != /dev/md9 ]\n", log_path);
	fclose(f);
	chmod(path, 0755);
	snprintf(env, sizeof(env), "%s:%s", dir, getenv("PATH"));
	setenv("PATH", env, 1);
}

static void test_add_remove(void)
{
	CHECK_EQ_INT(md_registry_add("/dev/md0"), 0);
	CHECK_EQ_INT(md_registry_add("/dev/md0"), -EEXIST);
	CHECK_EQ_INT(md_registry_add("/dev/md1"), 0);
	CHECK_EQ_INT(md_registry_count(), 2);
	CHECK_EQ_INT(md_registry_remove("/dev/md0"), 0);
	CHECK_EQ_INT(md_registry_remove("/dev/md0"), -ENOENT);
	CHECK_EQ_STR(md_registry_get(0), "/dev/md1");
	CHECK(md_registry_get(1) == NULL);
	CHECK_EQ_INT(md_registry_remove("/dev/md1"), 0);
}

static void test_stop_all_newest_first_keeps_failures(void)
{
	char buf[256] = "";
	FILE *f;

	fake_mdadm();
	md_registry_add("/dev/md0");
	md_registry_add("/dev/md9");
	md_registry_add("/dev/md1");
	CHECK_EQ_INT(md_registry_stop_all(10), 1);
	f = fopen(log_path, "r");
	CHECK(f != NULL);
	if (f) {
		size_t n = fread(buf, 1, sizeof(buf) - 1, f);

		buf[n] = '\0';
		fclose(f);
	}
	CHECK_EQ_STR(buf, "--stop /dev/md1\n--stop /dev/md9\n--stop /dev/md0\n");
	CHECK_EQ_INT(md_registry_count(), 1);
	CHECK_EQ_STR(md_registry_get(0), "/dev/md9");
	unlink(log_path);
	snprintf(buf, sizeof(buf), "%s/mdadm", dir);
	unlink(buf);
	rmdir(dir);
}

int main(void)
{
	spawn_init();
	RUN_TEST(test_add_remove);
	RUN_TEST(test_stop_all_newest_first_keeps_failures);
	CHECK_EXIT();
}
