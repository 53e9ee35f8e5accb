// SPDX-License-Identifier: GPL-2.0
/* Listing block devices from a fake sysfs tree. */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "runner/setup/disks.h"

static char root[] = "/tmp/iomatrix-sysfs-XXXXXX";

static void put(const char *rel, const char *data, size_t len)
{
	char path[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fwrite(data, 1, len, f);
		fclose(f);
	}
}

#define PUT(rel, s) put(rel, s, sizeof(s) - 1)

static void build_tree(void)
{
	CHECK(mkdtemp(root) != NULL);
	PUT("block/vda/size", "2097152\n");
	PUT("block/vda/serial", "iomatrix-disk0\n");
	PUT("block/vda/queue/rotational", "1\n");
	PUT("block/nvme0n1/size", "4194304\n");
	PUT("block/nvme0n1/device/serial", "iomatrix-disk1      \n");
	PUT("block/nvme0n1/device/model", "QEMU NVMe Ctrl                          \n");
	PUT("block/nvme0n1/queue/rotational", "0\n");
	PUT("block/sda/size", "1024\n");
	PUT("block/sda/ro", "1\n");
	PUT("block/sda/device/model", "QEMU HARDDISK   \n");
	/* VPD page 0x80: header with length 8, then the serial. */
	PUT("block/sda/device/vpd_pg80", "\x00\x80\x00\x08SCSI0001");
	PUT("block/loop0/size", "0\n");
	PUT("block/loop1/size", "2048\n");
	PUT("block/zram0/size", "0\n");
	PUT("block/ram0/size", "8192\n");
	PUT("block/ram1/size", "8192\n");
	PUT("class/nvme/nvme0/state", "live\n");
}

static void test_scan(void)
{
	static struct disk_list l;
	char err[DISKS_ERR_LEN], size[32];

	CHECK_EQ_INT(disks_scan(root, "ram1,vda", &l, err, sizeof(err)), 0);
	CHECK_EQ_INT(l.count, 5);
	if (l.count != 5)
		return;
	/* Sorted by name; loop0 and zram0 (no size) and ram0 (not named) left out. */
	CHECK_EQ_STR(l.d[0].name, "loop1");
	CHECK_EQ_STR(l.d[1].name, "nvme0n1");
	CHECK_EQ_STR(l.d[1].serial, "iomatrix-disk1");
	CHECK_EQ_STR(l.d[1].model, "QEMU NVMe Ctrl");
	CHECK_EQ_STR(l.d[1].transport, "nvme");
	CHECK_EQ_INT(l.d[1].size_bytes, 4194304ULL * 512);
	CHECK_EQ_STR(l.d[2].name, "ram1");
	CHECK_EQ_STR(l.d[3].name, "sda");
	CHECK_EQ_STR(l.d[3].serial, "SCSI0001");
	CHECK_EQ_STR(l.d[3].model, "QEMU HARDDISK");
	CHECK(l.d[3].read_only);
	CHECK_EQ_STR(l.d[4].name, "vda");
	CHECK_EQ_STR(l.d[4].serial, "iomatrix-disk0");
	CHECK_EQ_STR(l.d[4].model, "");
	CHECK(l.d[4].rotational);
	CHECK_EQ_STR(disks_human_size(l.d[4].size_bytes, size, sizeof(size)), "1.0 GiB");
}

static void test_wait(void)
{
	char err[DISKS_ERR_LEN];

	CHECK_EQ_INT(disks_wait(root, "vda,serial=x", 5, err, sizeof(err)), 0);
	CHECK_EQ_INT(disks_wait(root, "vdq", 0.3, err, sizeof(err)), -1);
	CHECK_EQ_STR(err, "disks not settled after 0.3 s: disk vdq is not there");
	PUT("class/nvme/nvme0/state", "resetting\n");
	CHECK_EQ_INT(disks_wait(root, "", 0.3, err, sizeof(err)), -1);
	CHECK(strstr(err, "NVMe controller nvme0 is resetting") != NULL);
}

static void test_missing_root(void)
{
	static struct disk_list l;
	char err[DISKS_ERR_LEN];

	CHECK_EQ_INT(disks_scan("/nonexistent", "", &l, err, sizeof(err)), -1);
	CHECK_EQ_STR(err, "cannot list /nonexistent/block: No such file or directory");
}

int main(void)
{
	char cmd[300];

	build_tree();
	RUN_TEST(test_scan);
	RUN_TEST(test_wait);
	RUN_TEST(test_missing_root);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) || check_total_failed;
}
