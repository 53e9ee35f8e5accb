/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the matrix_*.c files share and nobody else needs: the parsed matrix,
 * bundles of cell settings, workload definitions and the facts read from fio
 * job files.
 */
#ifndef IOMATRIX_MATRIX_MATRIX_INTERNAL_H
#define IOMATRIX_MATRIX_MATRIX_INTERNAL_H

#include <stdarg.h>

#include "matrix/cell_select.h"
#include "matrix/matrix.h"

/* Where a thing was written, for messages. file points into matrix.files. */
struct where {
	const char *file;
	int line;
};

struct kv {
	char *key;
	char *value; /* NULL for a bare flag */
	struct where at;
};

struct kv_list {
	struct kv *items;
	int count;
};

/* One bit per cell setting: which ones a bundle sets. */
enum setting_id {
	SET_FS,
	SET_MKFS_OPTIONS,
	SET_MOUNT_OPTIONS,
	SET_ARRAY,
	SET_DISKS,
	SET_CHUNK,
	SET_RESYNC,
	SET_READAHEAD,
	SET_SCHEDULER,
	SET_WORKLOAD,
	SET_SET,
	SET_REPEATS,
	SET_TIME_LIMIT,
	SETTING_COUNT
};

/* A bundle of cell settings: [defaults], a [DIM.VALUE] section, a value. */
struct settings {
	unsigned has; /* 1u << enum setting_id */
	enum fs_type fs;
	char *mkfs_options;  /* NULL: the fs defaults only */
	char *mount_options; /* NULL: none */
	enum array_level array;
	int disks; /* 0: every disk the machine has */
	uint64_t chunk;
	enum resync_policy resync;
	int readahead;	 /* -1: leave the kernel's */
	char *scheduler; /* NULL: leave the kernel's */
	char *workload;
	struct kv_list set; /* appended to, never replaced */
	int repeats;
	double time_limit; /* 0: auto */
	struct where at;
};

struct setting_desc {
	const char *key;
	enum setting_id id;
	const char *dimension; /* the built-in dimension whose values it takes, or NULL */
	int (*parse)(struct settings *s, const char *value, char *err, size_t errlen);
};

const struct setting_desc *setting_find(const char *key);
const struct setting_desc *setting_for_dimension(const char *dim);
bool setting_allowed_in_defaults(const struct setting_desc *d);
/* "fs mkfs_options ...", for messages. */
void setting_keys(char *buf, size_t len, bool in_defaults);
/* 0, or -1 with err (no location: the caller adds it). */
int setting_parse(struct settings *s, const struct setting_desc *d, const char *value,
		  struct where at, char *err, size_t errlen);
/* dst gets every setting src has; src's set list is appended. */
int settings_apply(struct settings *dst, const struct settings *src);
void settings_free(struct settings *s);

/* "k=v k=v" into a list (appending). */
int kv_parse_words(struct kv_list *l, const char *words, struct where at, char *err, size_t errlen);
int kv_append(struct kv_list *l, const char *key, const char *value, struct where at);
void kv_list_free(struct kv_list *l);
/* The last value set for key (aliases resolved by the caller), or NULL. */
const struct kv *kv_last(const struct kv_list *l, const char *key);

/* What iomatrix needs to know of one fio job, after [global] and overrides. */
struct fio_facts {
	char rw[16];	  /* "read", "randrw", ... */
	uint64_t bs;	  /* first block size given; 4096 by default */
	uint64_t size;	  /* 0: not given or relative (percent) */
	uint64_t io_size; /* 0: not given */
	double runtime;	  /* 0: none */
	bool time_based;
	int numjobs;
	int iodepth;
	int loops;
	int nrfiles;
	bool shared_file; /* filename= given: the jobs share one file */
	bool direct;
};

/* A fio job file's sections, read with lib/ini. */
struct jobfile {
	char *path;
	struct kv_list global;
	int njobs;
	char **job_names;
	struct kv_list *jobs;
};

int jobfile_read(struct jobfile *jf, const char *path, char *err, size_t errlen);
void jobfile_free(struct jobfile *jf);
/* Facts from option lists applied in order (later wins). */
void fio_facts_apply(struct fio_facts *f, const struct kv_list *l);
void fio_facts_init(struct fio_facts *f);
/* fio's canonical name for an option name ("loop" -> "loops"). */
const char *fio_canonical_key(const char *key);

struct workload_def {
	char *name;
	enum workload_kind kind;
	bool kind_known;
	struct where at;
	/* fio */
	char *job;	/* as written */
	char *job_path; /* resolved */
	struct jobfile jf;
	bool has_jf;
	struct kv_list options; /* inline fio= words */
	/* dd */
	int writers, writers_per_fs;
	uint64_t bs, size;
	double runtime;
	/* both */
	struct kv_list set;
};

struct dim_value {
	char *name;
	struct settings implied;  /* the value's own meaning (built-in or set DIM=VALUE) */
	struct settings *section; /* its [DIM.VALUE] section, or NULL */
};

struct dimension {
	char *name;
	const struct setting_desc *builtin; /* NULL: a workload option dimension */
	struct dim_value *values;
	int nvalues;
	struct where at;
};

struct value_section {
	char *dim, *value;
	struct settings s;
};

struct rule {
	char *text;
	struct cell_select *sel;
	struct where at;
};

struct matrix {
	char *name;
	char *description;
	double scale;
	int repeats;
	double time_limit; /* 0: auto */
	struct where scale_at;

	struct dimension dims[MATRIX_MAX_DIMS];
	int ndims;
	bool have_dimensions;
	struct settings defaults;
	struct value_section *sections;
	int nsections;
	struct workload_def *workloads;
	int nworkloads;
	struct rule *rules;
	int nrules;
	int cell_count;

	char *path; /* the top file */
	char *jobs_dir;
	char **files; /* every file name a where points at */
	int nfiles;
};

/* printf into err. Always returns -1. */
int mx_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Same, prefixed with "file:line: ". */
int mx_fail_at(char *err, size_t errlen, struct where at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Settings a combination of values resolves to, [defaults] first. */
int matrix_resolve(const struct matrix *m, const int *value_index, struct settings *out, char *err,
		   size_t errlen);
bool matrix_excluded(const struct matrix *m, const int *value_index);
/* Odometer over the dimensions, the last fastest; false after the last. */
bool matrix_next_combination(const struct matrix *m, int *value_index);
/* "dim=value dim=value" for a combination. */
void matrix_key(const struct matrix *m, const int *value_index, char *buf, size_t len);
const struct workload_def *matrix_workload(const struct matrix *m, const char *name);

struct workload_shape;
/*
 * Fills w for a cell whose settings and number of filesystems are known;
 * shape (may be NULL) gets what the estimate needs.
 */
int workload_resolve(const struct matrix *m, const struct settings *s, int filesystems,
		     double scale, struct cell_workload *w, struct workload_shape *shape, char *err,
		     size_t errlen);
void cell_workload_free(struct cell_workload *w);

/* Whether a word is a value a dimension may take: [A-Za-z0-9._+:@%-]+. */
bool matrix_word_ok(const char *s);

#endif
