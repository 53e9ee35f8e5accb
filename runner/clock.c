// SPDX-License-Identifier: GPL-2.0
/* Calibrating the time stamp counter; see clock.h. */
#include "runner/clock.h"

#include <cpuid.h>

struct clock_state clock_state;

/* Whether this CPU's TSC is invariant (constant rate, runs in every state). */
static int clock_tsc_reliable(void)
{
	unsigned a = 0, b = 0, c = 0, d = 0;

	/* CPUID 0x80000007 EDX bit 8: invariant TSC. */
	if ((unsigned)__get_cpuid_max(0x80000000, NULL) < 0x80000007u ||
	    !__get_cpuid(0x80000007, &a, &b, &c, &d))
		return 0;
	return (d >> 8) & 1;
}

int clock_init(int want_tsc)
{
	uint64_t t0, t1, c0, c1;

	clock_state.use_tsc = 0;
	if (!want_tsc || !clock_tsc_reliable())
		return 0;
	/* 10 ms against CLOCK_MONOTONIC: the rate to a few parts per million. */
	t0 = clock_mono_ns();
	c0 = __rdtsc();
	do
		t1 = clock_mono_ns();
	while (t1 - t0 < 10000000ULL);
	c1 = __rdtsc();
	if (c1 <= c0)
		return 0;
	clock_state.mult = (uint64_t)((((unsigned __int128)(t1 - t0)) << 32) / (c1 - c0));
	clock_state.tsc0 = c1;
	clock_state.ns0 = t1;
	clock_state.use_tsc = 1;
	return 1;
}
