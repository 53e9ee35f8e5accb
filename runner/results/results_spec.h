/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iomatrix.results=: where records go, a comma-separated list of channels.
 *
 *   console             the console (/dev/console, PID 1's stdout); the default
 *   serial:TTY          a tty of its own: ttyS1, /dev/ttyUSB0, hvc1 (set raw, 115200)
 *   kmsg[:LEVEL]        through /dev/kmsg at syslog level LEVEL (0-7, default 5)
 *   disk:SPEC           a results log on a disk or partition (at most one):
 *                         PARTLABEL=x   the GPT partition named x
 *                         PARTUUID=x    the GPT partition with that unique GUID
 *                         serial=x      the whole disk with that serial number
 *                         NAME          a kernel name: vdd, vdd1, /dev/nvme0n1p2
 *
 * e.g. iomatrix.results=disk:serial=iomatrix-results,serial:ttyS1. Each
 * channel at most once. This file only parses; results_channels.h opens.
 */
#ifndef IOMATRIX_RUNNER_RESULTS_RESULTS_SPEC_H
#define IOMATRIX_RUNNER_RESULTS_RESULTS_SPEC_H

#include <stddef.h>

#define RESULTS_CHANNELS_MAX   8
#define RESULTS_KMSG_LEVEL     5 /* notice: on the console unless quiet or loglevel<=5 */
#define RESULTS_SPEC_VALUE_MAX 96
#define RESULTS_SPEC_ERR_LEN   256

enum results_kind { RESULTS_CONSOLE, RESULTS_SERIAL, RESULTS_KMSG, RESULTS_DISK };

/* How disk:SPEC names its device. */
enum results_disk_by {
	RESULTS_BY_NAME,
	RESULTS_BY_SERIAL,
	RESULTS_BY_PARTLABEL,
	RESULTS_BY_PARTUUID
};

struct results_channel_spec {
	enum results_kind kind;
	enum results_disk_by by;	    /* RESULTS_DISK */
	char value[RESULTS_SPEC_VALUE_MAX]; /* serial: /dev/TTY; disk: name, serial, label, uuid */
	int kmsg_level;			    /* RESULTS_KMSG */
	char word[256];			    /* as written, for messages */
};

struct results_spec {
	struct results_channel_spec ch[RESULTS_CHANNELS_MAX];
	size_t count;
	int disk; /* index of the disk channel, -1 when none */
};

/* Parses the list. Returns 0, or -1 with one line in err naming the word and the rule. */
int results_spec_parse(const char *text, struct results_spec *out, char *err, size_t errlen);

/* "PARTLABEL", "PARTUUID", "serial", "name": for messages. */
const char *results_by_name(enum results_disk_by by);

#endif
