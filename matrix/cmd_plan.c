// SPDX-License-Identifier: GPL-2.0
/*
 * iomatrix plan: what a matrix expands to on a given machine, which cells
 * that machine would skip and why, and how long the rest should take. It
 * links the runner's own expansion (matrix/matrix.c), so the indices and
 * keys it prints are the ones iomatrix.cells= and the records use.
 */
#include <float.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/cli.h"
#include "matrix/cell_select.h"
#include "matrix/commands.h"
#include "lib/dirs.h"
#include "lib/json_out.h"
#include "matrix/matrix.h"
#include "matrix/matrix_units.h"

#define DEFAULT_DISKS	   4
#define DEFAULT_DISK_BYTES MX_GIB
#define DEFAULT_MEM_BYTES  (2 * MX_GIB)

struct plan_opts {
	const char *matrix;
	int disks;
	uint64_t disk_bytes, mem_bytes;
	double scale;
	const char *cells;
	const char *jobs_dir;
	bool json;
};

#define DEFAULT_DISKS_S	   "4"	/* DEFAULT_DISKS, for --help */
#define MATRIX_MAX_DISKS_S "64" /* MATRIX_MAX_DISKS, for the message */
_Static_assert(DEFAULT_DISKS == 4 && MATRIX_MAX_DISKS == 64, "the _S spellings above");

#define OFF(f) offsetof(struct plan_opts, f)

/* .bad: the words plan has always used for a bad value (tests/host/plan.sh matches them). */
static const struct cli_opt plan_opts[] = {
	{ .name = "disks", .kind = CLI_INT, .offset = OFF(disks), .min = 0,
	  .max = MATRIX_MAX_DISKS, .arg = "N",
	  .help = "the machine's disks (default " DEFAULT_DISKS_S ")",
	  .bad = "0-" MATRIX_MAX_DISKS_S },
	{ .name = "disk-size", .kind = CLI_SIZE, .offset = OFF(disk_bytes), .arg = "SIZE",
	  .help = "each disk's size (default 1g)", .bad = "a size: 1g, 512m" },
	{ .name = "memory", .kind = CLI_SIZE, .offset = OFF(mem_bytes), .arg = "SIZE",
	  .help = "the machine's memory (default 2g)", .bad = "a size: 1g, 512m" },
	/* DBL_MIN: above 0 (strtod's ERANGE already refuses anything smaller) */
	{ .name = "scale", .kind = CLI_DOUBLE, .offset = OFF(scale), .min = DBL_MIN, .max = 1,
	  .arg = "X",
	  .help = "multiply sizes and runtimes by X, 0 < X <= 1 (default: the matrix's)",
	  .bad = "above 0, at most 1" },
	{ .name = "cells", .kind = CLI_STRING, .offset = OFF(cells), .arg = "SEL",
	  .help = "only these cells: 1-5,9 or fs=ext4,array=raid5 (as iomatrix.cells=)" },
	{ .name = "jobs-dir", .kind = CLI_STRING, .offset = OFF(jobs_dir), .arg = "D",
	  .help = "where job= files are (default: ../configs/jobs next to the matrix)" },
	{ .name = "json", .kind = CLI_FLAG, .offset = OFF(json), .help = "the same as JSON" },
};

static const struct cli_cmd plan_cmd = {
	.name = "plan",
	.synopsis = "MATRIX",
	.about = "Lists the cells MATRIX expands to on a machine with N disks of SIZE each\n"
		 "(default " DEFAULT_DISKS_S " x 1g) and the given memory (default 2g), the cells "
		 "that machine\nwould skip and why, and an estimated duration under QEMU TCG.\n\n"
		 "MATRIX is a file, or a name in the matrix/ directory of the tree this\n"
		 "program was built in, or of PREFIX/" DIRS_DATA " installed\n"
		 "($IOMATRIX_MATRIX_DIR overrides where names are found).",
	.opts = plan_opts,
	.nopts = sizeof(plan_opts) / sizeof(plan_opts[0]),
	.min_pos = 1,
	.max_pos = 1,
};

/* 0 to go on, 1 when --help was printed, 2 on a usage error (reported, one line). */
static int parse_args(int argc, char **argv, struct plan_opts *o)
{
	char *pos[1];
	size_t npos;
	int r;

	*o = (struct plan_opts){.disks = DEFAULT_DISKS,
				.disk_bytes = DEFAULT_DISK_BYTES,
				.mem_bytes = DEFAULT_MEM_BYTES};
	r = cli_parse(&plan_cmd, argc, argv, o, pos, &npos);
	if (r)
		return r < 0 ? 2 : 1;
	o->matrix = pos[0];
	return 0;
}

static bool is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* DATA/matrix (lib/dirs.h), unless $IOMATRIX_MATRIX_DIR names another. */
static int matrix_dir(char *dir, size_t len)
{
	const char *env = getenv("IOMATRIX_MATRIX_DIR");
	struct iomatrix_dirs d;
	char err[256];
	struct stat st;

	if (env && *env) {
		snprintf(dir, len, "%s", env);
		return 0;
	}
	if (iomatrix_dirs(&d, err, sizeof(err)) ||
	    (size_t)snprintf(dir, len, "%s/matrix", d.data) >= len)
		return -1;
	return !stat(dir, &st) && S_ISDIR(st.st_mode) ? 0 : -1;
}

static int find_matrix(const char *arg, char *path, size_t len)
{
	char dir[PATH_MAX], err[MATRIX_ERR_LEN];

	if (strchr(arg, '/') || is_file(arg)) {
		snprintf(path, len, "%s", arg);
		return 0;
	}
	if (matrix_dir(dir, sizeof(dir))) {
		fprintf(stderr,
			"iomatrix plan: no file %s, and no matrix directory to find it in "
			"(set IOMATRIX_MATRIX_DIR)\n",
			arg);
		return -1;
	}
	if (matrix_path_for_name(dir, arg, path, len, err, sizeof(err))) {
		fprintf(stderr, "iomatrix plan: %s\n", err);
		return -1;
	}
	return 0;
}

static const char *resync_name(enum resync_policy r)
{
	return r == RESYNC_WAIT ? "wait" : "assume-clean";
}

static void json_strings(struct jw *j, const char *key, char **v, int n)
{
	jw_arr_begin(j, key);
	for (int i = 0; i < n; i++)
		jw_str(j, NULL, v[i]);
	jw_arr_end(j);
}

static void json_cell(struct jw *j, const struct cell *c)
{
	const struct cell_workload *w = &c->workload;

	jw_obj_begin(j, NULL);
	jw_int(j, "index", c->index);
	jw_str(j, "key", c->key);
	jw_obj_begin(j, "dims");
	for (int d = 0; d < c->ndims; d++)
		jw_str(j, c->dims[d].name, c->dims[d].value);
	jw_obj_end(j);
	jw_str(j, "status", c->skip ? "skipped" : "run");
	jw_str(j, "skip", c->skip);
	jw_obj_begin(j, "fs");
	jw_str(j, "type", fs_info(c->fs)->name);
	jw_str(j, "mkfs_options", c->mkfs_options);
	jw_str(j, "mount_options", c->mount_options);
	jw_int(j, "count", c->filesystems);
	jw_uint(j, "device_bytes", c->fs_bytes);
	jw_obj_end(j);
	jw_obj_begin(j, "array");
	jw_str(j, "level", array_info(c->array)->name);
	jw_int(j, "disks", c->disks);
	jw_uint(j, "chunk_bytes", c->chunk_bytes);
	jw_str(j, "resync", resync_name(c->resync));
	jw_obj_end(j);
	jw_int(j, "readahead_sectors", c->readahead_sectors);
	jw_str(j, "scheduler", c->scheduler);
	jw_obj_begin(j, "workload");
	jw_str(j, "kind", w->kind == WORKLOAD_DD ? "dd" : "fio");
	jw_str(j, "name", w->name);
	jw_str(j, "summary", w->summary);
	if (w->kind == WORKLOAD_DD) {
		jw_int(j, "writers", w->writers);
		jw_uint(j, "bs", w->bs);
		jw_uint(j, "size", w->size);
		jw_double(j, "runtime_s", w->runtime_s);
	} else {
		jw_str(j, "job_file", w->job_file);
		json_strings(j, "options", w->options, w->noptions);
		json_strings(j, "set", w->set, w->nset);
	}
	jw_uint(j, "bytes_per_fs", w->bytes_per_fs);
	jw_uint(j, "buffer_bytes", w->buffer_bytes);
	jw_obj_end(j);
	jw_int(j, "repeats", c->repeats);
	jw_double(j, "time_limit_s", c->time_limit_s);
	if (c->skip || c->estimate_s < 0)
		jw_null(j, "estimate_s");
	else
		jw_double(j, "estimate_s", c->estimate_s);
	jw_obj_end(j);
}

struct totals {
	int selected, runs, unknown;
	double seconds;
};

static struct totals count(const struct cell_list *cl, const struct cell_select *sel)
{
	struct totals t = {0};

	for (int i = 0; i < cl->count; i++) {
		const struct cell *c = &cl->cells[i];

		if (!cell_select_match(sel, c))
			continue;
		t.selected++;
		if (c->skip)
			continue;
		t.runs += c->repeats;
		if (c->estimate_s < 0)
			t.unknown++;
		else
			t.seconds += c->estimate_s * c->repeats;
	}
	return t;
}

static void print_json(const struct matrix *m, const char *path, const struct plan_opts *o,
		       const struct cell_list *cl, const struct cell_select *sel)
{
	struct totals t = count(cl, sel);
	struct jw j;

	jw_init(&j, stdout, true);
	jw_obj_begin(&j, NULL);
	jw_str(&j, "matrix", matrix_name(m));
	jw_str(&j, "path", path);
	jw_str(&j, "description", matrix_description(m));
	jw_double(&j, "scale", cl->scale);
	jw_obj_begin(&j, "machine");
	jw_int(&j, "disks", o->disks);
	jw_uint(&j, "disk_bytes", o->disk_bytes);
	jw_uint(&j, "mem_bytes", o->mem_bytes);
	jw_obj_end(&j);
	jw_int(&j, "cell_count", cl->count);
	jw_int(&j, "selected", t.selected);
	jw_str(&j, "cells_filter", o->cells ? o->cells : "");
	jw_arr_begin(&j, "cells");
	for (int i = 0; i < cl->count; i++)
		if (cell_select_match(sel, &cl->cells[i]))
			json_cell(&j, &cl->cells[i]);
	jw_arr_end(&j);
	jw_obj_begin(&j, "estimate");
	jw_int(&j, "runs", t.runs);
	jw_double(&j, "boot_s", matrix_boot_estimate_s());
	jw_double(&j, "total_s", matrix_boot_estimate_s() + t.seconds);
	jw_int(&j, "cells_without_estimate", t.unknown);
	jw_str(&j, "model", matrix_estimate_model());
	jw_obj_end(&j);
	jw_obj_end(&j);
	jw_end(&j);
	fputc('\n', stdout);
}

static void print_text(const struct matrix *m, const char *path, const struct plan_opts *o,
		       const struct cell_list *cl, const struct cell_select *sel)
{
	struct totals t = count(cl, sel);
	char disk[32], mem[32], est[32];
	int keyw = 3, skipped = 0;

	mx_format_size(o->disk_bytes, disk, sizeof(disk));
	mx_format_size(o->mem_bytes, mem, sizeof(mem));
	printf("matrix %s (%s): %d cells, scale %g\n", matrix_name(m), path, cl->count, cl->scale);
	if (*matrix_description(m))
		printf("  %s\n", matrix_description(m));
	printf("machine: %d disks x %s, %s memory\n\n", o->disks, disk, mem);
	for (int i = 0; i < cl->count; i++) {
		int n = (int)strlen(cl->cells[i].key);

		if (cell_select_match(sel, &cl->cells[i]) && n > keyw)
			keyw = n;
	}
	printf("%5s  %-*s  %4s  %8s  %s\n", "cell", keyw, "key", "runs", "each", "workload");
	for (int i = 0; i < cl->count; i++) {
		const struct cell *c = &cl->cells[i];

		if (!cell_select_match(sel, c))
			continue;
		if (c->skip) {
			skipped++;
			continue;
		}
		if (c->estimate_s < 0)
			snprintf(est, sizeof(est), "?");
		else
			mx_format_duration(c->estimate_s, est, sizeof(est));
		printf("%5d  %-*s  %4d  %8s  %s\n", c->index, keyw, c->key, c->repeats, est,
		       c->workload.summary);
	}
	if (skipped) {
		printf("\nskipped on this machine (%d):\n", skipped);
		for (int i = 0; i < cl->count; i++) {
			const struct cell *c = &cl->cells[i];

			if (cell_select_match(sel, c) && c->skip)
				printf("%5d  %-*s  skipped: %s\n", c->index, keyw, c->key, c->skip);
		}
	}
	mx_format_duration(matrix_boot_estimate_s() + t.seconds, est, sizeof(est));
	printf("\n%d of %d cells selected, %d skipped; %d runs (cells x repeats)\n", t.selected,
	       cl->count, skipped, t.runs);
	printf("estimated total: %s (boot %.1f s + %d runs%s)\n", est, matrix_boot_estimate_s(),
	       t.runs, t.unknown ? "; some cells have no estimate: no size or runtime" : "");
	printf("%s\n", matrix_estimate_model());
}

int cmd_plan(int argc, char **argv)
{
	struct matrix_load_opts lo = {0};
	struct cell_select *sel = NULL;
	struct cell_list cl = {0};
	struct machine mc = {0};
	char path[PATH_MAX], real[PATH_MAX], err[MATRIX_ERR_LEN];
	struct plan_opts o;
	struct matrix *m;
	int rc = parse_args(argc, argv, &o);

	if (rc)
		return rc == 1 ? 0 : rc;
	if (find_matrix(o.matrix, path, sizeof(path)))
		return 1;
	if (realpath(path, real))
		snprintf(path, sizeof(path), "%s", real);
	lo.jobs_dir = o.jobs_dir;
	m = matrix_load(path, &lo, err, sizeof(err));
	if (!m) {
		fprintf(stderr, "iomatrix plan: %s\n", err);
		return 1;
	}
	mc.ndisks = o.disks;
	for (int i = 0; i < o.disks; i++)
		mc.disk_bytes[i] = o.disk_bytes;
	mc.mem_bytes = o.mem_bytes;
	rc = 1;
	if (matrix_expand(m, &mc, o.scale, &cl, err, sizeof(err))) {
		fprintf(stderr, "iomatrix plan: %s\n", err);
		goto out;
	}
	sel = cell_select_parse(o.cells ? o.cells : "", m, true, err, sizeof(err));
	if (!sel) {
		fprintf(stderr, "iomatrix plan: --cells: %s\n", err);
		goto out;
	}
	if (o.json)
		print_json(m, path, &o, &cl, sel);
	else
		print_text(m, path, &o, &cl, sel);
	rc = 0;
out:
	cell_select_free(sel);
	cell_list_free(&cl);
	matrix_free(m);
	return rc;
}
