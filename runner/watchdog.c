// SPDX-License-Identifier: GPL-2.0
/* Feeding /dev/watchdog from a thread of PID 1, within deadlines; see watchdog.h. */
#include "runner/watchdog.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/watchdog.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "runner/clock.h"

static int wd_fd = -1;
static int wd_timeout;
static pthread_t feeder;
static atomic_llong deadline_ms; /* monotonic; feeding stops after it */
static atomic_bool stop;

static long long now_ms(void)
{
	return (long long)(clock_mono_ns() / 1000000);
}

static void *feed(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop)) {
		struct timespec second = {1, 0};

		if (now_ms() < atomic_load(&deadline_ms))
			(void)!ioctl(wd_fd, WDIOC_KEEPALIVE, 0);
		nanosleep(&second, NULL);
	}
	return NULL;
}

int watchdog_start(const char *path, int timeout, double first_allow, int *actual, char *err,
		   size_t errlen)
{
	sigset_t all, old;
	int t = timeout, ret;

	wd_fd = open(path, O_WRONLY | O_CLOEXEC);
	if (wd_fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	/* Open means armed: feed once right away, whatever follows. */
	(void)!ioctl(wd_fd, WDIOC_KEEPALIVE, 0);
	if (ioctl(wd_fd, WDIOC_SETTIMEOUT, &t)) {
		snprintf(err, errlen, "%s: setting the timeout to %d s: %s", path, timeout,
			 strerror(errno));
		goto disarm;
	}
	wd_timeout = t;
	*actual = t;
	watchdog_allow(first_allow);
	atomic_store(&stop, false);
	/* The thread takes no signal: SIGCHLD is PID 1's to wait for. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	ret = pthread_create(&feeder, NULL, feed, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		snprintf(err, errlen, "%s: starting the feeder thread: %s", path, strerror(ret));
		goto disarm;
	}
	return 0;
disarm:
	(void)!write(wd_fd, "V", 1);
	close(wd_fd);
	wd_fd = -1;
	return -1;
}

void watchdog_allow(double seconds)
{
	atomic_store(&deadline_ms, now_ms() + (long long)(seconds * 1000));
}

void watchdog_stop_feeding(void)
{
	atomic_store(&deadline_ms, 0);
}

void watchdog_disarm(void)
{
	int off = WDIOS_DISABLECARD;

	if (wd_fd < 0)
		return;
	atomic_store(&stop, true);
	pthread_join(feeder, NULL);
	/* Either way works with most drivers; both cost nothing. */
	(void)!ioctl(wd_fd, WDIOC_SETOPTIONS, &off);
	(void)!write(wd_fd, "V", 1);
	close(wd_fd);
	wd_fd = -1;
}

bool watchdog_running(void)
{
	return wd_fd >= 0;
}

int watchdog_timeout(void)
{
	return wd_timeout;
}
