/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The channels iomatrix.results= names, opened: the console, ttys of their
 * own (raw, 115200), /dev/kmsg, and at most one results log on a disk or
 * partition. A record goes to the results log first, durably, then to the
 * serial channels (results_out.h keeps that order). A channel that cannot
 * be opened or fails later is a console line, never the end of the run;
 * when no channel at all is left, records go to the console.
 *
 * disk:SPEC is found from sysfs and the disks' own GPTs (gpt.h): there is
 * no udev in the image. A name or serial=x names a disk or partition
 * directly; PARTLABEL=x and PARTUUID=x are looked up in the GPT of every
 * disk found, and must match exactly one partition the kernel made.
 */
#ifndef IOMATRIX_RUNNER_RESULTS_RESULTS_CHANNELS_H
#define IOMATRIX_RUNNER_RESULTS_RESULTS_CHANNELS_H

#include <stdbool.h>
#include <stddef.h>

#include "runner/cmdline.h"
#include "runner/setup/disks.h"
#include "records/results_log.h"
#include "runner/results/results_spec.h"

#define RESULTS_ERR_LEN 512
#define RESULTS_GIVE_UP 3 /* consecutive failures after which a serial channel is dropped */

/* Where disk:SPEC is. */
struct results_device {
	char path[104]; /* /dev/vdd1 */
	char disk[32];	/* the whole disk: vdd (never offered to cells) */
	char part[32];	/* the partition's kernel name, "" for a whole disk */
};

struct results_serial {
	const struct results_channel_spec *spec;
	int fd;
	int kmsg_level; /* -1: a tty or the console */
	int failures;	/* consecutive */
	bool dropped;
};

struct results_channels {
	struct results_spec spec;
	struct results_serial serial[RESULTS_CHANNELS_MAX];
	size_t nserial;
	struct results_log log;
	bool have_log;
};

/*
 * Finds the device of a disk channel. found: the disks (disks_scan);
 * sysfs_root ("/sys") for partitions; dev_root ("/dev") for the nodes.
 * Returns 0, or -1 with why in err (no such device, several, no GPT).
 */
int results_find_device(const struct results_channel_spec *ch, const struct disk_list *found,
			const char *sysfs_root, const char *dev_root, struct results_device *out,
			char *err, size_t errlen);

/* Opens the console, tty and kmsg channels of c->spec (parsed by the caller); says what failed. */
void results_open_serial(struct results_channels *c);

/* How the results log was opened. */
enum results_log_state {
	RESULTS_LOG_OPENED,	 /* it held a results log */
	RESULTS_LOG_INITIALISED, /* made one now (iomatrix.results_init) */
};

/*
 * Opens the results log on path, scanning it (fn sees every record), or
 * initialises one there for run_id when it holds none and init allows:
 * RESULTS_INIT_YES on a device without any signature, RESULTS_INIT_FORCE
 * over one too. Returns the state, or -1 with why in err (no log and init
 * not given, a signature rlog_init refuses, an unreadable device).
 */
int results_open_log(struct results_log *log, const char *path, int init, const char *run_id,
		     rlog_visit_fn fn, void *ctx, char *err, size_t errlen);

/*
 * Writes one record to every channel (the log first). A failing channel
 * is a console line; a serial channel failing RESULTS_GIVE_UP times in a
 * row is dropped. Returns 0 when every channel took it.
 */
int results_write(struct results_channels *c, const struct rlog_entry *e);

/* "disk:serial=x (/dev/vdd), serial:ttyS1, console" for the console. */
void results_describe(const struct results_channels *c, char *buf, size_t len);

void results_close(struct results_channels *c);

#endif
