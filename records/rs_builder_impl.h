/* SPDX-License-Identifier: GPL-2.0 */
/* The inside of a result set, shared by result_set.c and result_set_write.c only. */
#ifndef IOMATRIX_RECORDS_RS_BUILDER_IMPL_H
#define IOMATRIX_RECORDS_RS_BUILDER_IMPL_H

#include <json-c/json.h>

#include "records/rs_builder.h"

struct rs_source {
	char *path;
	enum rsb_source_kind kind;
	char *run_id; /* a results log's header run id, else NULL */
	uint64_t created_unix;
	uint32_t records, damaged;
};

/* One intact copy of a record, as one source had it. */
struct rs_copy {
	uint32_t seq;
	int src;
	uint8_t *data;
	size_t len;
	json_object *obj; /* parsed in rsb_build; NULL when not a valid record */
	char *invalid;	  /* why not, or NULL */
};

struct rs_damage {
	uint32_t seq;
	int src;
	char *why;
};

/* A kept record: the run's, one per seq. */
struct rs_record {
	uint32_t seq;
	const struct rs_copy *copy; /* the bytes written out */
	uint32_t cell_index, cell_count, repeat;
	enum record_status status;
	int64_t start_unix; /* times.start_unix, -1 when absent */
};

struct rs_seqs {
	uint32_t *v;
	size_t n, cap;
};

struct rs_run {
	const char *run_id; /* points into a record's JSON */
	uint32_t records;
};

struct rs_cell {
	uint32_t index, repeat;
};

struct rs_builder {
	struct rs_source *src;
	size_t nsrc;
	struct rs_copy *copies;
	size_t ncopies, copies_cap;
	struct rs_damage *damages;
	size_t ndamages, damages_cap;

	/* after rsb_build */
	char *run_id;
	const char *matrix;
	json_object *kernel;
	int64_t created_unix; /* -1 when unknown */
	struct rs_record *records;
	size_t nrecords;
	struct rs_seqs damaged;	 /* seen, not intact anywhere */
	struct rs_seqs lost;	 /* below the highest seq, no trace */
	struct rs_seqs invalid;	 /* intact bytes, not a valid record */
	struct rs_seqs disagree; /* sources hold different bytes */
	struct rs_run *runs;	 /* every run with a valid record, the kept one too */
	size_t nruns;
	uint32_t cell_count, repeats;
	struct rs_cell *missing;
	size_t nmissing, missing_cap;
	uint32_t counts[RECORD_NSTATUS];
	bool cell_count_varies;
};

#endif
