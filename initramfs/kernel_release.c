// SPDX-License-Identifier: GPL-2.0
/* Picking the kernel release; see kernel_release.h. */
#include "initramfs/kernel_release.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/errmsg.h"

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static bool is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* A release name never holds '/' and is not "." or "..". */
static bool release_name_ok(const char *r)
{
	return *r && !strchr(r, '/') && strcmp(r, ".") && strcmp(r, "..");
}

int kernel_release_scan(const char *dir, const char *need_kernel_in, char *best,
			size_t best_len, char *all, size_t all_len)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t used = 0;
	int count = 0;

	best[0] = '\0';
	if (all_len)
		all[0] = '\0';
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		char path[PATH_MAX];

		if (de->d_name[0] == '.' || strlen(de->d_name) >= best_len)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (!is_dir(path))
			continue;
		if (need_kernel_in) {
			snprintf(path, sizeof(path), "%s/vmlinuz-%s", need_kernel_in, de->d_name);
			if (!is_file(path))
				continue;
		}
		count++;
		if (!best[0] || strverscmp(de->d_name, best) > 0)
			snprintf(best, best_len, "%s", de->d_name);
		if (used < all_len) {
			int n = snprintf(all + used, all_len - used, "%s%s", used ? ", " : "",
					 de->d_name);
			if (n > 0)
				used += (size_t)n;
		}
	}
	closedir(d);
	return count;
}

static int pick_system(const char *root, const char *release_opt, char *release,
		       size_t release_len, char *err, size_t errlen)
{
	char libmod[PATH_MAX], boot[PATH_MAX];

	snprintf(libmod, sizeof(libmod), "%s/lib/modules", root);
	snprintf(boot, sizeof(boot), "%s/boot", root);
	if (release_opt) {
		snprintf(release, release_len, "%s", release_opt);
		return 0;
	}
	if (kernel_release_scan(libmod, boot, release, release_len, NULL, 0) <= 0)
		return errmsg(err, errlen,
			      "no installed kernel: no release in %s has %s/vmlinuz-RELEASE; "
			      "install linux-image-amd64 (make deps), or give --modules-dir DIR",
			      libmod, boot);
	return 0;
}

static int pick_tree(const char *dir, const char *release_opt, char *release,
		     size_t release_len, char *err, size_t errlen)
{
	char libmod[PATH_MAX], all[1024];
	struct stat st;
	int count;

	if (stat(dir, &st))
		return errmsg(err, errlen, "--modules-dir %s: %s", dir,
			      errno == ENOENT ? "no such directory" : strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return errmsg(err, errlen, "--modules-dir %s: not a directory", dir);
	snprintf(libmod, sizeof(libmod), "%s/lib/modules", dir);
	if (!is_dir(libmod))
		return errmsg(err, errlen,
			      "--modules-dir %s has no lib/modules: give the INSTALL_MOD_PATH of "
			      "'make modules_install INSTALL_MOD_PATH=%s'",
			      dir, dir);
	if (release_opt) {
		snprintf(release, release_len, "%s", release_opt);
		return 0;
	}
	count = kernel_release_scan(libmod, NULL, release, release_len, all, sizeof(all));
	if (count <= 0)
		return errmsg(err, errlen, "%s holds no kernel release: run 'make modules_install "
			      "INSTALL_MOD_PATH=%s' in the kernel tree", libmod, dir);
	if (count > 1)
		return errmsg(err, errlen, "%s holds %d releases (%s): choose one with --release",
			      libmod, count, all);
	return 0;
}

int kernel_release_pick(const char *system_root, const char *modules_root,
			const char *release_opt, char *release, size_t release_len,
			char *moddir, size_t moddir_len, char *err, size_t errlen)
{
	const char *base = modules_root ? modules_root : system_root;
	int n;

	if (release_opt && (!release_name_ok(release_opt) || strlen(release_opt) >= release_len))
		return errmsg(err, errlen, "--release '%s' is not a kernel release name",
			      release_opt);
	if (modules_root ? pick_tree(modules_root, release_opt, release, release_len, err, errlen)
			 : pick_system(system_root, release_opt, release, release_len, err,
				       errlen))
		return -1;
	n = snprintf(moddir, moddir_len, "%s/lib/modules/%s", base, release);
	if (n < 0 || (size_t)n >= moddir_len)
		return errmsg(err, errlen, "module directory path too long");
	if (!is_dir(moddir)) {
		if (modules_root)
			return errmsg(err, errlen,
				      "kernel release %s: %s not found: run 'make modules_install "
				      "INSTALL_MOD_PATH=%s' for that release",
				      release, moddir, modules_root);
		return errmsg(err, errlen,
			      "kernel release %s: %s not found: install linux-image-%s, or give "
			      "--modules-dir DIR",
			      release, moddir, release);
	}
	return 0;
}
