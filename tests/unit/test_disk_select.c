// SPDX-License-Identifier: GPL-2.0
/* Which disks may be used: names, serials, by-path, the default rule, refusals, wiping. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "runner/setup/disk_select.h"
#include "runner/setup/disks.h"
#include "runner/setup/wipe.h"

static char root[] = "/tmp/iomatrix-dsel-XXXXXX";

static void put(const char *rel, const char *data)
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
		fputs(data, f);
		fclose(f);
	}
}

/* A disk as sysfs shows it: /block/NAME a link into /devices. */
static void disk(const char *name, const char *devpath, const char *serial, const char *size,
		 const char *ro)
{
	char rel[512], link[512], target[512];

	snprintf(rel, sizeof(rel), "devices/%s/%s/size", devpath, name);
	put(rel, size);
	snprintf(rel, sizeof(rel), "devices/%s/%s/serial", devpath, name);
	put(rel, serial);
	snprintf(rel, sizeof(rel), "devices/%s/%s/ro", devpath, name);
	put(rel, ro);
	snprintf(link, sizeof(link), "%s/block/%s", root, name);
	snprintf(target, sizeof(target), "../devices/%s/%s", devpath, name);
	mkdir(strcat(strcpy(rel, root), "/block"), 0755);
	CHECK_EQ_INT(symlink(target, link), 0);
}

static struct disk_list found;
static struct disk_selection sel;

static void build(void)
{
	char err[DISKS_ERR_LEN];

	CHECK(mkdtemp(root) != NULL);
	disk("vda", "pci0000:00/0000:00:03.0/virtio0/block", "iomatrix-disk0\n", "2097152\n",
	     "0\n");
	disk("vdb", "pci0000:00/0000:00:04.0/virtio1/block", "iomatrix-disk1\n", "2097152\n",
	     "0\n");
	disk("vdc", "pci0000:00/0000:00:05.0/virtio2/block", "precious\n", "2097152\n", "0\n");
	disk("vdd", "pci0000:00/0000:00:06.0/virtio3/block", "iomatrix-disk2\n", "2097152\n",
	     "1\n");
	disk("nvme0n1", "pci0000:00/0000:00:07.0/nvme/nvme0", "nvserial\n", "0\n", "0\n");
	CHECK_EQ_INT(disks_scan(root, "", &found, err, sizeof(err)), 0);
	CHECK_EQ_INT(found.count, 5);
}

static const struct disk_choice *by_name(const char *name)
{
	for (size_t i = 0; i < sel.count; i++)
		if (!strcmp(sel.all[i].disk.name, name))
			return &sel.all[i];
	return NULL;
}

static void test_by_path(void)
{
	char out[128];

	disk_by_path(root, "vdb", out, sizeof(out));
	CHECK_EQ_STR(out, "pci-0000:00:04.0");
	disk_by_path(root, "nvme0n1", out, sizeof(out));
	CHECK_EQ_STR(out, "pci-0000:00:07.0-nvme-1");
	disk_by_path(root, "nosuch", out, sizeof(out));
	CHECK_EQ_STR(out, "");
}

static void test_default_rule(void)
{
	char err[DISK_SELECT_ERR_LEN];

	CHECK_EQ_INT(disk_select(&found, root, "", "", &sel, err, sizeof(err)), 0);
	CHECK(by_name("vda")->allowed && by_name("vdb")->allowed && by_name("vdd")->allowed);
	CHECK(!by_name("vdc")->allowed && !by_name("nvme0n1")->allowed);
	CHECK_EQ_STR(by_name("vdd")->refused, "read-only");
	CHECK_EQ_STR(by_name("vda")->refused, "");
	CHECK_EQ_STR(by_name("vdc")->refused, "");
}

static void test_named_in_order(void)
{
	char err[DISK_SELECT_ERR_LEN];

	CHECK_EQ_INT(disk_select(&found, root,
				 "/dev/disk/by-path/pci-0000:00:05.0,iomatrix-disk1,/dev/vda,"
				 "pci-0000:00:07.0-nvme-1",
				 "", &sel, err, sizeof(err)),
		     0);
	CHECK(by_name("vdc")->allowed && by_name("vdb")->allowed && by_name("vda")->allowed);
	CHECK(!by_name("vdd")->allowed);
	CHECK_EQ_INT(by_name("vdc")->order, 0);
	CHECK_EQ_INT(by_name("vdb")->order, 1);
	CHECK_EQ_INT(by_name("vda")->order, 2);
	CHECK_EQ_STR(by_name("nvme0n1")->refused, "no medium (size 0)");
}

static void test_bad_words(void)
{
	char err[DISK_SELECT_ERR_LEN];

	CHECK_EQ_INT(disk_select(&found, root, "vda,sdz", "", &sel, err, sizeof(err)), -1);
	CHECK(strstr(err, "iomatrix.disks: 'sdz' matches no disk (disks: nvme0n1 (serial "
			  "nvserial, pci-0000:00:07.0-nvme-1), vda (serial iomatrix-disk0, "
			  "pci-0000:00:03.0), ") == err);
}

static void test_results_disk_refused(void)
{
	char err[DISK_SELECT_ERR_LEN];

	/* its serial starts with iomatrix-disk, and still it is never offered to cells */
	CHECK_EQ_INT(disk_select(&found, root, "", "vdb", &sel, err, sizeof(err)), 0);
	CHECK(by_name("vdb")->allowed);
	CHECK_EQ_STR(by_name("vdb")->refused, "holds the results log (iomatrix.results)");
	CHECK_EQ_STR(by_name("vda")->refused, "");
	/* named in iomatrix.disks too: still refused */
	CHECK_EQ_INT(disk_select(&found, root, "vda,vdb", "vdb", &sel, err, sizeof(err)), 0);
	CHECK_EQ_STR(by_name("vdb")->refused, "holds the results log (iomatrix.results)");
	CHECK_EQ_INT(disk_select(&found, root, "", "", &sel, err, sizeof(err)), 0);
	CHECK_EQ_STR(by_name("vdb")->refused, "");
}

/* A 4 MiB file as a disk, with magic at off (NULL: blank). */
static void make_file(const char *path, const char *magic, size_t n, off_t off)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	CHECK(fd >= 0);
	CHECK_EQ_INT(ftruncate(fd, 4 << 20), 0);
	if (magic)
		CHECK_EQ_INT(pwrite(fd, magic, n, off), (long long)n);
	close(fd);
}

static void test_check_and_wipe(void)
{
	char err[DISK_SELECT_ERR_LEN], a[600], b[600], c[600];
	struct disk_choice *da, *db, *dc;

	CHECK_EQ_INT(disk_select(&found, root, "vda,vdb,vdc", "", &sel, err, sizeof(err)), 0);
	da = (struct disk_choice *)by_name("vda");
	db = (struct disk_choice *)by_name("vdb");
	dc = (struct disk_choice *)by_name("vdc");
	snprintf(a, sizeof(a), "%s/a.img", root);
	snprintf(b, sizeof(b), "%s/b.img", root);
	snprintf(c, sizeof(c), "%s/c.img", root);
	make_file(a, NULL, 0, 0);
	make_file(b, "\x53\xef", 2, 1080);
	/* md 1.0: (4 MiB - 8 KiB) rounded down to 4 KiB */
	make_file(c, "\xfc\x4e\x2b\xa9", 4, (4 << 20) - 8192);
	snprintf(da->path, sizeof(da->path), "%.47s", a);
	snprintf(db->path, sizeof(db->path), "%.47s", b);
	snprintf(dc->path, sizeof(dc->path), "%.47s", c);
	if (strlen(a) >= sizeof(da->path))
		return; /* a temporary directory too long for the test's paths */

	disk_select_check(&sel, false, NULL);
	CHECK_EQ_INT(sel.nuse, 1);
	CHECK(sel.use[0] == da);
	CHECK_EQ_STR(db->refused,
		     "holds data: ext2/3/4 filesystem (iomatrix.wipe=1 allows destroying it)");
	CHECK_EQ_STR(dc->refused,
		     "holds data: md RAID superblock 1.0 (iomatrix.wipe=1 allows destroying it)");

	/* vdb's data is this run's own (its serial is in the list): wiped without iomatrix.wipe */
	db->refused[0] = dc->refused[0] = '\0';
	disk_select_check(&sel, false, "iomatrix-disk9,iomatrix-disk1");
	CHECK_EQ_INT(sel.nuse, 2);
	CHECK(sel.use[0] == da && sel.use[1] == db);
	CHECK(db->own);
	CHECK_EQ_STR(db->wiped, "ext2/3/4 filesystem");
	CHECK_EQ_STR(dc->refused,
		     "holds data: md RAID superblock 1.0 (iomatrix.wipe=1 allows destroying it)");
	CHECK(!dc->own);
	CHECK_EQ_STR(disk_choice_id(db), "iomatrix-disk1");

	make_file(b, "\x53\xef", 2, 1080);
	db->refused[0] = dc->refused[0] = '\0';
	disk_select_check(&sel, true, "");
	CHECK_EQ_INT(sel.nuse, 3);
	CHECK(sel.use[0] == da && sel.use[1] == db && sel.use[2] == dc);
	CHECK_EQ_STR(db->wiped, "ext2/3/4 filesystem");
	CHECK_EQ_STR(dc->wiped, "md RAID superblock 1.0");
	unlink(a);
	unlink(b);
	unlink(c);
}

static void test_wipe_zeroes_the_signature_areas(void)
{
	char path[600], err[256];
	const char *found_sig = NULL;
	struct step_error e;
	uint64_t size = 0;
	unsigned char byte = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/w.img", root);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0);
	CHECK_EQ_INT(ftruncate(fd, 80 << 20), 0);
	CHECK_EQ_INT(pwrite(fd, "_BHRfS_M", 8, 65600), 8);	     /* btrfs, primary */
	CHECK_EQ_INT(pwrite(fd, "_BHRfS_M", 8, (64 << 20) + 64), 8); /* btrfs mirror */
	CHECK_EQ_INT(pwrite(fd, "X", 1, 2 << 20), 1);		     /* data: left alone */
	CHECK_EQ_INT(pwrite(fd, "EFI PART", 8, (80 << 20) - 512), 8);
	close(fd);
	CHECK_EQ_INT(wipe_probe(path, &found_sig, &size, err, sizeof(err)), 0);
	CHECK_EQ_STR(found_sig, "btrfs filesystem");
	CHECK_EQ_INT(size, 80 << 20);
	CHECK_EQ_INT(wipe_device(path, "wipe", &e), 0);
	CHECK_EQ_INT(wipe_probe(path, &found_sig, &size, err, sizeof(err)), 0);
	CHECK(found_sig == NULL);
	fd = open(path, O_RDONLY);
	CHECK_EQ_INT(pread(fd, &byte, 1, (64 << 20) + 64), 1);
	CHECK_EQ_INT(byte, 0);
	CHECK_EQ_INT(pread(fd, &byte, 1, 2 << 20), 1);
	CHECK_EQ_INT(byte, 'X');
	close(fd);
	unlink(path);
	CHECK_EQ_INT(wipe_probe(path, &found_sig, &size, err, sizeof(err)), -1);
	CHECK(strstr(err, "cannot open") && strstr(err, "w.img"));
	CHECK_EQ_INT(wipe_device(path, "wipe", &e), -1);
	CHECK_EQ_STR(e.step, "wipe");
}

int main(void)
{
	char cmd[600];

	RUN_TEST(build); /* its checks count too */
	RUN_TEST(test_by_path);
	RUN_TEST(test_default_rule);
	RUN_TEST(test_named_in_order);
	RUN_TEST(test_bad_words);
	RUN_TEST(test_results_disk_refused);
	RUN_TEST(test_check_and_wipe);
	RUN_TEST(test_wipe_zeroes_the_signature_areas);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd))
		return 1;
	CHECK_EXIT();
}
