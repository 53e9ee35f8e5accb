/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading a serial log after QEMU exits: did the appliance power off
 * cleanly, did the kernel panic, what did PID 1 report. The exit status of
 * `iomatrix qemu` comes from these facts (qemu_log_exit_status), so a
 * script can tell a clean run from a crash or a hang without reading the
 * log itself.
 */
#ifndef IOMATRIX_QEMU_QEMU_LOG_H
#define IOMATRIX_QEMU_QEMU_LOG_H

#include <stdbool.h>
#include <stddef.h>

/* The exit statuses of `iomatrix qemu`. */
enum qemu_exit {
	QEMU_EXIT_CLEAN = 0,   /* QEMU exited by itself after the runner's power-off line */
	QEMU_EXIT_ERROR = 1,   /* the launcher or QEMU failed */
	QEMU_EXIT_USAGE = 2,   /* bad command line */
	QEMU_EXIT_CRASH = 3,   /* kernel panic, or QEMU exited without the power-off line */
	QEMU_EXIT_TIMEOUT = 4, /* the wall-clock limit was reached; QEMU was killed */
	QEMU_EXIT_FATAL = 5,   /* the appliance reported FATAL (and powered off) */
};

struct qemu_log_facts {
	bool started;	     /* "iomatrix: start:" seen: PID 1 ran */
	bool powered_off;    /* "iomatrix: power-off" seen */
	bool panicked;	     /* "Kernel panic - not syncing" seen */
	bool oops;	     /* an Oops / BUG: / WARNING: from the kernel */
	bool watchdog_armed; /* "iomatrix: watchdog: ... armed" seen */
	double t_start;	     /* guest uptime on those lines; -1 when absent */
	double t_power_off;
	char fatal[256]; /* the runner's FATAL line, "" when none */
	char panic[256]; /* the kernel's panic line, "" when none */
	char first_oops[256];
};

void qemu_log_scan(const char *text, size_t len, struct qemu_log_facts *f);

/*
 * qemu_status: QEMU's wait status; timed_out: the launcher killed it.
 * Prefers the most specific cause: timeout, then panic, then a QEMU
 * failure, then the appliance's FATAL line, then a missing power-off line.
 */
enum qemu_exit qemu_log_exit_status(const struct qemu_log_facts *f, int qemu_status,
				    bool timed_out);

/*
 * The live console without the kernel's messages (iomatrix qemu
 * --hide-kernel): a line that starts with the kernel's timestamp
 * ("[   12.345678] ") is left out, unless it holds a panic or an oops (shown)
 * or the runner's "iomatrix: " after kernel text (shown from there). Every
 * other byte goes through as it comes, so a shell prompt without a newline
 * shows at once. The serial log is written apart from this and keeps all.
 */
#define QEMU_LIVE_LINE 512 /* a kernel line's bytes kept to judge it */
struct qemu_live_filter {
	int state; /* 0: at a line's start; the others in qemu_log.c */
	size_t n;
	char line[QEMU_LIVE_LINE];
};
/*
 * Feeds n bytes of console output (f zeroed to start); writes what is
 * shown to out, which must have room for n + QEMU_LIVE_LINE bytes, and
 * returns its length. n = 0 ends the output: a held line is judged as is.
 */
size_t qemu_live_filter(struct qemu_live_filter *f, const char *in, size_t n, char *out);

#endif
