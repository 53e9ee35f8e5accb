/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing a file so that it appears whole or not at all: a temporary file
 * in the same directory, renamed over the target at the end. On an error,
 * or SIGINT/SIGTERM/SIGHUP while it is open, the temporary file is removed.
 * Those signals get a handler while the file is open (an ignored one stays
 * ignored); at commit or abort, or once the handler has run, each does again
 * what it did before (the runner links this too: its dispositions are kept).
 */
#ifndef IOMATRIX_LIB_ATOMIC_FILE_H
#define IOMATRIX_LIB_ATOMIC_FILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

struct atomic_file {
	int fd;
	char path[PATH_MAX];	  /* the target */
	char tmp_path[PATH_MAX];  /* where the bytes go until commit */
	/*
	 * Set after open to have commit ignore a failed fchmod (the file keeps
	 * mkstemp's 0600), as report_atomic always has: --output on a
	 * filesystem that refuses modes still gets its report.
	 */
	bool mode_best_effort;
	int error;		  /* after a failure: its errno (EISDIR for a directory) */
};

/* Returns 0, or -1 with "cannot create a file in DIR: cause" in err. */
int atomic_file_open(struct atomic_file *af, const char *path, char *err, size_t errlen);
/* Write all of data; -1 with "tmp_path: cause" in err (then abort). */
int atomic_file_write(struct atomic_file *af, const void *data, size_t len, char *err,
		      size_t errlen);
/*
 * fsync, mode 0666 less the umask (see mode_best_effort), rename over the
 * target. On failure the temp is gone.
 */
int atomic_file_commit(struct atomic_file *af, char *err, size_t errlen);
/* Close and remove the temporary file (no-op after commit). */
void atomic_file_abort(struct atomic_file *af);

#endif
