/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a run's records go: a results log, a serial channel (a tty, or
 * /dev/kmsg), or both. The rule that makes the channels agree: the results
 * log first (durable when the call returns), then the lines, so a record
 * that reached the console is always on the disk too. results_out_record
 * keeps it for one log and one serial channel; the runner's results_write
 * (runner/results/results_channels.h), for one log and several serial channels
 * that may each be given up, keeps it too and writes lines with
 * results_out_lines.
 */
#ifndef IOMATRIX_RECORDS_RESULTS_OUT_H
#define IOMATRIX_RECORDS_RESULTS_OUT_H

#include <stddef.h>

#include "records/results_log.h"

struct results_out {
	struct results_log *log; /* NULL: no results log */
	int serial_fd;		 /* -1: no serial channel */
	int kmsg_level;		 /* -1: serial_fd is a tty or file; 0-7: it is /dev/kmsg */
	int copies;		 /* times each record is written as lines (0 counts as 1) */
};

/* One record as framed lines on fd (kmsg_level as in struct results_out): 0 or -errno. */
int results_out_lines(int fd, int kmsg_level, const struct rlog_entry *e);

/*
 * Writes one record to every channel. A failing channel does not stop the
 * other. Returns 0 when every channel took it, -1 otherwise (err says
 * which and why).
 */
int results_out_record(const struct results_out *o, const struct rlog_entry *e, char *err,
		       size_t errlen);

#endif
