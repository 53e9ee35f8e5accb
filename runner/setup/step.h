/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One step of a cell (mdadm, mkfs, mount, ...) and what its failure says.
 * A failed step becomes the cell's error: which step, the command (or the
 * system call), how it ended, and the last lines it printed, so a record
 * tells why without the console log:
 *
 *   struct step_error e;
 *   const char *const argv[] = {"mkfs.xfs", "-f", "-q", "/dev/md0", NULL};
 *   if (step_run("mkfs", argv, 60.0, &e))
 *       ... step_error_line(&e, buf, len) ->
 *       "mkfs: mkfs.xfs -f -q /dev/md0: exit 1: agsize (4096 blocks) too small"
 *
 * Steps run with stdin from /dev/null and stdout and stderr into one file
 * under /run, so tools never wait for an answer and never write over the
 * console's progress lines.
 */
#ifndef IOMATRIX_RUNNER_SETUP_STEP_H
#define IOMATRIX_RUNNER_SETUP_STEP_H

#include <stdbool.h>
#include <stddef.h>

#define STEP_OUTPUT	    "/run/iomatrix/step.out"
#define STEP_TAIL_LINES	    4
#define STEP_COMMAND_MAX    512
#define STEP_TAIL_MAX	    512
#define STEP_ERROR_LINE_MAX 1400

struct step_error {
	char step[32];			/* "array", "mkfs", "mount", "workload", ... */
	char command[STEP_COMMAND_MAX]; /* the command line, or the system call */
	char status[128];		/* "exit 1", "killed by signal 9 (Killed)", strerror */
	char tail[STEP_TAIL_MAX];	/* its last lines of output, joined by " | " */
	bool timeout;			/* the step ran out of time and was killed */
};

/*
 * Runs argv (looked up in PATH) for at most timeout seconds. Returns 0 when
 * it exits 0; -1 with e filled otherwise (also when it cannot be started).
 */
int step_run(const char *step, const char *const argv[], double timeout, struct step_error *e);

/* Fills e for a failed system call or check: step, what was done, why. */
void step_fail(struct step_error *e, const char *step, const char *command, const char *status,
	       const char *tail);

/* "STEP: COMMAND: STATUS[: TAIL]" on one line. */
const char *step_error_line(const struct step_error *e, char *buf, size_t len);

/* argv joined by blanks (an argument with a blank in quotes), for messages. */
const char *step_join_argv(const char *const argv[], char *buf, size_t len);

/*
 * The last `lines` non-empty lines of a text file, joined by " | ", control
 * characters replaced by '?'. "" when the file is empty or unreadable.
 */
void step_file_tail(const char *path, int lines, char *out, size_t len);

/* Seconds on the monotonic clock. */
double step_now(void);

#endif
