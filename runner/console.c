// SPDX-License-Identifier: GPL-2.0
/*
 * Console lines. Each is formatted into one buffer and written with one
 * write(2), so lines from PID 1 and from its children do not interleave
 * mid-line on the serial port.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/appliance_contract.h"
#include "runner/console.h"

static bool debug_on;

void con_set_debug(bool on)
{
	debug_on = on;
}

double con_uptime(void)
{
	char buf[64];
	ssize_t n;
	int fd = open("/proc/uptime", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return strtod(buf, NULL);
}

static void emit(bool with_time, const char *fmt, va_list ap)
{
	char line[1024];
	size_t len = strlen(CONSOLE_PREFIX);
	/* Room for the message; the rest is kept for " t=..." and '\n'. */
	size_t room = sizeof(line) - len - 24;
	int n;

	memcpy(line, CONSOLE_PREFIX, len);
	n = vsnprintf(line + len, room, fmt, ap);
	if (n < 0)
		n = 0;
	len += (size_t)n < room ? (size_t)n : room - 1; /* truncated: keep what fit */
	if (with_time)
		len += (size_t)snprintf(line + len, 24, " t=%.2f", con_uptime());
	line[len++] = '\n';
	/* The console is all we have: a short write has nowhere to be reported. */
	if (write(STDOUT_FILENO, line, len) < 0)
		return;
}

void con_say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(false, fmt, ap);
	va_end(ap);
}

void con_say_t(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(true, fmt, ap);
	va_end(ap);
}

void con_debug(const char *fmt, ...)
{
	va_list ap;

	if (!debug_on)
		return;
	va_start(ap, fmt);
	emit(false, fmt, ap);
	va_end(ap);
}
