/* SPDX-License-Identifier: GPL-2.0 */
/* The one clock of the engine: CLOCK_MONOTONIC in ns (a vDSO call, ~26 ns here). */
#ifndef IOMATRIX_RUNNER_CLOCK_H
#define IOMATRIX_RUNNER_CLOCK_H

#include <stdint.h>
#include <errno.h>
#include <time.h>

static inline uint64_t clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Sleeps until the monotonic clock reads t (ns). */
static inline void clock_sleep_until(uint64_t t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / 1000000000ULL),
			       .tv_nsec = (long)(t % 1000000000ULL) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

#endif
