// SPDX-License-Identifier: GPL-2.0
/* Reports reach their file whole or not at all; see report.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "records/report.h"

int report_atomic(const char *path, int (*emit)(FILE *f, const void *ctx), const void *ctx,
		  char *err, size_t errlen)
{
	mode_t mask;
	char *tmp;
	size_t len;
	FILE *f;
	int fd;

	if (!path) {
		if (emit(stdout, ctx) || fflush(stdout)) {
			snprintf(err, errlen, "writing the report: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	len = strlen(path) + 16;
	tmp = malloc(len);
	if (!tmp) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	snprintf(tmp, len, "%s.tmp.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		snprintf(err, errlen, "--output %s: %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		return -1;
	}
	mask = umask(0);
	umask(mask);
	(void)fchmod(fd, 0666 & ~mask); /* as an ordinary new file, not mkstemp's 0600 */
	if (emit(f, ctx) || fflush(f) || fsync(fd)) {
		snprintf(err, errlen, "--output %s: %s", path, strerror(errno ? errno : EIO));
		fclose(f);
		unlink(tmp);
		free(tmp);
		return -1;
	}
	if (fclose(f) || rename(tmp, path)) {
		snprintf(err, errlen, "--output %s: %s", path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}
