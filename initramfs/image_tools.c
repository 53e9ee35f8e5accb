// SPDX-License-Identifier: GPL-2.0
/* The host programs in the image; see image_tools.h. */
#include "initramfs/image_tools.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/errmsg.h"
#include "initramfs/library_closure.h"

struct image_tool {
	const char *image_path;
	const char *program;	/* looked up in the tool path */
	const char *package;	/* the Debian package that installs it */
	bool optional;		/* missing: a note, not an error */
	const char *why;
};

static const struct image_tool image_tools[] = {
	{ "/bin/busybox", "busybox", "busybox-static", false, "shell and applets for debugging" },
	{ "/sbin/mdadm", "mdadm", "mdadm", false, "md arrays" },
	{ "/sbin/mke2fs", "mke2fs", "e2fsprogs", false, "ext2, ext3, ext4" },
	{ "/sbin/mkfs.xfs", "mkfs.xfs", "xfsprogs", false, "xfs" },
	{ "/sbin/mkfs.btrfs", "mkfs.btrfs", "btrfs-progs", false, "btrfs" },
	{ "/sbin/wipefs", "wipefs", "util-linux", true, "clearing signatures off disks" },
	{ NULL, NULL, NULL, false, NULL },
};

/* Plain files the tools read, copied from the same place on the host. */
static const struct image_tool_file {
	const char *path;
	const char *package;
} image_tool_files[] = {
	{ "/etc/mke2fs.conf", "e2fsprogs" },
	{ NULL, NULL },
};

/* Links to a tool, added when the tool is in the image. */
static const struct image_link {
	const char *path;
	const char *target; /* relative to path's directory */
	const char *tool;   /* image path of what it points at */
} image_links[] = {
	{ "/sbin/mkfs.ext2", "mke2fs", "/sbin/mke2fs" },
	{ "/sbin/mkfs.ext3", "mke2fs", "/sbin/mke2fs" },
	{ "/sbin/mkfs.ext4", "mke2fs", "/sbin/mke2fs" },
	{ "/bin/sh", "busybox", "/bin/busybox" },
	{ NULL, NULL, NULL },
};

/* Busybox applets worth having by name when debugging in the image. */
static const char *const busybox_applets[] = {
	"cat", "dd", "dmesg", "echo", "free", "grep", "hexdump", "ls", "lsmod", "mkdir",
	"mount", "ps", "rm", "sleep", "sync", "top", "umount", "uname", NULL,
};

/* Look program up in the tool path; out gets the first executable match. */
static int find_tool(const char *program, char *out, size_t outlen)
{
	const char *path = getenv(TOOL_PATH_ENV);
	char *copy, *save = NULL;
	int ret = -1;

	copy = strdup(path && *path ? path : TOOL_PATH_DEFAULT);
	if (!copy)
		return -1;
	for (char *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		struct stat st;

		if (snprintf(out, outlen, "%s/%s", dir, program) >= (int)outlen)
			continue;
		if (!stat(out, &st) && S_ISREG(st.st_mode) && !access(out, X_OK)) {
			ret = 0;
			break;
		}
	}
	free(copy);
	return ret;
}

static const char *tool_path_shown(void)
{
	const char *path = getenv(TOOL_PATH_ENV);

	return path && *path ? path : TOOL_PATH_DEFAULT;
}

static int add_links(struct image_tree *t, char *err, size_t errlen)
{
	for (const struct image_link *l = image_links; l->path; l++)
		if (image_find(t, l->tool) &&
		    image_add_symlink(t, l->path, l->target, PART_TOOLS, err, errlen))
			return -1;
	if (!image_find(t, "/bin/busybox"))
		return 0;
	for (int i = 0; busybox_applets[i]; i++) {
		char path[64];

		snprintf(path, sizeof(path), "/bin/%s", busybox_applets[i]);
		if (image_add_symlink(t, path, "busybox", PART_TOOLS, err, errlen))
			return -1;
	}
	return 0;
}

int image_add_tools(struct image_tree *t, FILE *notes, char *err, size_t errlen)
{
	for (const struct image_tool *tool = image_tools; tool->image_path; tool++) {
		char host[PATH_MAX];

		if (find_tool(tool->program, host, sizeof(host))) {
			if (!tool->optional)
				return errmsg(err, errlen,
					      "%s not found in %s: install %s (make deps)",
					      tool->program, tool_path_shown(), tool->package);
			if (notes)
				fprintf(notes,
					"iomatrix image: note: %s not found in %s, left out "
					"(optional, for %s; install %s to have it)\n",
					tool->program, tool_path_shown(), tool->why,
					tool->package);
			continue;
		}
		if (image_add_program(t, tool->image_path, host, PART_TOOLS, err, errlen))
			return -1;
	}
	for (const struct image_tool_file *f = image_tool_files; f->path; f++) {
		if (access(f->path, R_OK))
			return errmsg(err, errlen, "%s not found: install %s (make deps)", f->path,
				      f->package);
		if (image_add_host_file(t, f->path, 0644, PART_TOOLS, f->path, err, errlen))
			return -1;
	}
	return add_links(t, err, errlen);
}
