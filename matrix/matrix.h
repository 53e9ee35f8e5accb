/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Matrix files: load, validate, expand into cells. One expansion, two users:
 * `iomatrix plan` on the host and the runner as PID 1 link this same code, so
 * a cell's index and key mean the same thing on both sides.
 *
 * The format is documented in matrix/README.md. In short: fio's INI dialect
 * (lib/ini.h) with sections [matrix], [dimensions], [defaults], [rules],
 * [workload.NAME] and [DIM.VALUE]; the dimensions expand as an ordered
 * cartesian product (the first dimension varies slowest), [rules] excludes
 * combinations, and what a machine cannot run is kept as a skipped cell with
 * its reason.
 *
 * Typical use (the runner; iomatrix.matrix=quick, iomatrix.cells=SPEC):
 *
 *	struct matrix_load_opts o = { .jobs_dir = "/etc/iomatrix/jobs" };
 *	char path[256], err[MATRIX_ERR_LEN];
 *	matrix_path_for_name("/etc/iomatrix/matrix", "quick", path, sizeof(path), err,
 *			     sizeof(err));				// bad name: err
 *	struct matrix *m = matrix_load(path, &o, err, sizeof(err));
 *	struct cell_select *sel = cell_select_parse(SPEC, m, true, err, sizeof(err));
 *	struct machine mc = { .ndisks = 4, .disk_bytes = {...}, .mem_bytes = ... };
 *	struct cell_list cl;
 *	matrix_expand(m, &mc, 0, &cl, err, sizeof(err));	// 0: the matrix's scale
 *	// Repeats are the outer loop (matrix/run_order.h): every cell once,
 *	// then every cell again, so a cell's repeats spread over the run.
 *	for (int r = 0; r < run_order_stride(&cl); r++)
 *		for (int i = 0; i < cl.count; i++) {
 *			struct cell *c = &cl.cells[i];
 *			if (!cell_select_match(sel, c) || r >= c->repeats)
 *				continue;
 *			if (c->skip)	// record status "skipped", error = c->skip
 *				continue;
 *			// mdadm --level=array_info(c->array)->name over the first
 *			// c->disks disks, --chunk=c->chunk_bytes/1024, --assume-clean
 *			// unless c->resync; mkfs fs_info(c->fs)->name with
 *			// c->mkfs_options; mount -o c->mount_options; readahead,
 *			// scheduler; then, within c->time_limit_s for the repeat:
 *			cell_workload_argv(c, dirs, c->filesystems, &argv, err, sizeof(err));
 *		}
 *	cell_list_free(&cl);
 *	cell_select_free(sel);
 *	matrix_free(m);
 *
 * Every error is one line naming the file, the line and the key or value.
 */
#ifndef IOMATRIX_MATRIX_MATRIX_H
#define IOMATRIX_MATRIX_MATRIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MATRIX_MAX_DIMS	  16
#define MATRIX_MAX_VALUES 256	 /* per dimension */
#define MATRIX_MAX_CELLS  100000 /* before [rules]: a guard against typos */
#define MATRIX_MAX_DISKS  64
#define MATRIX_ERR_LEN	  512

enum fs_type { FS_EXT2, FS_EXT3, FS_EXT4, FS_BTRFS, FS_XFS, FS_TYPE_COUNT };

enum array_level {
	ARRAY_JBOD, /* no md: one filesystem on each disk */
	ARRAY_LINEAR,
	ARRAY_RAID0,
	ARRAY_RAID1,
	ARRAY_RAID10,
	ARRAY_RAID5,
	ARRAY_RAID6,
	ARRAY_LEVEL_COUNT
};

enum resync_policy {
	RESYNC_ASSUME_CLEAN, /* mdadm --assume-clean: no initial resync */
	RESYNC_WAIT,	     /* create normally, mdadm --wait before mkfs */
};

enum workload_kind { WORKLOAD_FIO, WORKLOAD_DD };

struct fs_info {
	const char *name;	   /* "ext4": also the mount type and mke2fs -t */
	const char *mkfs_defaults; /* always given first, before the cell's own */
	uint64_t min_bytes;	   /* smallest device its mkfs accepts */
	double usable_fraction;	   /* df's "available" over the device size */
};

struct array_info {
	const char *name; /* "raid5": also mdadm's --level; "jbod": no md */
	int min_disks;
	bool has_chunk; /* --chunk applies */
};

const struct fs_info *fs_info(enum fs_type fs);
const struct array_info *array_info(enum array_level level);

/* The machine the cells are for. The runner fills it from what it found. */
struct machine {
	int ndisks;			       /* disks the matrix may use */
	uint64_t disk_bytes[MATRIX_MAX_DISKS]; /* in the order cells use them */
	uint64_t mem_bytes;		       /* MemTotal */
};

/* One dimension value of a cell, copied: the cell does not need the matrix. */
struct cell_dim {
	char *name;
	char *value;
};

struct cell_workload {
	enum workload_kind kind;
	char *name; /* the [workload.NAME] it came from */

	/* kind fio: argv-ready pieces, scaled (see cell_workload_argv) */
	char *job_file; /* a job file used verbatim (resolved path), or NULL */
	char **options; /* inline fio options "key=value" or "key", in order */
	int noptions;
	char **set; /* "key=value" applied to every job after parsing, in order */
	int nset;

	/* kind dd */
	int writers;	  /* in total, spread over the cell's filesystems */
	uint64_t bs;	  /* bytes per write */
	uint64_t size;	  /* bytes per writer; 0 when runtime-bound */
	double runtime_s; /* 0 when size-bound */

	/* what the rules and the estimate know about it (both kinds) */
	uint64_t bytes_per_fs; /* most data one filesystem must hold; 0 unknown */
	uint64_t buffer_bytes; /* IO buffers: jobs x iodepth x bs, or writers x bs */
	char *summary;	       /* one line for people: "dd 10 writers bs=1m size=16m" */
};

struct cell {
	int index; /* 1-based position in the expansion; skipped cells count */
	char *key; /* "dim=value dim=value ..." in matrix order */
	int ndims;
	struct cell_dim dims[MATRIX_MAX_DIMS];
	int value_index[MATRIX_MAX_DIMS]; /* position of each value in its dimension */

	enum fs_type fs;
	char *mkfs_options;  /* fs defaults, then the matrix's: blank-separated words */
	char *mount_options; /* for mount -o; "" for none */
	enum array_level array;
	int disks;	      /* disks the cell uses: the first `disks` of the machine */
	int filesystems;      /* disks for jbod, else 1 */
	uint64_t chunk_bytes; /* md --chunk; 0 where the level has none */
	enum resync_policy resync;
	int readahead_sectors; /* BLKRASET on the device under each fs; -1: leave */
	char *scheduler;       /* written to each disk's queue/scheduler; NULL: leave */
	uint64_t fs_bytes;     /* size of the device under each fs (estimate) */

	struct cell_workload workload;
	int repeats;
	double time_limit_s; /* per repeat: setup + workload + teardown */
	double estimate_s;   /* per repeat, from matrix_estimate.h's model */
	char *skip;	     /* NULL, or why this machine cannot run it */
};

struct cell_list {
	int count;
	struct cell *cells; /* in expansion order; cells[i].index == i + 1 */
	int runnable;	    /* cells without skip */
	double scale;	    /* the scale applied */
};

struct matrix;

struct matrix_load_opts {
	/*
	 * Where `job = NAME` files are found. NULL: ../jobs and then
	 * ../configs/jobs next to the matrix file's directory, which finds
	 * /etc/iomatrix/jobs in the image and configs/jobs in the source tree.
	 */
	const char *jobs_dir;
};

/* NULL with one line in err on any error. */
struct matrix *matrix_load(const char *path, const struct matrix_load_opts *opts, char *err,
			   size_t errlen);
/* The same from a buffer; name stands for the file in messages. */
struct matrix *matrix_load_buffer(const char *name, const char *text, size_t len,
				  const struct matrix_load_opts *opts, char *err, size_t errlen);
void matrix_free(struct matrix *m);

const char *matrix_name(const struct matrix *m);
const char *matrix_description(const struct matrix *m);
double matrix_default_scale(const struct matrix *m);
/* Cells after [rules], before any machine: the index space of cells=. */
int matrix_cell_count(const struct matrix *m);
int matrix_dim_count(const struct matrix *m);
const char *matrix_dim_name(const struct matrix *m, int dim);
int matrix_dim_value_count(const struct matrix *m, int dim);
const char *matrix_dim_value(const struct matrix *m, int dim, int value);
/* -1 when there is no such dimension or value. */
int matrix_dim_find(const struct matrix *m, const char *name);
int matrix_value_find(const struct matrix *m, int dim, const char *value);

/*
 * Expands for a machine at a scale (<= 0: the matrix's own). Fills out and
 * returns 0, or -1 with err. Cells the machine cannot run are kept, with
 * skip set. out must be freed with cell_list_free.
 */
int matrix_expand(const struct matrix *m, const struct machine *mc, double scale,
		  struct cell_list *out, char *err, size_t errlen);
void cell_list_free(struct cell_list *cl);

/*
 * The workload's command line for iomatrix-runner, without argv[0] and
 * without output options: a fio cell gives "[JOBFILE | --name=NAME --k=v..]
 * [--set k=v]... --set directory=D1:D2", a dd cell gives "dd --writers N
 * --bs B (--size S | --runtime T) --directory D1:D2". dirs are the mount
 * points, one per filesystem. Returns argc and a NULL-terminated *argv to
 * free with cell_argv_free, or -1 with err.
 */
int cell_workload_argv(const struct cell *c, const char *const *dirs, int ndirs, char ***argv,
		       char *err, size_t errlen);
void cell_argv_free(char **argv);

/* The duration model's description, several lines, and its boot constant. */
const char *matrix_estimate_model(void);
double matrix_boot_estimate_s(void);

/*
 * The file for a matrix name in a directory: DIR/NAME.matrix. -1 with err
 * when the name is not a plain name ([A-Za-z0-9._-], no leading dot) or the
 * file does not exist: the message lists the names that do.
 */
int matrix_path_for_name(const char *dir, const char *name, char *path, size_t pathlen, char *err,
			 size_t errlen);

#endif
