// SPDX-License-Identifier: GPL-2.0
/* Block devices from sysfs: listing and waiting for them to settle. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runner/setup/disks.h"

/* The transport a device name says, first match wins. */
static const struct {
	const char *prefix;
	const char *transport;
} name_transports[] = {
	{"vd", "virtio"},  {"nvme", "nvme"}, {"sd", "scsi"},   {"xvd", "xen"},
	{"mmcblk", "mmc"}, {"ram", "ram"},   {"loop", "loop"}, {"zram", "zram"},
	{"md", "md"},	   {"dm-", "dm"},    {"nbd", "nbd"},   {"sr", "cdrom"},
};

/* Where a serial number may be found, tried in order (relative to /sys/block/X). */
static const char *const serial_files[] = {
	"serial",	   /* virtio-blk */
	"device/serial",   /* NVMe: the controller's */
	"device/vpd_pg80", /* SCSI: VPD page 0x80, binary */
	"device/wwid",
};

static const char *const model_files[] = {"device/model"};

/* Reads a small sysfs file; returns its length or -1. */
static ssize_t read_small(const char *dir, const char *name, char *buf, size_t len)
{
	char path[512];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/* Printable characters only, blanks trimmed at both ends. */
static void clean(char *s, size_t n)
{
	size_t start = 0, end, out = 0;

	for (size_t i = 0; i < n; i++)
		if (!isprint((unsigned char)s[i]))
			s[i] = ' ';
	while (start < n && s[start] == ' ')
		start++;
	end = n;
	while (end > start && s[end - 1] == ' ')
		end--;
	for (size_t i = start; i < end; i++)
		s[out++] = s[i];
	s[out] = '\0';
}

static void read_text(const char *dir, const char *name, char *out, size_t len)
{
	ssize_t n = read_small(dir, name, out, len);

	if (n < 0)
		n = 0;
	out[n] = '\0';
	clean(out, (size_t)n);
}

static void read_serial(const char *dir, char *out, size_t len)
{
	for (size_t i = 0; i < sizeof(serial_files) / sizeof(serial_files[0]); i++) {
		unsigned char raw[256];
		ssize_t n = read_small(dir, serial_files[i], (char *)raw, sizeof(raw));

		if (n <= 0)
			continue;
		if (strstr(serial_files[i], "vpd_pg80")) {
			/* Header: peripheral, page code, 16-bit length; then the serial. */
			size_t plen = n >= 4 ? ((size_t)raw[2] << 8 | raw[3]) : 0;

			if (plen > (size_t)n - 4)
				plen = n >= 4 ? (size_t)n - 4 : 0;
			memmove(raw, raw + 4, plen);
			n = (ssize_t)plen;
		}
		if ((size_t)n >= len)
			n = (ssize_t)len - 1;
		memcpy(out, raw, (size_t)n);
		clean(out, (size_t)n);
		if (out[0])
			return;
	}
	out[0] = '\0';
}

static unsigned long long read_ull(const char *dir, const char *name)
{
	char buf[64];

	if (read_small(dir, name, buf, sizeof(buf)) <= 0)
		return 0;
	return strtoull(buf, NULL, 10);
}

static const char *transport_of(const char *name)
{
	for (size_t i = 0; i < sizeof(name_transports) / sizeof(name_transports[0]); i++)
		if (!strncmp(name, name_transports[i].prefix, strlen(name_transports[i].prefix)))
			return name_transports[i].transport;
	return "other";
}

/* Is word one of the comma-separated words of list? */
static bool in_list(const char *list, const char *word)
{
	size_t wl = strlen(word);

	for (const char *p = list; p && *p;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);

		if (n == wl && !strncmp(p, word, n))
			return true;
		p = comma ? comma + 1 : NULL;
	}
	return false;
}

static bool listed(const char *name, unsigned long long size, const char *named)
{
	const char *t = transport_of(name);

	if (!strcmp(t, "ram"))
		return in_list(named, name);
	if (!strcmp(t, "loop") || !strcmp(t, "zram"))
		return size > 0;
	return true;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct disk *)a)->name, ((const struct disk *)b)->name);
}

int disks_scan(const char *sysfs_root, const char *named, struct disk_list *out, char *err,
	       size_t errlen)
{
	char block[256];
	struct dirent *de;
	DIR *d;

	out->count = 0;
	snprintf(block, sizeof(block), "%s/block", sysfs_root);
	d = opendir(block);
	if (!d) {
		snprintf(err, errlen, "cannot list %s: %s", block, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		struct disk *k;
		char dir[512];
		unsigned long long sectors;

		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(k->name))
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", block, de->d_name);
		sectors = read_ull(dir, "size");
		if (!listed(de->d_name, sectors, named))
			continue;
		if (out->count == DISKS_MAX) {
			snprintf(err, errlen, "more than %d block devices in %s", DISKS_MAX, block);
			closedir(d);
			return -1;
		}
		k = &out->d[out->count++];
		memset(k, 0, sizeof(*k));
		strcpy(k->name, de->d_name);
		snprintf(k->transport, sizeof(k->transport), "%s", transport_of(k->name));
		k->size_bytes = sectors * 512; /* sysfs counts 512-byte sectors always */
		read_serial(dir, k->serial, sizeof(k->serial));
		for (size_t i = 0; i < sizeof(model_files) / sizeof(model_files[0]) && !k->model[0];
		     i++)
			read_text(dir, model_files[i], k->model, sizeof(k->model));
		k->rotational = read_ull(dir, "queue/rotational") != 0;
		k->read_only = read_ull(dir, "ro") != 0;
	}
	closedir(d);
	qsort(out->d, out->count, sizeof(out->d[0]), by_name);
	return 0;
}

/*
 * A fingerprint of the set of names in a directory: the sum of each name's
 * FNV-1a hash, so the order readdir returns them in does not matter.
 */
static unsigned long long dir_fingerprint(const char *path)
{
	unsigned long long sum = 0;
	struct dirent *de;
	DIR *d = opendir(path);

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		unsigned long long h = 1469598103934665603ULL;

		for (const char *c = de->d_name; *c; c++)
			h = (h ^ (unsigned char)*c) * 1099511628211ULL;
		sum += h;
	}
	closedir(d);
	return sum;
}

/* The first NVMe controller that is not yet live, into who; false when all are. */
static bool nvme_pending(const char *sysfs_root, char *who, size_t len)
{
	char cls[256], state[32];
	struct dirent *de;
	DIR *d;
	bool pending = false;

	snprintf(cls, sizeof(cls), "%s/class/nvme", sysfs_root);
	d = opendir(cls);
	if (!d)
		return false;
	while (!pending && (de = readdir(d))) {
		char dir[512];

		if (de->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", cls, de->d_name);
		read_text(dir, "state", state, sizeof(state));
		if (strcmp(state, "live")) {
			pending = true;
			snprintf(who, len, "NVMe controller %s is %s", de->d_name,
				 state[0] ? state : "(no state)");
		}
	}
	closedir(d);
	return pending;
}

/* The first name of wanted missing from sysfs_root/block, into who. */
static bool wanted_missing(const char *sysfs_root, const char *wanted, char *who, size_t len)
{
	const char *p = wanted;

	while (p && *p) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		char name[64], path[512];

		if (n > 0 && n < sizeof(name)) {
			memcpy(name, p, n);
			name[n] = '\0';
			snprintf(path, sizeof(path), "%s/block/%s", sysfs_root, name);
			if (!strpbrk(name, "=:") && access(path, F_OK)) {
				snprintf(who, len, "disk %s is not there", name);
				return true;
			}
		}
		p = comma ? comma + 1 : NULL;
	}
	return false;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int disks_wait(const char *sysfs_root, const char *wanted, double max_seconds, char *err,
	       size_t errlen)
{
	const struct timespec tick = {0, 100 * 1000 * 1000};
	double deadline = now() + max_seconds;
	char block[256], why[400] = "";
	unsigned long long prev;

	snprintf(block, sizeof(block), "%s/block", sysfs_root);
	prev = dir_fingerprint(block);
	for (;;) {
		unsigned long long cur;

		nanosleep(&tick, NULL);
		cur = dir_fingerprint(block);
		if (cur != prev)
			snprintf(why, sizeof(why), "block devices still appearing");
		else if (!nvme_pending(sysfs_root, why, sizeof(why)) &&
			 !wanted_missing(sysfs_root, wanted, why, sizeof(why)))
			return 0;
		prev = cur;
		if (now() >= deadline)
			break;
	}
	snprintf(err, errlen, "disks not settled after %.1f s: %s", max_seconds, why);
	return -1;
}

const char *disks_human_size(unsigned long long bytes, char *buf, size_t len)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
	double v = (double)bytes;
	size_t u = 0;

	while (v >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", v, units[u]);
	return buf;
}
