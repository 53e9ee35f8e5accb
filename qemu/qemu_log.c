// SPDX-License-Identifier: GPL-2.0
/* What a serial log says about how the appliance's boot ended. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "qemu/qemu_log.h"

/* Kernel complaints worth a note even when the run ends cleanly. */
static const char *const oops_marks[] = {
	"Oops:", "BUG: ", "WARNING: CPU:", "general protection fault"};

static void copy_line(char *dst, size_t dstlen, const char *src, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n && k + 1 < dstlen; i++)
		if (src[i] != '\r')
			dst[k++] = (src[i] >= 0x20 && src[i] < 0x7f) ? src[i] : '?';
	dst[k] = '\0';
}

/* Guest uptime from a line's " t=SECONDS" end, -1 when it has none. */
static double line_time(const char *line, size_t n)
{
	char buf[64];

	for (size_t i = n; i-- > 0;)
		if (line[i] == '=' && i >= 2 && line[i - 1] == 't' && line[i - 2] == ' ') {
			copy_line(buf, sizeof(buf), line + i + 1, n - i - 1);
			return atof(buf);
		}
	return -1;
}

static const char *find_in(const char *line, size_t n, const char *needle)
{
	size_t k = strlen(needle);

	for (size_t i = 0; i + k <= n; i++)
		if (!memcmp(line + i, needle, k))
			return line + i;
	return NULL;
}

void qemu_log_scan(const char *text, size_t len, struct qemu_log_facts *f)
{
	size_t pos = 0;

	memset(f, 0, sizeof(*f));
	f->t_start = f->t_power_off = -1;
	while (pos < len) {
		const char *line = text + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;
		const char *at;

		pos += n + (nl ? 1 : 0);
		/* The runner's lines: the prefix may follow kernel output on the same line. */
		if ((at = find_in(line, n, "iomatrix: start:"))) {
			f->started = true;
			f->t_start = line_time(line, n);
		} else if ((at = find_in(line, n, "iomatrix: power-off"))) {
			f->powered_off = true;
			f->t_power_off = line_time(line, n);
		} else if ((at = find_in(line, n, "iomatrix: FATAL: ")) && !f->fatal[0]) {
			copy_line(f->fatal, sizeof(f->fatal), at, n - (size_t)(at - line));
		} else if (find_in(line, n, "iomatrix: watchdog: ") && find_in(line, n, " armed")) {
			f->watchdog_armed = true;
		}
		if ((at = find_in(line, n, "Kernel panic - not syncing")) && !f->panicked) {
			f->panicked = true;
			copy_line(f->panic, sizeof(f->panic), at, n - (size_t)(at - line));
		}
		for (size_t i = 0; i < sizeof(oops_marks) / sizeof(oops_marks[0]); i++)
			if ((at = find_in(line, n, oops_marks[i])) && !f->oops) {
				f->oops = true;
				copy_line(f->first_oops, sizeof(f->first_oops), at,
					  n - (size_t)(at - line));
			}
	}
}

enum qemu_exit qemu_log_exit_status(const struct qemu_log_facts *f, int qemu_status, bool timed_out)
{
	if (timed_out)
		return QEMU_EXIT_TIMEOUT;
	if (f->panicked)
		return QEMU_EXIT_CRASH;
	if (!WIFEXITED(qemu_status) || WEXITSTATUS(qemu_status) != 0)
		return QEMU_EXIT_ERROR;
	if (f->fatal[0])
		return QEMU_EXIT_FATAL;
	return f->powered_off ? QEMU_EXIT_CLEAN : QEMU_EXIT_CRASH;
}
