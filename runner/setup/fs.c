// SPDX-License-Identifier: GPL-2.0
/* mkfs, mount and umount; see fs.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>

#include "runner/setup/fs.h"

/* How each filesystem's mkfs runs unattended; its own defaults come from fs_info(). */
static const struct {
	const char *program;
	const char *flags[4]; /* NULL-terminated */
} mkfs_tools[FS_TYPE_COUNT] = {
	[FS_EXT2] = {"mke2fs", {"-t", "ext2", "-F", NULL}},
	[FS_EXT3] = {"mke2fs", {"-t", "ext3", "-F", NULL}},
	[FS_EXT4] = {"mke2fs", {"-t", "ext4", "-F", NULL}},
	[FS_BTRFS] = {"mkfs.btrfs", {"-f", NULL}},
	[FS_XFS] = {"mkfs.xfs", {"-f", NULL}},
};

/* Generic options, as mount(8) turns them into flags. */
static const struct {
	const char *name;
	unsigned long set, clear;
} mount_flags[] = {
	{"defaults", 0, 0},
	{"ro", MS_RDONLY, 0},
	{"rw", 0, MS_RDONLY},
	{"noatime", MS_NOATIME, 0},
	{"atime", 0, MS_NOATIME},
	{"nodiratime", MS_NODIRATIME, 0},
	{"diratime", 0, MS_NODIRATIME},
	{"relatime", MS_RELATIME, 0},
	{"norelatime", 0, MS_RELATIME},
	{"strictatime", MS_STRICTATIME, 0},
	{"lazytime", MS_LAZYTIME, 0},
	{"nolazytime", 0, MS_LAZYTIME},
	{"sync", MS_SYNCHRONOUS, 0},
	{"async", 0, MS_SYNCHRONOUS},
	{"dirsync", MS_DIRSYNC, 0},
	{"nosuid", MS_NOSUID, 0},
	{"suid", 0, MS_NOSUID},
	{"nodev", MS_NODEV, 0},
	{"dev", 0, MS_NODEV},
	{"noexec", MS_NOEXEC, 0},
	{"exec", 0, MS_NOEXEC},
};

int fs_mkfs_argv(enum fs_type fs, const char *options, const char *dev, const char **argv, int max,
		 char *buf, size_t buflen)
{
	size_t used = 0;
	int k = 0;

	if (max < 8)
		return -1;
	argv[k++] = mkfs_tools[fs].program;
	for (int i = 0; mkfs_tools[fs].flags[i]; i++)
		argv[k++] = mkfs_tools[fs].flags[i];
	for (const char *p = options ? options : ""; *p;) {
		size_t n;

		while (*p == ' ' || *p == '\t')
			p++;
		n = strcspn(p, " \t");
		if (!n)
			break;
		if (k + 2 >= max || used + n + 1 > buflen)
			return -1;
		memcpy(buf + used, p, n);
		buf[used + n] = '\0';
		argv[k++] = buf + used;
		used += n + 1;
		p += n;
	}
	argv[k++] = dev;
	argv[k] = NULL;
	return k;
}

int fs_mkfs(const struct cell *c, const char *dev, double timeout, char *cmd, size_t cmdlen,
	    struct step_error *e)
{
	const char *argv[FS_ARGV_MAX];
	char buf[1024];

	if (fs_mkfs_argv(c->fs, c->mkfs_options, dev, argv, FS_ARGV_MAX, buf, sizeof(buf)) < 0) {
		step_fail(e, "mkfs", c->mkfs_options, "too many mkfs options", NULL);
		return -1;
	}
	step_join_argv(argv, cmd, cmdlen);
	return step_run("mkfs", argv, timeout, e);
}

int fs_mount_options(const char *options, unsigned long *flags, char *data, size_t datalen)
{
	size_t used = 0;

	*flags = 0;
	data[0] = '\0';
	for (const char *p = options ? options : ""; *p;) {
		size_t n = strcspn(p, ",");
		bool generic = false;

		for (size_t i = 0; n && i < sizeof(mount_flags) / sizeof(mount_flags[0]); i++)
			if (strlen(mount_flags[i].name) == n &&
			    !strncmp(p, mount_flags[i].name, n)) {
				*flags = (*flags | mount_flags[i].set) & ~mount_flags[i].clear;
				generic = true;
			}
		if (n && !generic) {
			if (used + n + 2 > datalen)
				return -1;
			used += (size_t)snprintf(data + used, datalen - used, "%s%.*s",
						 used ? "," : "", (int)n, p);
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* The kernel's last log line: a failed mount says why there, not in errno. */
static void last_kernel_line(char *out, size_t len)
{
	static char log[16384];
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, sizeof(log) - 1);
	char *end, *start;

	out[0] = '\0';
	if (n <= 0 || len < 16)
		return;
	log[n] = '\0';
	end = log + n;
	while (end > log && (end[-1] == '\n' || end[-1] == ' '))
		*--end = '\0';
	start = strrchr(log, '\n');
	start = start ? start + 1 : log;
	if (strlen(start) + 9 > len)
		start[len - 9] = '\0';
	strcpy(out, "kernel: ");
	strcat(out, start);
}

int fs_mount(const struct cell *c, const char *dev, const char *dir, struct step_error *e)
{
	const char *type = fs_info(c->fs)->name;
	char data[512], what[STEP_COMMAND_MAX], why[128], tail[STEP_TAIL_MAX];
	unsigned long flags;

	snprintf(what, sizeof(what), "mount -t %s%s%s %s %s", type,
		 c->mount_options[0] ? " -o " : "", c->mount_options, dev, dir);
	if (fs_mount_options(c->mount_options, &flags, data, sizeof(data))) {
		step_fail(e, "mount", what, "mount options too long", NULL);
		return -1;
	}
	if (mkdir(dir, 0755) && errno != EEXIST) {
		snprintf(why, sizeof(why), "mkdir %s: %s", dir, strerror(errno));
		step_fail(e, "mount", what, why, NULL);
		return -1;
	}
	if (mount(dev, dir, type, flags, data[0] ? data : NULL) == 0)
		return 0;
	snprintf(why, sizeof(why), "mount(2): %s", strerror(errno));
	last_kernel_line(tail, sizeof(tail));
	step_fail(e, "mount", what, why, tail);
	return -1;
}

int fs_umount(const char *dir, double timeout, struct step_error *e)
{
	const struct timespec tick = {0, 100 * 1000 * 1000};
	double deadline = step_now() + timeout;
	char what[STEP_COMMAND_MAX], why[128];

	for (;;) {
		if (umount(dir) == 0)
			return 0;
		if (errno != EBUSY || step_now() >= deadline)
			break;
		nanosleep(&tick, NULL);
	}
	snprintf(what, sizeof(what), "umount %s", dir);
	snprintf(why, sizeof(why), "umount(2): %s", strerror(errno));
	step_fail(e, "umount", what, why, NULL);
	/* Detach it anyway, so the array under it can be stopped when it goes idle. */
	umount2(dir, MNT_DETACH);
	return -1;
}
