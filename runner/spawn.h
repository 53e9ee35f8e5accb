/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Starting and waiting for children, as PID 1 must: every orphan in the
 * system becomes PID 1's child and has to be reaped, while the appliance
 * also waits for particular children of its own (tools, workloads) with a
 * time limit.
 *
 * One mechanism serves both. SIGCHLD stays blocked in PID 1 (spawn_init),
 * and the only place children are reaped is reap_all(): it collects every
 * child that has exited, keeps the status of the ones spawn() started
 * (they are "tracked") and drops orphans. spawn_wait() loops on reap_all()
 * and sigtimedwait(SIGCHLD) until its child is done or the time is up, so
 * orphans are reaped while PID 1 waits for anything, and a tracked child
 * that ends while PID 1 waits for another keeps its status for later.
 *
 *   int status;
 *   const char *const argv[] = { "mdadm", "--stop", "/dev/md0", NULL };
 *   int ret = run_child(argv, 30.0, NULL, &status);   // spawn + wait
 *   if (ret) ... spawn_strerror(ret) ...               // could not run / timed out
 *   else if (status) ... spawn_status_str(status) ...  // ran, failed
 *
 * A child runs in its own process group; on a timeout the whole group is
 * killed (SIGKILL) and reaped, so a workload's helpers go with it.
 */
#ifndef IOMATRIX_RUNNER_SPAWN_H
#define IOMATRIX_RUNNER_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define SPAWN_MAX_TRACKED 64
#define SPAWN_NO_TIMEOUT  (-1.0)
#define SPAWN_ETIMEDOUT	  (-10000) /* spawn_wait: time was up; the child was killed */

struct spawn_opts {
	int stdin_fd;	  /* -1: inherit; otherwise dup2'ed onto 0 in the child */
	int stdout_fd;	  /* -1: inherit */
	int stderr_fd;	  /* -1: inherit */
	bool controlling; /* new session with the console as controlling tty (a shell) */
};

/* Blocks SIGCHLD in the calling process. Call once, before any spawn(). */
int spawn_init(void);

/*
 * Starts argv[0] (looked up in PATH) as a tracked child. opts may be NULL.
 * Returns its pid, or a negative errno (fork failed, table full). A program
 * that cannot be executed exits 127 after saying why on stderr.
 */
pid_t spawn(const char *const argv[], const struct spawn_opts *opts);

/*
 * Waits for a tracked child for at most timeout seconds (SPAWN_NO_TIMEOUT:
 * forever) and stores its wait status. Returns 0, SPAWN_ETIMEDOUT (the
 * child's process group was killed and the child reaped), or a negative
 * errno (-ECHILD: pid is not a tracked child).
 */
int spawn_wait(pid_t pid, double timeout, int *status);

/* spawn() then spawn_wait(). */
int run_child(const char *const argv[], double timeout, const struct spawn_opts *opts, int *status);

/* Reaps every exited child without blocking. Returns how many orphans it dropped. */
int reap_all(void);

/* "exit 0", "exit 3", "killed by signal 9 (Killed)" for a wait status. */
const char *spawn_status_str(int status, char *buf, size_t len);

/* A message for spawn()/spawn_wait()'s negative returns. */
const char *spawn_strerror(int ret);

#endif
