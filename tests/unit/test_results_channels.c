// SPDX-License-Identifier: GPL-2.0
/*
 * The results channels: disk:SPEC found in a fake sysfs (partitions by their
 * GPT, made with sfdisk), the results log refused, made or opened, and a
 * failing serial channel dropped without stopping the others.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "runner/setup/disks.h"
#include "runner/results/results_channels.h"

static char root[] = "/tmp/iomatrix-rch-XXXXXX";
static char sys[600], dev[600];
static struct disk_list found;

static void put(const char *path, const char *data)
{
	char p[1024], *slash;
	FILE *f;

	snprintf(p, sizeof(p), "%s", path);
	for (slash = strchr(p + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(p, 0755);
		*slash = '/';
	}
	f = fopen(p, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(data, f);
		fclose(f);
	}
}

/* A disk in sysfs, with partitions numbered 1..nparts (vdd1, vdd2, ...). */
static void disk(const char *name, const char *serial, int nparts)
{
	char path[1024], link[1024], target[512];

	snprintf(path, sizeof(path), "%s/devices/pci/%s/size", sys, name);
	put(path, "131072\n");
	snprintf(path, sizeof(path), "%s/devices/pci/%s/serial", sys, name);
	put(path, serial);
	for (int i = 1; i <= nparts; i++) {
		char nr[8];

		snprintf(path, sizeof(path), "%s/devices/pci/%s/%s%d/partition", sys, name, name,
			 i);
		snprintf(nr, sizeof(nr), "%d\n", i);
		put(path, nr);
	}
	snprintf(link, sizeof(link), "%s/block", sys);
	mkdir(link, 0755);
	snprintf(link, sizeof(link), "%s/block/%s", sys, name);
	snprintf(target, sizeof(target), "../devices/pci/%s", name);
	CHECK_EQ_INT(symlink(target, link), 0);
}

static void file(const char *name, const char *size)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "truncate -s %s %s/%s", size, dev, name);
	CHECK_EQ_INT(system(cmd), 0);
}

static void build(void)
{
	char cmd[1024], err[DISKS_ERR_LEN];

	CHECK(mkdtemp(root) != NULL);
	snprintf(sys, sizeof(sys), "%s/sys", root);
	snprintf(dev, sizeof(dev), "%s/dev", root);
	mkdir(sys, 0755);
	mkdir(dev, 0755);
	disk("vda", "iomatrix-disk0\n", 0);
	disk("vdd", "iomatrix-results\n", 0);
	disk("vde", "twin\n", 0);
	disk("vdf", "twin\n", 0);
	disk("vdg", "gpt-disk\n", 2);
	file("vda", "4M");
	file("vdd", "4M");
	file("vdg", "4M");
	file("vdg1", "1M");
	file("vdg2", "1M");
	snprintf(cmd, sizeof(cmd),
		 "printf 'label: gpt\\nstart=2048, size=2048, name=\"data\"\\nstart=4096, "
		 "size=2048, name=\"iomatrix-results\", "
		 "uuid=8CD80E87-BFEF-0F4D-AF50-964617D7D04E\\n' | sfdisk -q %s/vdg",
		 dev);
	CHECK_EQ_INT(system(cmd), 0);
	CHECK_EQ_INT(disks_scan(sys, "", &found, err, sizeof(err)), 0);
	CHECK_EQ_INT(found.count, 5);
}

static int find(const char *word, struct results_device *d, char *err)
{
	struct results_spec spec;

	CHECK_EQ_INT(results_spec_parse(word, &spec, err, RESULTS_ERR_LEN), 0);
	return results_find_device(&spec.ch[0], &found, sys, dev, d, err, RESULTS_ERR_LEN);
}

static void test_find_device(void)
{
	struct results_device d;
	char err[RESULTS_ERR_LEN], want[700];

	CHECK_EQ_INT(find("disk:serial=iomatrix-results", &d, err), 0);
	CHECK_EQ_STR(d.disk, "vdd");
	CHECK_EQ_STR(d.part, "");
	snprintf(want, sizeof(want), "%s/vdd", dev);
	CHECK_EQ_STR(d.path, want);
	CHECK_EQ_INT(find("disk:/dev/vdg2", &d, err), 0);
	CHECK_EQ_STR(d.disk, "vdg");
	CHECK_EQ_STR(d.part, "vdg2");
	CHECK_EQ_INT(find("disk:PARTLABEL=iomatrix-results", &d, err), 0);
	CHECK_EQ_STR(d.disk, "vdg");
	CHECK_EQ_STR(d.part, "vdg2");
	snprintf(want, sizeof(want), "%s/vdg2", dev);
	CHECK_EQ_STR(d.path, want);
	CHECK_EQ_INT(find("disk:PARTUUID=8cd80e87-bfef-0f4d-af50-964617d7d04e", &d, err), 0);
	CHECK_EQ_STR(d.part, "vdg2");
	CHECK_EQ_INT(find("disk:PARTLABEL=data", &d, err), 0);
	CHECK_EQ_STR(d.part, "vdg1");

	CHECK_EQ_INT(find("disk:serial=twin", &d, err), -1);
	CHECK_EQ_STR(err, "2 disks have serial twin");
	CHECK_EQ_INT(find("disk:serial=nobody", &d, err), -1);
	CHECK_EQ_STR(err, "no disk has serial nobody");
	CHECK_EQ_INT(find("disk:vdz9", &d, err), -1);
	CHECK_EQ_STR(err, "no disk or partition vdz9");
	CHECK_EQ_INT(find("disk:PARTLABEL=nothing", &d, err), -1);
	CHECK_EQ_STR(err, "no GPT partition has PARTLABEL=nothing");
}

static void test_open_log(void)
{
	struct results_log log;
	char path[700], err[RESULTS_ERR_LEN];
	int fd;

	snprintf(path, sizeof(path), "%s/vda", dev);
	/* no log, not told to make one */
	CHECK_EQ_INT(
		results_open_log(&log, path, RESULTS_INIT_NO, "r1", NULL, NULL, err, sizeof(err)),
		-1);
	CHECK(strstr(err, "holds no results log (iomatrix.results_init=1 makes it one)") != NULL);
	CHECK_EQ_INT(
		results_open_log(&log, path, RESULTS_INIT_YES, "r1", NULL, NULL, err, sizeof(err)),
		RESULTS_LOG_INITIALISED);
	CHECK_EQ_STR(log.info.run_id, "r1");
	rlog_close(&log);
	/* there now: opened, whatever init says, its run id kept */
	CHECK_EQ_INT(results_open_log(&log, path, RESULTS_INIT_FORCE, "r2", NULL, NULL, err,
				      sizeof(err)),
		     RESULTS_LOG_OPENED);
	CHECK_EQ_STR(log.info.run_id, "r1");
	rlog_close(&log);
	/* a filesystem on it: refused with 1, destroyed with force */
	fd = open(path, O_RDWR);
	CHECK(fd >= 0 && pwrite(fd, "\x53\xef", 2, 1080) == 2 && pwrite(fd, "\0", 1, 0) == 1);
	close(fd);
	CHECK_EQ_INT(
		results_open_log(&log, path, RESULTS_INIT_YES, "r3", NULL, NULL, err, sizeof(err)),
		-1);
	CHECK(strstr(err, "holds a ext2/3/4 filesystem: refusing") != NULL);
	CHECK(strstr(err, "(iomatrix.results_init=force)") != NULL);
	CHECK_EQ_INT(results_open_log(&log, path, RESULTS_INIT_FORCE, "r3", NULL, NULL, err,
				      sizeof(err)),
		     RESULTS_LOG_INITIALISED);
	rlog_close(&log);
	snprintf(path, sizeof(path), "%s/nothere", dev);
	CHECK_EQ_INT(
		results_open_log(&log, path, RESULTS_INIT_YES, "r4", NULL, NULL, err, sizeof(err)),
		-1);
	CHECK(strstr(err, "No such file") != NULL);
}

static void test_write_and_drop(void)
{
	static struct results_channels c;
	struct rlog_entry e = {1, 1, 0, "{\"seq\":1}", 9};
	char path[700], out[700], shown[512], err[RESULTS_ERR_LEN];
	int fd;

	memset(&c, 0, sizeof(c));
	CHECK_EQ_INT(results_spec_parse("disk:vdd,console,serial:ttyS1", &c.spec, err, sizeof(err)),
		     0);
	snprintf(path, sizeof(path), "%s/vdd", dev);
	CHECK_EQ_INT(results_open_log(&c.log, path, RESULTS_INIT_YES, "w1", NULL, NULL, err,
				      sizeof(err)),
		     RESULTS_LOG_INITIALISED);
	c.have_log = true;
	snprintf(out, sizeof(out), "%s/serial.out", root);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	c.serial[0] = (struct results_serial){&c.spec.ch[1], fd, -1, 0, false};
	c.serial[1] = (struct results_serial){&c.spec.ch[2], 999, -1, 0, false}; /* EBADF */
	c.nserial = 2;
	results_describe(&c, shown, sizeof(shown));
	CHECK(strstr(shown, "disk:vdd (") == shown);
	CHECK(strstr(shown, "), console, serial:ttyS1") != NULL);
	for (uint32_t s = 1; s <= 4; s++) {
		e.seq = s;
		CHECK_EQ_INT(results_write(&c, &e), s <= 3 ? -1 : 0);
	}
	/* the bad one dropped after three failures; the log and the good one took all four */
	CHECK(c.serial[1].dropped);
	CHECK(!c.serial[0].dropped);
	CHECK_EQ_INT(c.log.last_seq, 4);
	close(fd);
	c.serial[0].fd = -1;
	c.serial[1].fd = -1;
	results_close(&c);
	{
		char cmd[800];

		snprintf(cmd, sizeof(cmd), "test $(grep -c '^@IOMX1 ' %s) -eq 4", out);
		CHECK_EQ_INT(system(cmd), 0);
	}
}

int main(void)
{
	char cmd[700];

	signal(SIGPIPE, SIG_IGN);
	RUN_TEST(build); /* its checks count too */
	RUN_TEST(test_find_device);
	RUN_TEST(test_open_log);
	RUN_TEST(test_write_and_drop);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd))
		return 1;
	CHECK_EXIT();
}
