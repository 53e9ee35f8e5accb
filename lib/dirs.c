// SPDX-License-Identifier: GPL-2.0
/* Finding the data and work directories from the program's path; see dirs.h. */
#include "lib/dirs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/errmsg.h"

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* snprintf that fails, rather than cuts, a path too long for its buffer. */
static int path_join(char *out, size_t len, const char *a, const char *b, char *err,
		     size_t errlen)
{
	int n = snprintf(out, len, "%s%s%s", a, *b ? "/" : "", b);

	if (n < 0 || (size_t)n >= len)
		return errmsg(err, errlen, "%s/%s: path too long", a, b);
	return 0;
}

/* Cut path at its last '/': "/a/b" -> "/a", "/a" -> "/". */
static void cut_last(char *path)
{
	char *slash = strrchr(path, '/');

	if (slash == path)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
}

/*
 * Installed, the work directory must not be beside the program (PREFIX is
 * often not writable, and shared by users): a per-user cache, as the XDG
 * base directories put one. XDG_CACHE_HOME counts only when absolute, as
 * that specification says.
 */
static int installed_work(struct iomatrix_dirs *d, char *err, size_t errlen)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (xdg && xdg[0] == '/')
		return path_join(d->work, sizeof(d->work), xdg, "iomatrix", err, errlen);
	if (home && home[0] == '/')
		return path_join(d->work, sizeof(d->work), home, ".cache/iomatrix", err, errlen);
	return errmsg(err, errlen,
		      "no work directory: neither $XDG_CACHE_HOME nor $HOME is an absolute path "
		      "(set $" DIRS_WORK_ENV ")");
}

/*
 * In the tree, the binary is in the build directory: build/ by default, but
 * make's BUILD= may put it deeper (out/x) or elsewhere. The tree is the
 * nearest directory above the binary that holds the stages' folders;
 * without one (a binary copied away), the build directory's parent, as
 * before.
 */
static void tree_of(const char *bindir, char *tree, size_t len)
{
	char p[PATH_MAX], probe[PATH_MAX + 16];

	snprintf(p, sizeof(p), "%s", bindir);
	while (strcmp(p, "/") && p[0]) {
		cut_last(p);
		snprintf(probe, sizeof(probe), "%s/matrix", p[0] ? p : "");
		if (is_dir(probe)) {
			snprintf(probe, sizeof(probe), "%s/initramfs", p[0] ? p : "");
			if (is_dir(probe)) {
				snprintf(tree, len, "%s", p);
				return;
			}
		}
	}
	snprintf(tree, len, "%s", bindir);
	cut_last(tree);
}

int iomatrix_dirs(struct iomatrix_dirs *d, char *err, size_t errlen)
{
	char bindir[PATH_MAX], prefix[PATH_MAX], share[PATH_MAX + 32];
	const char *env = getenv(DIRS_WORK_ENV);
	ssize_t n;

	memset(d, 0, sizeof(*d));
	/* The kernel's answer has every symlink resolved: a link to build/iomatrix is the tree. */
	n = readlink("/proc/self/exe", d->exe, sizeof(d->exe) - 1);
	if (n <= 0 || d->exe[0] != '/')
		return errmsg(err, errlen, "cannot read /proc/self/exe: %s",
			      n < 0 ? strerror(errno) : "not a path");
	d->exe[n] = '\0';
	snprintf(bindir, sizeof(bindir), "%s", d->exe);
	cut_last(bindir);
	snprintf(prefix, sizeof(prefix), "%s", bindir);
	cut_last(prefix);
	snprintf(share, sizeof(share), "%s/" DIRS_DATA, strcmp(prefix, "/") ? prefix : "");
	d->installed = is_dir(share);
	if (d->installed) {
		if (path_join(d->data, sizeof(d->data), share, "", err, errlen) ||
		    path_join(d->runner, sizeof(d->runner), prefix,
			      DIRS_RUNNER "/iomatrix-runner", err, errlen))
			return -1;
	} else {
		char tree[PATH_MAX];

		tree_of(bindir, tree, sizeof(tree));
		if (path_join(d->data, sizeof(d->data), tree, "", err, errlen) ||
		    path_join(d->runner, sizeof(d->runner), bindir, "iomatrix-runner", err, errlen))
			return -1;
	}
	if (env && *env) {
		/* Relative, it would be another directory from each place it is run in. */
		if (env[0] != '/')
			return errmsg(err, errlen, "$" DIRS_WORK_ENV "=%s: not an absolute path", env);
		return path_join(d->work, sizeof(d->work), env, "", err, errlen);
	}
	if (d->installed)
		return installed_work(d, err, errlen);
	return path_join(d->work, sizeof(d->work), bindir, "", err, errlen);
}

int dirs_make(const char *path, char *err, size_t errlen)
{
	char p[PATH_MAX];
	size_t len = strlen(path);

	if (len >= sizeof(p))
		return errmsg(err, errlen, "%s: path too long", path);
	memcpy(p, path, len + 1);
	/* Each parent first; one that exists already is fine, even when not ours. */
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) && errno != EEXIST)
			return errmsg(err, errlen, "cannot create %s: %s", p, strerror(errno));
		*s = '/';
	}
	if (mkdir(p, 0755) && errno != EEXIST)
		return errmsg(err, errlen, "cannot create %s: %s", p, strerror(errno));
	if (!is_dir(p))
		return errmsg(err, errlen, "%s: not a directory", p);
	return 0;
}
