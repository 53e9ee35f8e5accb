// SPDX-License-Identifier: GPL-2.0
/* Starting QEMU, the time limit, and passing on the launcher's signals. */
#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "qemu/qemu_log.h"
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

/*
 * All of buf to our stdout. QEMU may have made the terminal non-blocking
 * (stdin and stdout often share it): wait for room then. A reader that went
 * away loses the rest; the serial log has it.
 */
static void write_all(const char *buf, size_t n)
{
	while (n) {
		ssize_t w = write(STDOUT_FILENO, buf, n);
		struct pollfd p = {STDOUT_FILENO, POLLOUT, 0};

		if (w > 0) {
			buf += w;
			n -= (size_t)w;
		} else if (w < 0 && errno == EINTR) {
			continue;
		} else if (w < 0 && errno == EAGAIN && poll(&p, 1, 1000) > 0) {
			continue;
		} else {
			return;
		}
	}
}

/* --hide-kernel: what QEMU has written to the pipe (non-blocking), filtered. */
struct live_relay {
	int fd; /* -1: no relay */
	bool eof; /* the pipe's end: QEMU (and all it started) closed its stdout */
	struct qemu_live_filter f;
};

static void relay(struct live_relay *lr, bool end)
{
	static char in[4096], out[sizeof(in) + QEMU_LIVE_LINE];
	ssize_t got;

	while ((got = read(lr->fd, in, sizeof(in))) > 0 || (got < 0 && errno == EINTR))
		if (got > 0)
			write_all(out, qemu_live_filter(&lr->f, in, (size_t)got, out));
	if (got == 0)
		lr->eof = true;
	if (end)
		write_all(out, qemu_live_filter(&lr->f, NULL, 0, out));
}

/* Waits for pid until deadline (0: none); true when it exited, status stored. */
static bool wait_until(pid_t pid, double deadline, const sigset_t *set, int *status,
		       bool *signalled, struct live_relay *lr)
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
		if (lr->fd >= 0 && !lr->eof) {
			/*
			 * The signals stay blocked (sigtimedwait takes them), so
			 * poll cannot see one come: wait at most 0.1 s for output,
			 * then look for a signal without waiting. After the pipe's
			 * end poll would return at once, every time: from then on
			 * only sigtimedwait waits (SIGCHLD), as without a relay.
			 */
			struct pollfd p = {lr->fd, POLLIN, 0};
			long ms = (long)(ts.tv_sec * 1000 + ts.tv_nsec / 1000000);

			poll(&p, 1, ms < 100 ? (int)ms : 100);
			relay(lr, false);
			ts.tv_sec = ts.tv_nsec = 0;
		}
		sig = sigtimedwait(set, NULL, &ts);
		if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
			*signalled = true;
			return false;
		}
	}
}

int qemu_run(char *const argv[], double timeout, enum qemu_live live, struct qemu_run_result *r,
	     char *err, size_t errlen)
{
	struct live_relay lr = {.fd = -1};
	struct sigaction ignore = {.sa_handler = SIG_IGN}, old_pipe;
	sigset_t set, old;
	double start = now();
	bool signalled = false;
	int pipefd[2] = {-1, -1};
	pid_t pid;

	memset(r, 0, sizeof(*r));
	if (live == QEMU_LIVE_NO_KERNEL && pipe2(pipefd, O_CLOEXEC)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
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
		if (pipefd[0] >= 0) {
			close(pipefd[0]);
			close(pipefd[1]);
		}
		return -1;
	}
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (pipefd[1] >= 0) /* dup2 clears O_CLOEXEC on the copy */
			dup2(pipefd[1], STDOUT_FILENO);
		if (live == QEMU_LIVE_NONE) {
			int null = open("/dev/null", O_RDONLY);

			if (null >= 0)
				dup2(null, STDIN_FILENO);
		}
		execv(argv[0], argv);
		fprintf(stderr, "iomatrix qemu: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (pipefd[0] >= 0) {
		close(pipefd[1]);
		lr.fd = pipefd[0];
		fcntl(lr.fd, F_SETFL, O_NONBLOCK);
		/*
		 * A reader of ours that goes away (make demo | head) must not
		 * kill the launcher: QEMU would outlive it, its disks left.
		 */
		sigaction(SIGPIPE, &ignore, &old_pipe);
	}
	if (!wait_until(pid, timeout > 0 ? start + timeout : 0, &set, &r->status, &signalled,
			&lr)) {
		r->timed_out = !signalled;
		r->interrupted = signalled;
		kill(pid, SIGTERM);
		if (!wait_until(pid, now() + QEMU_KILL_GRACE, &set, &r->status, &signalled, &lr)) {
			kill(pid, SIGKILL);
			waitpid(pid, &r->status, 0);
		}
	}
	if (lr.fd >= 0) { /* what QEMU wrote last, and a line it left open */
		relay(&lr, true);
		close(lr.fd);
		sigaction(SIGPIPE, &old_pipe, NULL);
	}
	r->seconds = now() - start;
	sigprocmask(SIG_SETMASK, &old, NULL);
	return 0;
}
