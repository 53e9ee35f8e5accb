/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading a result set (docs/records.md) into memory for comparison and
 * reports: the manifest, every record, and the records grouped into cells by
 * cell.key. Read-only: writing result sets belongs to the extract side.
 *
 * A record that cannot be read does not stop the load: it becomes one
 * warning naming the file and the cause, and its cell simply has fewer
 * repeats. Only a directory that is not a result set at all is an error.
 */
#ifndef IOMATRIX_RECORDS_RS_LOAD_H
#define IOMATRIX_RECORDS_RS_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#define RS_RECORD_VERSION 1
#define RS_SET_VERSION 1

enum rs_status {
	RS_OK,
	RS_FAILED,
	RS_TIMEOUT,
	RS_SKIPPED,
	RS_CRASHED,
	RS_STATUS_COUNT,
};

const char *rs_status_name(enum rs_status s);

struct rs_dim {
	char *name;
	char *value;
};

struct rs_record {
	long seq;
	int repeat;
	int cell_index;
	int cell_count;
	int run;		  /* which run (boot) of its side: 0 unless sides were merged */
	enum rs_status status;
	const char *error;	  /* NULL for ok records; points into root */
	const char *key;	  /* cell.key; points into root */
	const char *kind;	  /* workload.kind ("fio", "dd") or NULL */
	json_object *root;	  /* the parsed record, owned */
};

struct rs_cell {
	char *key;
	int index;		  /* cell.index: the matrix order */
	size_t ndims;
	struct rs_dim *dims;	  /* in key order */
	size_t nrecs;
	struct rs_record **recs;  /* sorted by repeat; point into the set */
};

struct rs_manifest_counts {
	long ok, failed, timeout, skipped, crashed, missing;
};

struct result_set {
	char *path;
	char *label;		  /* what reports call it: kernel release, else dir name */
	char *run_id;
	char *matrix;
	char *kernel_release;
	char *kernel_version;
	char *created;
	int cell_count;		  /* cell.count of the records: the matrix size; -1 unknown */
	struct rs_manifest_counts counts;
	size_t ndamaged;
	long *damaged;
	size_t nrecs;
	struct rs_record *recs;	  /* owned unless this set is a view */
	bool owns_recs;
	size_t ncells;
	struct rs_cell *cells;	  /* sorted by index, then key */
	size_t nwarnings;
	char **warnings;	  /* "records/000005.json: not JSON (...)" */
	/*
	 * The runs (boots) behind this set: 1 for a set loaded from a
	 * directory; a side of several runs (rs_side.h) holds them in runs[],
	 * and its cells hold every run's records.
	 */
	size_t nruns;
	struct result_set *runs;  /* NULL for a single run */
	bool owns_runs;
	const struct result_set *view_of; /* the set an rs_view_by_dim() view splits */
};

/* Loads the result set in dir. 0, or -1 with err naming the place and the cause. */
int rs_load(const char *dir, struct result_set *rs, char *err, size_t errlen);
void rs_free(struct result_set *rs);

/*
 * Parses one record's text. Takes ownership of nothing; on success rec->root
 * must be released with json_object_put. Outside input: fuzzed.
 */
int rs_parse_record(const char *text, size_t len, struct rs_record *rec, char *err,
		    size_t errlen);

/*
 * Parses manifest.json's text into rs's manifest fields (run id, matrix,
 * kernel, counts, damaged). rs must start zeroed; rs_free releases what was
 * set. Outside input: fuzzed.
 */
int rs_parse_manifest(const char *text, size_t len, struct result_set *rs, char *err,
		      size_t errlen);

/* Splits a key "a=1 b=2" into dims. 0, or -1 when a part is not name=value. */
int rs_parse_key(const char *key, struct rs_dim **dims, size_t *ndims);
void rs_free_dims(struct rs_dim *dims, size_t ndims);

const struct rs_cell *rs_find_cell(const struct result_set *rs, const char *key);
/* The cell with key in rs, made (with index) when there is none; NULL when out of memory. */
struct rs_cell *rs_cell_for(struct result_set *rs, const char *key, int index);
int rs_cell_add(struct rs_cell *c, struct rs_record *r);
/* Puts rs's cells in matrix order: by cell.index, then key. */
void rs_sort_cells(struct result_set *rs);
/* Adds a warning line to rs (printf-style); dropped when out of memory. */
void rs_warn(struct result_set *rs, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The value of dimension name in the cell, or NULL. */
const char *rs_cell_dim(const struct rs_cell *c, const char *name);

/*
 * A view of src holding only the cells whose dimension dim has value; the
 * dimension is dropped from their keys, so the views for two values of one
 * dimension compare cell by cell (seed 004: one option against another in
 * one run). The view borrows src's records; src must outlive it.
 */
int rs_view_by_dim(const struct result_set *src, const char *dim, const char *value,
		   struct result_set *view, char *err, size_t errlen);

#endif
