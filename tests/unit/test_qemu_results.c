// SPDX-License-Identifier: GPL-2.0
/* iomatrix qemu's results disk and serial port: the file, and the kernel command line words. */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "qemu/qemu_results.h"

static char dir[] = "/tmp/iomatrix-qr-XXXXXX";

static void test_cmdline_sets(void)
{
	CHECK(qr_cmdline_sets("iomatrix.results=console", "results"));
	CHECK(qr_cmdline_sets("quiet iomatrix.results_init iomatrix.debug", "results_init"));
	CHECK(qr_cmdline_sets("\"iomatrix.results=serial:ttyS2\"", "results"));
	CHECK(!qr_cmdline_sets("iomatrix.results_init=1", "results"));
	CHECK(!qr_cmdline_sets("xiomatrix.results=1", "results"));
	CHECK(!qr_cmdline_sets(NULL, "results"));
	CHECK(!qr_cmdline_sets("", "results"));
}

static void test_words(void)
{
	struct qemu_results r = {0};
	char buf[256];

	qr_cmdline(&r, NULL, buf, sizeof(buf));
	CHECK_EQ_STR(buf, "");
	snprintf(r.serial, sizeof(r.serial), "x.log");
	qr_cmdline(&r, NULL, buf, sizeof(buf));
	CHECK_EQ_STR(buf, " iomatrix.results=serial:ttyS1");
	snprintf(r.disk, sizeof(r.disk), "r.img");
	r.disk_blank = true;
	qr_cmdline(&r, "iomatrix.debug", buf, sizeof(buf));
	CHECK_EQ_STR(buf, " iomatrix.results=disk:serial=iomatrix-results,serial:ttyS1 "
			  "iomatrix.results_init=1");
	r.serial[0] = '\0';
	r.disk_blank = false;
	qr_cmdline(&r, NULL, buf, sizeof(buf));
	CHECK_EQ_STR(buf, " iomatrix.results=disk:serial=iomatrix-results,console");
	/* the user's own keys win: nothing added for them */
	r.disk_blank = true;
	qr_cmdline(&r, "iomatrix.results=disk:serial=iomatrix-results iomatrix.results_init=force",
		   buf, sizeof(buf));
	CHECK_EQ_STR(buf, "");
}

static void test_prepare(void)
{
	struct qemu_results r;
	char path[600], err[QR_ERR_LEN];
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "%s/res.img", dir);
	CHECK_EQ_INT(qr_prepare(path, NULL, true, &r, err, sizeof(err)), 0);
	CHECK(r.disk_blank);
	CHECK(stat(path, &st) != 0); /* a dry run makes nothing */
	CHECK_EQ_INT(qr_prepare(path, "s.log", false, &r, err, sizeof(err)), 0);
	CHECK(r.disk_blank && !r.disk_block);
	CHECK_EQ_STR(r.serial, "s.log");
	CHECK(stat(path, &st) == 0 && (unsigned long long)st.st_size == QR_DISK_SIZE);
	CHECK(st.st_blocks == 0); /* sparse */
	/* there already, never written: still blank */
	CHECK_EQ_INT(qr_prepare(path, NULL, false, &r, err, sizeof(err)), 0);
	CHECK(r.disk_blank);
	/* written to: no longer the launcher's to initialise */
	fd = open(path, O_WRONLY);
	CHECK(fd >= 0 && pwrite(fd, "IOMXLOG", 7, 0) == 7);
	close(fd);
	CHECK_EQ_INT(qr_prepare(path, NULL, false, &r, err, sizeof(err)), 0);
	CHECK(!r.disk_blank);
	CHECK_EQ_INT(qr_prepare(dir, NULL, false, &r, err, sizeof(err)), -1);
	CHECK(strstr(err, "neither a file nor a block device") != NULL);
	snprintf(path, sizeof(path), "%s/no/such/dir/res.img", dir);
	CHECK_EQ_INT(qr_prepare(path, NULL, false, &r, err, sizeof(err)), -1);
	CHECK(strstr(err, "No such file or directory") != NULL);
}

int main(void)
{
	char cmd[700];

	if (!mkdtemp(dir))
		return 1;
	RUN_TEST(test_cmdline_sets);
	RUN_TEST(test_words);
	RUN_TEST(test_prepare);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		return 1;
	CHECK_EXIT();
}
