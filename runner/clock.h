/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine's clock, in ns on the CLOCK_MONOTONIC scale. Like fio (its
 * clocksource=cpu, the default where the TSC is reliable) it reads the
 * CPU's time stamp counter when the CPU says the counter is invariant:
 * ~17 ns here against ~37 ns for the vDSO clock_gettime, twice per IO.
 * clock_init calibrates the counter against CLOCK_MONOTONIC once.
 */
#ifndef IOMATRIX_RUNNER_CLOCK_H
#define IOMATRIX_RUNNER_CLOCK_H

#include <errno.h>
#include <stdint.h>
#include <time.h>
#include <x86intrin.h>

struct clock_state {
	int use_tsc;
	uint64_t tsc0, ns0;
	uint64_t mult; /* ns per tick, << 32 */
};

extern struct clock_state clock_state;

static inline uint64_t clock_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static inline uint64_t clock_ns(void)
{
	if (__builtin_expect(clock_state.use_tsc, 1)) {
		uint64_t d = __rdtsc() - clock_state.tsc0;

		return clock_state.ns0 + (uint64_t)(((unsigned __int128)d * clock_state.mult) >> 32);
	}
	return clock_mono_ns();
}

/*
 * want_tsc: use the TSC if the CPU reports it invariant (else clock_gettime).
 * Returns whether the TSC is used.
 */
int clock_init(int want_tsc);

/* Sleeps until clock_ns() reads t. */
static inline void clock_sleep_until(uint64_t t)
{
	uint64_t now = clock_ns();
	struct timespec ts;

	if (t <= now)
		return;
	t = clock_mono_ns() + (t - now); /* the two scales agree to within the calibration */
	ts.tv_sec = (time_t)(t / 1000000000ULL);
	ts.tv_nsec = (long)(t % 1000000000ULL);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

#endif
