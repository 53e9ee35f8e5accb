// SPDX-License-Identifier: GPL-2.0
/* Reports reach their file whole or not at all; see report.h. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "lib/atomic_file.h"
#include "records/report.h"

int report_atomic(const char *path, int (*emit)(FILE *f, const void *ctx), const void *ctx,
		  char *err, size_t errlen)
{
	struct atomic_file af;
	bool failed;
	FILE *f;
	int fd;

	if (!path) {
		if (emit(stdout, ctx) || fflush(stdout)) {
			snprintf(err, errlen, "writing the report: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	/* Its errors read "--output PATH: cause", as they always have. */
	if (atomic_file_open(&af, path, err, errlen)) {
		snprintf(err, errlen, "--output %s: %s", path, strerror(af.error));
		return -1;
	}
	af.mode_best_effort = true;
	/* A stream on a copy of the descriptor: closing it leaves af's to commit. */
	fd = dup(af.fd);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		snprintf(err, errlen, "--output %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		atomic_file_abort(&af);
		return -1;
	}
	errno = 0;
	failed = emit(f, ctx) != 0;
	if (fclose(f))
		failed = true;
	if (failed) {
		snprintf(err, errlen, "--output %s: %s", path, strerror(errno ? errno : EIO));
		atomic_file_abort(&af);
		return -1;
	}
	if (atomic_file_commit(&af, err, errlen)) {
		snprintf(err, errlen, "--output %s: %s", path, strerror(af.error));
		return -1;
	}
	return 0;
}
