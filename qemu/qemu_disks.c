// SPDX-License-Identifier: GPL-2.0
/* Disk files for the guest, and the checks before passing a host disk through. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/appliance_contract.h"
#include "qemu/qemu_disks.h"

int qd_create_file(const char *path, unsigned long long size, char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd < 0 || ftruncate(fd, (off_t)size)) {
		snprintf(err, errlen, "cannot create %s (%llu bytes): %s", path, size,
			 strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(path);
		}
		return -1;
	}
	close(fd);
	return 0;
}

int qd_create(const char *dir, int n, unsigned long long size, bool temporary,
	      struct qemu_disk *out, char *err, size_t errlen)
{
	for (int i = 0; i < n; i++) {
		struct qemu_disk *d = &out[i];
		struct stat st;

		memset(d, 0, sizeof(*d));
		snprintf(d->path, sizeof(d->path), "%s/disk%d.img", dir, i);
		snprintf(d->serial, sizeof(d->serial), SCRATCH_DISK_SERIAL "%d", i % 1000);
		d->created = temporary;
		if (stat(d->path, &st) == 0) {
			if (!S_ISREG(st.st_mode) || (unsigned long long)st.st_size != size) {
				snprintf(err, errlen,
					 "%s exists with another size (%lld bytes, not %llu): "
					 "remove it or pick another --disk-dir",
					 d->path, (long long)st.st_size, size);
				return -1;
			}
			continue;
		}
		if (qd_create_file(d->path, size, err, errlen))
			return -1;
	}
	return 0;
}

/* The maj:min of a device and of its partitions, and their /dev names. */
struct dev_set {
	dev_t dev[64];
	char name[64][64];
	size_t n;
};

static void add_dev(struct dev_set *s, dev_t d, const char *name)
{
	if (s->n < sizeof(s->dev) / sizeof(s->dev[0])) {
		s->dev[s->n] = d;
		snprintf(s->name[s->n], sizeof(s->name[0]), "/dev/%.58s", name);
		s->n++;
	}
}

static bool read_dev_file(const char *path, dev_t *out)
{
	unsigned maj, min;
	FILE *f = fopen(path, "r");
	bool ok;

	if (!f)
		return false;
	ok = fscanf(f, "%u:%u", &maj, &min) == 2;
	fclose(f);
	if (ok)
		*out = makedev(maj, min);
	return ok;
}

static void collect(dev_t dev, struct dev_set *s, char *holders, size_t hlen)
{
	char sys[256], real[PATH_MAX], sub[PATH_MAX + 300];
	struct dirent *de;
	DIR *d;

	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!realpath(sys, real)) {
		add_dev(s, dev, "?");
		return;
	}
	add_dev(s, dev, strrchr(real, '/') + 1);
	holders[0] = '\0';
	d = opendir(real);
	if (!d)
		return;
	while ((de = readdir(d))) {
		dev_t part;

		snprintf(sub, sizeof(sub), "%s/%s/partition", real, de->d_name);
		if (de->d_name[0] == '.' || access(sub, F_OK))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s/dev", real, de->d_name);
		if (read_dev_file(sub, &part))
			add_dev(s, part, de->d_name);
	}
	closedir(d);
	/* A holder (md, dm, bcache) means another device is built on it. */
	snprintf(sub, sizeof(sub), "%s/holders", real);
	d = opendir(sub);
	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.' && !holders[0])
			snprintf(holders, hlen, "%.63s", de->d_name);
	closedir(d);
}

static long find_dev(const struct dev_set *s, dev_t d, const char *source)
{
	char real[PATH_MAX];
	struct stat st;

	for (size_t i = 0; i < s->n; i++)
		if (s->dev[i] == d)
			return (long)i;
	/* btrfs and others report an anonymous maj:min: match the source too. */
	if (source && source[0] == '/' && stat(source, &st) == 0 && S_ISBLK(st.st_mode))
		for (size_t i = 0; i < s->n; i++)
			if (s->dev[i] == st.st_rdev)
				return (long)i;
	if (source && realpath(source, real))
		for (size_t i = 0; i < s->n; i++)
			if (!strcmp(s->name[i], real))
				return (long)i;
	return -1;
}

/*
 * Is the block device dev (or one of its partitions) mounted, swap, or
 * held? Fills why and returns true when so. mountinfo and swaps name the
 * files to read.
 */
static bool qd_block_in_use(const char *dev, const char *mountinfo, const char *swaps, char *why,
		     size_t whylen)
{
	static struct dev_set s;
	char line[8192], holder[64];
	struct stat st;
	FILE *f;

	memset(&s, 0, sizeof(s));
	if (stat(dev, &st) || !S_ISBLK(st.st_mode))
		return false;
	collect(st.st_rdev, &s, holder, sizeof(holder));
	if (holder[0]) {
		snprintf(why, whylen, "%.300s is in use by %s (a device built on it)", dev, holder);
		return true;
	}
	f = fopen(mountinfo, "r");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned maj, min;
		char mnt[4096], source[4096];
		const char *sep = strstr(line, " - ");
		long i;

		if (sscanf(line, "%*s %*s %u:%u %*s %4095s", &maj, &min, mnt) != 3 || !sep ||
		    sscanf(sep + 3, "%*s %4095s", source) != 1)
			continue;
		i = find_dev(&s, makedev(maj, min), source);
		if (i >= 0) {
			snprintf(why, whylen, "%.200s is mounted on the host at %.250s", s.name[i], mnt);
			fclose(f);
			return true;
		}
	}
	if (f)
		fclose(f);
	f = fopen(swaps, "r");
	while (f && fgets(line, sizeof(line), f)) {
		char name[4096];
		long i;

		if (sscanf(line, "%4095s", name) != 1 || name[0] != '/')
			continue;
		if (stat(name, &st) == 0 && S_ISBLK(st.st_mode) &&
		    (i = find_dev(&s, st.st_rdev, NULL)) >= 0) {
			snprintf(why, whylen, "%s is swap on the host", s.name[i]);
			fclose(f);
			return true;
		}
	}
	if (f)
		fclose(f);
	return false;
}

/* The loop device a file backs, if any: the guest and the host would share it. */
static bool file_in_loop(const char *real, char *why, size_t whylen)
{
	struct dirent *de;
	DIR *d = opendir("/sys/block");
	bool found = false;

	while (d && !found && (de = readdir(d))) {
		char path[512], backing[PATH_MAX];
		FILE *f;

		if (strncmp(de->d_name, "loop", 4))
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(backing, sizeof(backing), f)) {
			backing[strcspn(backing, "\n")] = '\0';
			if (!strcmp(backing, real)) {
				snprintf(why, whylen, "%.300s backs /dev/%.32s on the host", real,
					 de->d_name);
				found = true;
			}
		}
		fclose(f);
	}
	if (d)
		closedir(d);
	return found;
}

int qd_passthrough(const char *option, const char *path, int index, struct qemu_disk *d,
		   char *err, size_t errlen)
{
	char why[512], real[PATH_MAX];
	struct stat st;

	memset(d, 0, sizeof(*d));
	if (stat(path, &st) || !realpath(path, real)) {
		snprintf(err, errlen, "%s %s: %s", option, path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
		snprintf(err, errlen, "%s %s: neither a file nor a block device", option, path);
		return -1;
	}
	d->block_device = S_ISBLK(st.st_mode);
	if (d->block_device
		    ? qd_block_in_use(real, "/proc/self/mountinfo", "/proc/swaps", why, sizeof(why))
		    : file_in_loop(real, why, sizeof(why))) {
		snprintf(err, errlen, "%s %s refused: %s", option, path, why);
		return -1;
	}
	if (access(real, R_OK | W_OK)) {
		snprintf(err, errlen, "%s %s: %s", option, path, strerror(errno));
		return -1;
	}
	snprintf(d->path, sizeof(d->path), "%s", real);
	snprintf(d->serial, sizeof(d->serial), "iomatrix-pass%d", index % 1000);
	return 0;
}
