// SPDX-License-Identifier: GPL-2.0
/* Starting QEMU, the time limit, and passing on the launcher's signals. */
#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "qemu/qemu_run.h"

void qa_add(struct qemu_argv *a, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (a->n + 2 > a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 64;
		char **v = realloc(a->v, cap * sizeof(*v));

		if (!v) {
			fprintf(stderr, "iomatrix qemu: out of memory\n");
			exit(1);
		}
		a->v = v;
		a->cap = cap;
	}
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0) {
		fprintf(stderr, "iomatrix qemu: out of memory\n");
		exit(1);
	}
	va_end(ap);
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

void qa_free(struct qemu_argv *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	memset(a, 0, sizeof(*a));
}

/*
 * /dev/kvm can be there and open while guests cannot run (nested
 * virtualisation without VMX/SVM exposed hangs the guest early): ask for
 * a VM and for the CPU flag too.
 */
bool qemu_kvm_usable(char *why, size_t len)
{
	char line[4096];
	bool flag = false;
	FILE *f;
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	int vm;

	if (fd < 0) {
		snprintf(why, len, "/dev/kvm: %s", strerror(errno));
		return false;
	}
	if (ioctl(fd, KVM_GET_API_VERSION, 0) != KVM_API_VERSION ||
	    (vm = ioctl(fd, KVM_CREATE_VM, 0)) < 0) {
		snprintf(why, len, "/dev/kvm cannot create a VM");
		close(fd);
		return false;
	}
	close(vm);
	close(fd);
	f = fopen("/proc/cpuinfo", "r");
	while (f && !flag && fgets(line, sizeof(line), f))
		if (!strncmp(line, "flags", 5))
			flag = strstr(line, " vmx") || strstr(line, " svm");
	if (f)
		fclose(f);
	if (!flag)
		snprintf(why, len, "the CPU shows no vmx/svm flag (nested KVM would hang)");
	return flag;
}

bool qemu_find_program(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH");
	char *copy, *save, *dir;
	bool found = false;

	copy = strdup(path ? path : "/usr/bin:/bin");
	for (dir = strtok_r(copy, ":", &save); copy && dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		snprintf(out, len, "%s/%s", dir, name);
		found = access(out, X_OK) == 0;
	}
	free(copy);
	return found;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Waits for pid until deadline (0: none); true when it exited, status stored. */
static bool wait_until(pid_t pid, double deadline, const sigset_t *set, int *status,
		       bool *signalled)
{
	for (;;) {
		struct timespec ts = {1, 0};
		double left = deadline - now();
		int sig;

		if (waitpid(pid, status, WNOHANG) == pid)
			return true;
		if (deadline > 0 && left <= 0)
			return false;
		if (deadline > 0 && left < 1) {
			ts.tv_sec = 0;
			ts.tv_nsec = (long)(left * 1e9);
		}
		sig = sigtimedwait(set, NULL, &ts);
		if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
			*signalled = true;
			return false;
		}
	}
}

int qemu_run(char *const argv[], double timeout, bool quiet, struct qemu_run_result *r, char *err,
	     size_t errlen)
{
	sigset_t set, old;
	double start = now();
	bool signalled = false;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, &old);
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		sigprocmask(SIG_SETMASK, &old, NULL);
		return -1;
	}
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (quiet) {
			int null = open("/dev/null", O_RDONLY);

			if (null >= 0)
				dup2(null, STDIN_FILENO);
		}
		execv(argv[0], argv);
		fprintf(stderr, "iomatrix qemu: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (!wait_until(pid, timeout > 0 ? start + timeout : 0, &set, &r->status, &signalled)) {
		r->timed_out = !signalled;
		r->interrupted = signalled;
		kill(pid, SIGTERM);
		if (!wait_until(pid, now() + QEMU_KILL_GRACE, &set, &r->status, &signalled)) {
			kill(pid, SIGKILL);
			waitpid(pid, &r->status, 0);
		}
	}
	r->seconds = now() - start;
	sigprocmask(SIG_SETMASK, &old, NULL);
	return 0;
}
