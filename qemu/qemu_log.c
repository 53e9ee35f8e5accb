// SPDX-License-Identifier: GPL-2.0
/* What a serial log says about how the appliance's boot ended. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "qemu/qemu_log.h"
#include "lib/appliance_contract.h"

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
		if ((at = find_in(line, n, CONSOLE_PREFIX CONSOLE_START))) {
			f->started = true;
			f->t_start = line_time(line, n);
		} else if ((at = find_in(line, n, CONSOLE_PREFIX CONSOLE_POWER_OFF))) {
			f->powered_off = true;
			f->t_power_off = line_time(line, n);
		} else if ((at = find_in(line, n, CONSOLE_PREFIX CONSOLE_FATAL)) && !f->fatal[0]) {
			copy_line(f->fatal, sizeof(f->fatal), at, n - (size_t)(at - line));
		} else if (find_in(line, n, CONSOLE_PREFIX CONSOLE_WATCHDOG) &&
			   find_in(line, n, CONSOLE_ARMED)) {
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

enum live_state { LIVE_START, LIVE_STAMP, LIVE_PASS, LIVE_KERNEL };

/* A line starting "[" " "* digits "." digits "]": 1 it is, 0 not yet known, -1 it is not. */
static int kernel_stamp(const char *s, size_t n)
{
	size_t i = 1;
	size_t digits = 0;

	while (i < n && s[i] == ' ')
		i++;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		digits++;
	if (i == n)
		return 0;
	if (!digits || s[i++] != '.')
		return -1;
	for (digits = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		digits++;
	if (i == n)
		return 0;
	return digits && s[i] == ']' ? 1 : -1;
}

/* The part of a held kernel line that is shown: its length, from *from. */
static size_t kernel_line_shown(const char *line, size_t n, size_t *from)
{
	const char *at;

	*from = 0;
	if (find_in(line, n, "Kernel panic - not syncing") || find_in(line, n, "end Kernel panic"))
		return n;
	for (size_t i = 0; i < sizeof(oops_marks) / sizeof(oops_marks[0]); i++)
		if (find_in(line, n, oops_marks[i]))
			return n;
	if ((at = find_in(line, n, CONSOLE_PREFIX))) {
		*from = (size_t)(at - line);
		return n - *from;
	}
	return 0;
}

size_t qemu_live_filter(struct qemu_live_filter *f, const char *in, size_t n, char *out)
{
	size_t k = 0, from, len;

	if (!n) { /* the end: what is held is judged as it is */
		if (f->state == LIVE_STAMP) {
			memcpy(out, f->line, f->n);
			k = f->n;
		} else if (f->state == LIVE_KERNEL &&
			   (len = kernel_line_shown(f->line, f->n, &from))) {
			memcpy(out, f->line + from, len);
			k = len;
		}
		f->state = LIVE_START;
		f->n = 0;
		return k;
	}
	for (size_t i = 0; i < n; i++) {
		char c = in[i];

		switch (f->state) {
		case LIVE_START:
			if (c == '[') {
				f->state = LIVE_STAMP;
				f->line[0] = c;
				f->n = 1;
				break;
			}
			out[k++] = c;
			if (c != '\n' && c != '\r')
				f->state = LIVE_PASS;
			break;
		case LIVE_STAMP:
			f->line[f->n++] = c;
			switch (c == '\n' ? -1 : kernel_stamp(f->line, f->n)) {
			case 1:
				f->state = LIVE_KERNEL;
				break;
			case -1:
				memcpy(out + k, f->line, f->n);
				k += f->n;
				f->state = c == '\n' ? LIVE_START : LIVE_PASS;
				break;
			default: /* a stamp is short: a line this long is none */
				if (f->n == QEMU_LIVE_LINE) {
					memcpy(out + k, f->line, f->n);
					k += f->n;
					f->state = LIVE_PASS;
				}
			}
			break;
		case LIVE_PASS:
			out[k++] = c;
			if (c == '\n')
				f->state = LIVE_START;
			break;
		case LIVE_KERNEL:
			/* past the buffer only the newline is kept: the marks come early */
			if (f->n < QEMU_LIVE_LINE - 1 || c == '\n')
				f->line[f->n++] = c;
			if (c == '\n') {
				len = kernel_line_shown(f->line, f->n, &from);
				memcpy(out + k, f->line + from, len);
				k += len;
				f->state = LIVE_START;
				f->n = 0;
			}
			break;
		}
	}
	return k;
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
