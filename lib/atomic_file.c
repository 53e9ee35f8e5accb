// SPDX-License-Identifier: GPL-2.0
/* Whole-or-nothing file writing; see atomic_file.h. */
#include "lib/atomic_file.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/errmsg.h"

/* The one temporary file a signal handler must remove (one at a time). */
static char pending_tmp[PATH_MAX];
static volatile sig_atomic_t pending;

static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define NSIGNALS (sizeof(cleanup_signals) / sizeof(cleanup_signals[0]))

/*
 * What each signal did before the handler went in (the runner's, a caller's
 * SIG_IGN, ...): put back once the file is settled, not SIG_DFL.
 */
static struct sigaction saved[NSIGNALS];
static bool installed[NSIGNALS];

static void restore_handlers(void)
{
	for (size_t i = 0; i < NSIGNALS; i++) {
		if (installed[i])
			sigaction(cleanup_signals[i], &saved[i], NULL);
		installed[i] = false;
	}
}

/* Removes the file, then the signal does what it did before (the default: the end). */
static void on_signal(int sig)
{
	if (pending)
		unlink(pending_tmp);
	pending = 0;
	restore_handlers();
	raise(sig);
}

static void install_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NSIGNALS; i++) {
		struct sigaction old;

		if (installed[i] || sigaction(cleanup_signals[i], NULL, &old))
			continue;
		/* an ignored signal stays ignored: it ends nothing, so nothing to clean */
		if (old.sa_handler == SIG_IGN)
			continue;
		if (!sigaction(cleanup_signals[i], &sa, &saved[i]))
			installed[i] = true;
	}
}

static void dir_of(const char *path, char *out, size_t outlen)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(out, outlen, ".");
	else if (slash == path)
		snprintf(out, outlen, "/");
	else
		snprintf(out, outlen, "%.*s", (int)(slash - path), path);
}

int atomic_file_open(struct atomic_file *af, const char *path, char *err, size_t errlen)
{
	char dir[PATH_MAX];
	struct stat st;

	memset(af, 0, sizeof(*af));
	af->fd = -1;
	if (snprintf(af->path, sizeof(af->path), "%s", path) >= (int)sizeof(af->path) ||
	    snprintf(af->tmp_path, sizeof(af->tmp_path), "%s.tmp-XXXXXX", path) >=
		    (int)sizeof(af->tmp_path)) {
		af->error = ENAMETOOLONG;
		return errmsg(err, errlen, "%s: path too long", path);
	}
	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		af->error = EISDIR;
		return errmsg(err, errlen, "%s is a directory", path);
	}
	dir_of(path, dir, sizeof(dir));
	af->fd = mkstemp(af->tmp_path);
	if (af->fd < 0) {
		af->error = errno;
		return errmsg(err, errlen, "cannot create a file in %s: %s", dir,
			      strerror(af->error));
	}
	snprintf(pending_tmp, sizeof(pending_tmp), "%s", af->tmp_path);
	pending = 1;
	install_handlers();
	return 0;
}

/* The temporary file is dealt with: no handler needs to remove it any more. */
static void settled(void)
{
	pending = 0;
	restore_handlers();
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->fd < 0)
		return;
	close(af->fd);
	af->fd = -1;
	unlink(af->tmp_path);
	settled();
}

int atomic_file_write(struct atomic_file *af, const void *data, size_t len, char *err,
		      size_t errlen)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(af->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			af->error = errno;
			return errmsg(err, errlen, "%s: %s", af->tmp_path, strerror(af->error));
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int atomic_file_commit(struct atomic_file *af, char *err, size_t errlen)
{
	mode_t mask = umask(0);
	int ret = 0;

	/* The mode an ordinary new file gets, not mkstemp's 0600. */
	umask(mask);
	if (fsync(af->fd) || (fchmod(af->fd, 0666 & ~mask) && !af->mode_best_effort)) {
		af->error = errno;
		ret = errmsg(err, errlen, "%s: %s", af->tmp_path, strerror(af->error));
	}
	if (close(af->fd) && !ret) {
		af->error = errno;
		ret = errmsg(err, errlen, "%s: %s", af->tmp_path, strerror(af->error));
	}
	af->fd = -1;
	if (!ret && rename(af->tmp_path, af->path)) {
		af->error = errno;
		ret = errmsg(err, errlen, "cannot rename %s to %s: %s", af->tmp_path, af->path,
			     strerror(af->error));
	}
	if (ret)
		unlink(af->tmp_path);
	settled();
	return ret;
}
