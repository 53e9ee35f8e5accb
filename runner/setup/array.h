/* SPDX-License-Identifier: GPL-2.0 */
/*
 * md arrays for a cell, with mdadm and without prompts: --run (never ask),
 * metadata 1.2, the cell's chunk, raid10 near=2, and --assume-clean for
 * the levels with redundancy unless the cell waits for the resync. mdadm
 * keeps its map in /run/mdadm (PID 1 makes it; there is no udev).
 *
 *   struct array a;
 *   if (array_create(&a, cell, members, n, "md0", limit, &e)) ...   // registered
 *   if (a.resync_s >= 0) ... the time the resync took
 *   ... mkfs /dev/md0 ...
 *   array_stop(&a, 60.0, &e);                                      // unregistered
 */
#ifndef IOMATRIX_RUNNER_SETUP_ARRAY_H
#define IOMATRIX_RUNNER_SETUP_ARRAY_H

#include <stdbool.h>

#include "matrix/matrix.h"
#include "runner/setup/step.h"

#define ARRAY_MDSTAT_MAX 2048

struct array {
	char name[16]; /* "md0" */
	char dev[32];  /* "/dev/md0" */
	bool created;
	char create_cmd[STEP_COMMAND_MAX];
	double resync_s;	       /* -1: no resync waited for */
	char mdstat[ARRAY_MDSTAT_MAX]; /* /proc/mdstat once built (and resynced) */
};

/*
 * The mdadm --create command for a cell over the member devices
 * (/dev/vda ...), NULL-terminated in argv (at most 16 + n entries) with
 * its strings in buf.
 */
int array_create_argv(const struct cell *c, const char *const *members, int n, const char *dev,
		      const char **argv, int max, char *buf, size_t buflen);

/*
 * Creates the array (registered with md_registry), waits for its resync
 * when the cell says so (within timeout seconds in all) and reads
 * /proc/mdstat. Returns 0, or -1 with e.
 */
int array_create(struct array *a, const struct cell *c, const char *const *members, int n,
		 const char *name, double timeout, struct step_error *e);

/* mdadm --stop; unregisters it. Returns 0, or -1 with e. */
int array_stop(struct array *a, double timeout, struct step_error *e);

#endif
