// SPDX-License-Identifier: GPL-2.0
/* The results disk and serial port of `iomatrix qemu`; see qemu_results.h. */
#include "qemu/qemu_results.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "qemu/qemu_disks.h"

/* Bytes that must all be zero for an existing disk to count as never written. */
#define BLANK_SPAN (1u << 20)

/* No results log, no signature, all zeros at the start: nothing to lose. */
static bool never_written(const char *path)
{
	uint8_t *buf = malloc(BLANK_SPAN);
	bool blank = false;
	ssize_t n;
	int fd;

	if (!buf)
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	n = fd >= 0 ? pread(fd, buf, BLANK_SPAN, 0) : -1;
	if (n >= 0) {
		blank = true;
		for (ssize_t i = 0; i < n && blank; i++)
			blank = buf[i] == 0;
	}
	if (fd >= 0)
		close(fd);
	free(buf);
	return blank;
}

int qr_prepare(const char *disk, const char *serial, bool dry_run, struct qemu_results *out,
	       char *err, size_t errlen)
{
	struct qemu_disk d;
	struct stat st;

	memset(out, 0, sizeof(*out));
	if (serial)
		snprintf(out->serial, sizeof(out->serial), "%s", serial);
	if (!disk)
		return 0;
	snprintf(out->disk, sizeof(out->disk), "%s", disk);
	if (stat(disk, &st) == 0) {
		/* As any disk passed through: refused when mounted, swap, held or looped. */
		if (qd_passthrough("--results-disk", disk, 0, &d, err, errlen))
			return -1;
		out->disk_block = d.block_device;
		out->disk_blank = never_written(disk);
		return 0;
	}
	if (errno != ENOENT) {
		snprintf(err, errlen, "--results-disk %s: %s", disk, strerror(errno));
		return -1;
	}
	out->disk_blank = true;
	if (dry_run)
		return 0;
	return qd_create_file(disk, QR_DISK_SIZE, err, errlen);
}

bool qr_cmdline_sets(const char *words, const char *key)
{
	char want[64];
	size_t n = (size_t)snprintf(want, sizeof(want), "iomatrix.%s", key);

	for (const char *p = words; p && (p = strstr(p, want)); p += n)
		if ((p == words || p[-1] == ' ' || p[-1] == '"') &&
		    (p[n] == '=' || p[n] == ' ' || p[n] == '\0' || p[n] == '"'))
			return true;
	return false;
}

void qr_cmdline(const struct qemu_results *r, const char *user_append, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	if ((r->disk[0] || r->serial[0]) && !qr_cmdline_sets(user_append, "results"))
		used += (size_t)snprintf(buf, len, " iomatrix.results=%s%s%s",
					 r->disk[0] ? "disk:serial=" QR_DISK_SERIAL "," : "",
					 r->serial[0] ? "serial:" : "",
					 r->serial[0] ? QR_SERIAL_TTY : "console");
	if (r->disk[0] && r->disk_blank && !qr_cmdline_sets(user_append, "results_init") &&
	    used < len)
		snprintf(buf + used, len - used, " iomatrix.results_init=1");
}
