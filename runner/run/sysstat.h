/* SPDX-License-Identifier: GPL-2.0 */
/*
 * System counters around a cell's workload: /proc/vmstat, /proc/diskstats
 * of the cell's devices (its disks and its md array) and the CPU times of
 * /proc/stat, read right before the workload starts and right after it
 * ends; the record carries the differences.
 *
 *   struct sysstat *a = ..., *b = ...;      // large: keep them off the stack
 *   sysstat_read(a, devs, ndevs);           // before
 *   ... the workload ...
 *   sysstat_read(b, devs, ndevs);           // after
 *   sysstat_write_delta(j, a, b);           // "vmstat_delta", "diskstats_delta", "cpu"
 *
 * The parsers take text so the tests can feed them.
 */
#ifndef IOMATRIX_RUNNER_RUN_SYSSTAT_H
#define IOMATRIX_RUNNER_RUN_SYSSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/json_out.h"

#define VMSTAT_MAX	 512
#define SYSSTAT_DEVS_MAX 66 /* the cell's disks and its array */
#define DISKSTAT_FIELDS	 17 /* after major, minor and name (kernel 5.5+) */
#define CPUSTAT_FIELDS	 8  /* user nice system idle iowait irq softirq steal */

struct vmstat_snap {
	size_t n;
	char name[VMSTAT_MAX][48];
	uint64_t value[VMSTAT_MAX];
};

struct diskstat_snap {
	size_t n;
	char name[SYSSTAT_DEVS_MAX][32];
	bool found[SYSSTAT_DEVS_MAX];
	int nfields[SYSSTAT_DEVS_MAX]; /* older kernels give 11 or 15 */
	uint64_t f[SYSSTAT_DEVS_MAX][DISKSTAT_FIELDS];
};

struct cpustat_snap {
	bool found;
	uint64_t f[CPUSTAT_FIELDS];
};

struct sysstat {
	struct vmstat_snap vm;
	struct diskstat_snap disk;
	struct cpustat_snap cpu;
};

int vmstat_parse(const char *text, struct vmstat_snap *out);
/* Fills out for the devices named (their order kept); a device not in the text is not found. */
void diskstats_parse(const char *text, const char *const *devs, size_t ndevs,
		     struct diskstat_snap *out);
int cpustat_parse(const char *text, struct cpustat_snap *out);

/* Reads all three from /proc for the devices named ("vda", "md0"). */
void sysstat_read(struct sysstat *s, const char *const *devs, size_t ndevs);

/*
 * Writes the record's members: "vmstat_delta" (every counter that changed,
 * by its name: one that is absent did not change), "diskstats_delta" (per
 * device, every field's difference; in_flight is the value at the end),
 * "cpu" (percent of all CPU time in user, nice, system, idle, iowait, irq,
 * softirq, steal, and the seconds measured). A member that could not be
 * read is null.
 */
void sysstat_write_delta(struct jw *j, const struct sysstat *a, const struct sysstat *b);

#endif
