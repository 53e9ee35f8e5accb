// SPDX-License-Identifier: GPL-2.0
/* Tracked children and orphan reaping for PID 1; see spawn.h for the design. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runner/spawn.h"

#include "lib/appliance_contract.h"

struct tracked {
	pid_t pid; /* 0: free slot */
	bool done;
	int status;
};

static struct tracked tracked[SPAWN_MAX_TRACKED];

int spawn_init(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	return sigprocmask(SIG_BLOCK, &set, NULL) ? -errno : 0;
}

static struct tracked *find_tracked(pid_t pid)
{
	for (size_t i = 0; i < SPAWN_MAX_TRACKED; i++)
		if (tracked[i].pid == pid)
			return &tracked[i];
	return NULL;
}

int reap_all(void)
{
	int orphans = 0;
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		struct tracked *t = find_tracked(pid);

		if (t) {
			t->done = true;
			t->status = status;
		} else {
			orphans++;
		}
	}
	return orphans;
}

static void child_setup(const struct spawn_opts *o)
{
	const int fds[3] = {o->stdin_fd, o->stdout_fd, o->stderr_fd};
	sigset_t none;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL); /* the blocked SIGCHLD would survive exec */
	if (o->controlling) {
		setsid();
		ioctl(STDIN_FILENO, TIOCSCTTY, 1);
	} else {
		setpgid(0, 0);
	}
	for (int i = 0; i < 3; i++)
		if (fds[i] >= 0 && fds[i] != i && dup2(fds[i], i) < 0)
			_exit(127);
}

pid_t spawn(const char *const argv[], const struct spawn_opts *opts)
{
	static const struct spawn_opts inherit = {-1, -1, -1, false};
	struct tracked *slot = find_tracked(0);
	pid_t pid;

	if (!slot)
		return -EAGAIN;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		child_setup(opts ? opts : &inherit);
		execvp(argv[0], (char *const *)argv);
		dprintf(STDERR_FILENO, CONSOLE_PREFIX "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	/* Also in the parent, so a kill of the group cannot race the child's setpgid. */
	if (!(opts && opts->controlling))
		setpgid(pid, pid);
	slot->pid = pid;
	slot->done = false;
	return pid;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Sleeps until a SIGCHLD is pending or seconds have passed (< 0: no limit). */
static void wait_sigchld(double seconds)
{
	sigset_t set;
	struct timespec ts;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	if (seconds < 0) {
		sigwaitinfo(&set, NULL);
		return;
	}
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	sigtimedwait(&set, NULL, &ts);
}

static void release(struct tracked *t, int *status)
{
	if (status)
		*status = t->status;
	t->pid = 0;
	t->done = false;
}

int spawn_wait(pid_t pid, double timeout, int *status)
{
	struct tracked *t = pid > 0 ? find_tracked(pid) : NULL;
	double deadline = now() + timeout;

	if (!t)
		return -ECHILD;
	for (;;) {
		double left = deadline - now();

		/* Reap before sleeping: a SIGCHLD may have been consumed by an earlier wait. */
		reap_all();
		if (t->done) {
			release(t, status);
			return 0;
		}
		if (timeout >= 0 && left <= 0)
			break;
		/* Wake at least every second: a lost wake-up costs a second, never a hang. */
		wait_sigchld(timeout < 0 || left > 1.0 ? 1.0 : left);
	}
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	while (!t->done) {
		wait_sigchld(1.0);
		reap_all();
	}
	release(t, status);
	return SPAWN_ETIMEDOUT;
}

int run_child(const char *const argv[], double timeout, const struct spawn_opts *opts, int *status)
{
	pid_t pid = spawn(argv, opts);

	if (pid < 0)
		return (int)pid;
	return spawn_wait(pid, timeout, status);
}

const char *spawn_status_str(int status, char *buf, size_t len)
{
	if (WIFEXITED(status))
		snprintf(buf, len, "exit %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "wait status 0x%x", status);
	return buf;
}

const char *spawn_strerror(int ret)
{
	if (ret == SPAWN_ETIMEDOUT)
		return "timed out (killed)";
	return strerror(-ret);
}
