/* SPDX-License-Identifier: GPL-2.0 */
#ifndef IOMATRIX_BENCH_IDLE_POLL_H
#define IOMATRIX_BENCH_IDLE_POLL_H

#include <stddef.h>

/*
 * Asks the kernel for a CPU wakeup latency of 0 us (PM QoS, the file
 * /dev/cpu_dma_latency), as cyclictest and tuned's latency-performance
 * profile do: idle CPUs then poll instead of entering a C-state or, in a
 * VM, halting into the hypervisor. The request lasts while the returned
 * descriptor is open (close-on-exec, so the benchmarked programs neither
 * hold nor drop it). Returns -1 with the reason in why when not allowed.
 */
int idle_poll_hold(char *why, size_t whylen);

#endif
