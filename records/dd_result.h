/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The result of the dd-style workload (N writers, each writing its own
 * file sequentially, then one sync), as plain data: the runner fills it,
 * the host can load a record's "workload.dd" back into it, and both print
 * it with dd_report_json / dd_report_normal. The JSON is docs/records.md's.
 */
#ifndef IOMATRIX_RECORDS_DD_RESULT_H
#define IOMATRIX_RECORDS_DD_RESULT_H

#include <stdint.h>
#include <stdio.h>

struct dd_writer_result {
	char *file;
	uint64_t io_bytes;
	uint64_t elapsed_ns; /* its first write to its last write's return */
	uint64_t bw_bytes;
	int error;	     /* errno, 0 when fine */
};

struct dd_result {
	uint32_t writers;
	uint64_t bs;
	uint64_t size_per_writer; /* 0 when runtime-bound */
	uint64_t runtime_ms;	  /* 0 when size-bound */
	uint64_t io_bytes;
	uint64_t elapsed_ns; /* first write to the end of the final sync */
	uint64_t write_ns;   /* first write to the last writer's last write */
	uint64_t sync_ns;    /* the final sync */
	uint64_t bw_bytes;   /* io_bytes over elapsed_ns */
	uint64_t bw;	     /* KiB/s, as fio's bw */
	uint32_t filesystems_synced;
	char *directories; /* as given: DIR[:DIR...] */
	char *error;	   /* one line, or NULL */
	struct dd_writer_result *per_writer;
};

int dd_report_json(FILE *f, const struct dd_result *r);
int dd_report_normal(FILE *f, const struct dd_result *r);
/* "normal" or "json" to path (whole or not at all) or stdout. */
int dd_report_write(const char *path, const struct dd_result *r, int json, char *err,
		    size_t errlen);
void dd_result_free(struct dd_result *r);

#endif
