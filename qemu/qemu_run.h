/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running QEMU under a wall-clock limit. The launcher stays QEMU's parent
 * and waits with sigtimedwait, so a timeout, a Ctrl-C or a SIGTERM sent to
 * the launcher all end the same way: SIGTERM to QEMU (which then restores
 * the terminal), SIGKILL if it has not exited QEMU_KILL_GRACE seconds
 * later, and the launcher's own clean-up.
 */
#ifndef IOMATRIX_QEMU_QEMU_RUN_H
#define IOMATRIX_QEMU_QEMU_RUN_H

#include <stdbool.h>
#include <stddef.h>

#define QEMU_BINARY	"qemu-system-x86_64"
#define QEMU_KILL_GRACE 5.0

/* A growing argv; every string is owned by it. */
struct qemu_argv {
	char **v;
	size_t n, cap;
};

void qa_add(struct qemu_argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void qa_free(struct qemu_argv *a);

struct qemu_run_result {
	int status;	  /* QEMU's wait status */
	bool timed_out;	  /* the limit was reached and QEMU killed */
	bool interrupted; /* the launcher got SIGINT/SIGTERM/SIGHUP and stopped QEMU */
	double seconds;	  /* wall time from start to QEMU's exit */
};

/* Is /dev/kvm usable here? false with the reason in why. */
bool qemu_kvm_usable(char *why, size_t len);

/* The full path of a program found in PATH, or false. */
bool qemu_find_program(const char *name, char *out, size_t len);

/* What of the console is shown live (QEMU writes all of it to the log itself). */
enum qemu_live {
	QEMU_LIVE_ALL,	     /* QEMU's stdout is ours */
	QEMU_LIVE_NONE,	     /* --quiet: stdin detached too */
	QEMU_LIVE_NO_KERNEL, /* --hide-kernel: QEMU's stdout through qemu_live_filter */
};

/*
 * Runs argv (argv[0] a full path), shows its console as live says, and
 * waits at most timeout seconds (<= 0: no limit). 0, or -1 with why in err
 * when it could not be started.
 */
int qemu_run(char *const argv[], double timeout, enum qemu_live live, struct qemu_run_result *r,
	     char *err, size_t errlen);

#endif
