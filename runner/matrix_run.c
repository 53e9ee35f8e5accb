// SPDX-License-Identifier: GPL-2.0
/* Running a whole matrix as PID 1; see matrix_run.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "cell_run.h"
#include "cell_select.h"
#include "console.h"
#include "disk_select.h"
#include "machine_info.h"
#include "matrix.h"
#include "matrix_run.h"
#include "power.h"
#include "progress.h"
#include "record.h"
#include "results_out.h"

#ifndef GRND_INSECURE
#define GRND_INSECURE 0x0004 /* Linux 5.6: never blocks; enough for an id */
#endif

struct run {
	const struct appliance_config *cfg;
	struct record_run rec;
	struct results_out out;
	uint32_t seq;
	int md_next;
	struct disk_selection *disks;
	char refused_note[512]; /* appended to skip reasons about disks */
};

static void make_run_id(char *buf, size_t len)
{
	unsigned char r[8];
	struct timespec ts;

	if (getrandom(r, sizeof(r), GRND_INSECURE) != (ssize_t)sizeof(r) &&
	    getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		/* Only on a kernel older than 5.6 this early: time and uptime then. */
		uint64_t v;

		clock_gettime(CLOCK_REALTIME, &ts);
		v = (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec ^
		    (uint64_t)(con_uptime() * 1e6);
		memcpy(r, &v, sizeof(r));
	}
	snprintf(buf, len, "%02x%02x%02x%02x%02x%02x%02x%02x", r[0], r[1], r[2], r[3], r[4], r[5],
		 r[6], r[7]);
}

static void emit_record(struct run *run, const struct cell_result *r)
{
	char err[256];
	size_t len = 0;
	char *text = record_build(&run->rec, run->seq + 1, r, &len);
	struct rlog_entry e;

	if (!text) {
		con_say("record: cell %d repeat %d: out of memory; the record is lost",
			r->cell->index, r->repeat);
		return;
	}
	run->seq++;
	e = (struct rlog_entry){run->seq, (uint32_t)r->cell->index, (uint32_t)r->repeat, text, len};
	if (results_out_record(&run->out, &e, err, sizeof(err)))
		con_say("record %u: %s", run->seq, err);
	free(text);
}

static void say_disks(const struct disk_selection *s, const struct appliance_config *cfg)
{
	char line[512];
	size_t used = 0;

	for (size_t i = 0; i < s->count; i++) {
		const struct disk_choice *c = &s->all[i];

		if (c->refused[0])
			con_say("disk %s: refused: %s", c->disk.name, c->refused);
		else if (!c->allowed)
			con_say("disk %s: not used: %s", c->disk.name,
				cfg->disks[0] ? "not named in iomatrix.disks"
					      : "its serial does not start "
						"with " DISK_SELECT_DEFAULT_SERIAL
						" (name it in iomatrix.disks)");
	}
	if (!s->nuse) {
		con_say("disks: none to use");
		return;
	}
	line[0] = '\0';
	for (size_t i = 0; i < s->nuse && used < sizeof(line); i++)
		used += (size_t)snprintf(line + used, sizeof(line) - used, "%s%s", i ? " " : "",
					 s->use[i]->disk.name);
	con_say("disks: using %zu: %s", s->nuse, line);
}

/* "vdd: holds data: ...; vde: read-only" for skip reasons about too few disks. */
static void refused_note(struct run *run)
{
	size_t used = 0;

	run->refused_note[0] = '\0';
	for (size_t i = 0; i < run->disks->count; i++) {
		const struct disk_choice *c = &run->disks->all[i];

		if (c->allowed && c->refused[0] && used < sizeof(run->refused_note))
			used += (size_t)snprintf(run->refused_note + used,
						 sizeof(run->refused_note) - used, "%s%s: %s",
						 used ? "; " : "", c->disk.name, c->refused);
	}
}

/* Whether a skip reason is about the number of disks (then refusals explain it). */
static bool about_disks(const char *why)
{
	return strstr(why, "disks") != NULL;
}

static void skip_all_repeats(struct run *run, const struct cell *c, const char *why)
{
	static struct cell_result r;

	for (int i = 0; i < c->repeats; i++) {
		cell_skip(&r, c, i, why);
		emit_record(run, &r);
		cell_result_free(&r);
	}
}

static void run_cell(struct run *run, struct progress *p, const struct cell *c)
{
	static struct cell_result r;

	for (int i = 0; i < c->repeats; i++) {
		char md[16];

		snprintf(md, sizeof(md), "md%d", run->md_next++ % 1000);
		progress_start(p, c, i);
		cell_run(&r, c, i, run->disks->use, md);
		progress_end(p, &r);
		emit_record(run, &r);
		cell_result_free(&r);
	}
}

static struct matrix *load_matrix(const struct appliance_config *cfg)
{
	struct matrix_load_opts o = {.jobs_dir = JOBS_DIR};
	char path[512], err[MATRIX_ERR_LEN];
	struct matrix *m;

	if (matrix_path_for_name(MATRIX_DIR, cfg->matrix, path, sizeof(path), err, sizeof(err)))
		fatal("iomatrix.matrix=%s: %s", cfg->matrix, err);
	m = matrix_load(path, &o, err, sizeof(err));
	if (!m)
		fatal("matrix %s: %s", cfg->matrix, err);
	return m;
}

static void machine_for(struct machine *mc, const struct disk_selection *s,
			const struct machine_info *mi)
{
	memset(mc, 0, sizeof(*mc));
	for (size_t i = 0; i < s->nuse && i < MATRIX_MAX_DISKS; i++)
		mc->disk_bytes[mc->ndisks++] = s->use[i]->disk.size_bytes;
	mc->mem_bytes = mi->mem_kb * 1024;
}

/* Runs to make and their estimate, for the progress lines. */
static int count_runs(const struct cell_list *cl, const struct cell_select *sel, double *est)
{
	int runs = 0;

	*est = 0;
	for (int i = 0; i < cl->count; i++) {
		const struct cell *c = &cl->cells[i];

		if (!cell_select_match(sel, c) || c->skip)
			continue;
		runs += c->repeats;
		if (c->estimate_s > 0)
			*est += c->estimate_s * c->repeats;
	}
	return runs;
}

void matrix_run(const struct appliance_config *cfg, const struct disk_list *found)
{
	static struct disk_selection disks;
	static struct machine_info mi;
	static struct progress p;
	struct run run = {.cfg = cfg, .disks = &disks};
	struct cell_select *sel;
	struct cell_list cl;
	struct machine mc;
	struct matrix *m;
	char err[MATRIX_ERR_LEN], run_id[24], est_s[32];
	double est;
	int runs, unselected = 0;

	m = load_matrix(cfg);
	/* "all" is the command line's word for cell_select's empty selection. */
	sel = cell_select_parse(strcmp(cfg->cells, "all") ? cfg->cells : "", m, true, err,
				sizeof(err));
	if (!sel)
		fatal("iomatrix.cells=%s: %s", cfg->cells, err);
	if (disk_select(found, "/sys", cfg->disks, cfg->results, &disks, err, sizeof(err)))
		fatal("%s", err);
	disk_select_check(&disks, cfg->wipe, NULL);
	say_disks(&disks, cfg);
	refused_note(&run);
	machine_info_read(&mi);
	machine_for(&mc, &disks, &mi);
	if (matrix_expand(m, &mc, cfg->scale, &cl, err, sizeof(err)))
		fatal("matrix %s: %s", cfg->matrix, err);
	for (int i = 0; cfg->repeats > 0 && i < cl.count; i++)
		cl.cells[i].repeats = cfg->repeats;

	make_run_id(run_id, sizeof(run_id));
	run.rec = (struct record_run){run_id, matrix_name(m), cl.scale, cl.count, &mi};
	run.out = (struct results_out){NULL, STDOUT_FILENO, -1, 1};
	runs = count_runs(&cl, sel, &est);
	for (int i = 0; i < cl.count; i++)
		unselected += !cell_select_match(sel, &cl.cells[i]);
	con_say_t("matrix %s: %d cells, %d selected (iomatrix.cells=%s), %d runs, scale %g, "
		  "estimate %s, run %s",
		  matrix_name(m), cl.count, cl.count - unselected, cfg->cells, runs, cl.scale,
		  progress_duration(est, est_s, sizeof(est_s)), run_id);
	progress_init(&p, runs, est);
	for (int i = 0; i < cl.count; i++) {
		const struct cell *c = &cl.cells[i];
		char why[MATRIX_ERR_LEN + 600];

		if (!cell_select_match(sel, c)) {
			snprintf(why, sizeof(why), "not selected (iomatrix.cells=%s)", cfg->cells);
			skip_all_repeats(&run, c, why);
		} else if (c->skip) {
			snprintf(why, sizeof(why), "%s%s%s%s", c->skip,
				 about_disks(c->skip) && run.refused_note[0] ? " (refused: " : "",
				 about_disks(c->skip) ? run.refused_note : "",
				 about_disks(c->skip) && run.refused_note[0] ? ")" : "");
			progress_skipped(&p, c, why);
			skip_all_repeats(&run, c, why);
		} else {
			run_cell(&run, &p, c);
		}
	}
	progress_summary(&p, matrix_name(m));
	cell_list_free(&cl);
	cell_select_free(sel);
	matrix_free(m);
}
