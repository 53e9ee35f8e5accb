// SPDX-License-Identifier: GPL-2.0
/* Running a whole matrix as PID 1; see matrix_run.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "lib/appliance_contract.h"
#include "runner/run/cell_run.h"
#include "matrix/cell_select.h"
#include "runner/console.h"
#include "runner/setup/disk_select.h"
#include "runner/machine_info.h"
#include "matrix/matrix.h"
#include "runner/run/matrix_run.h"
#include "runner/power.h"
#include "runner/run/progress.h"
#include "runner/run/record.h"
#include "runner/results/results_setup.h"
#include "matrix/run_order.h"
#include "runner/run/test_point.h"
#include "runner/watchdog.h"

#ifndef GRND_INSECURE
#define GRND_INSECURE 0x0004 /* Linux 5.6: never blocks; enough for an id */
#endif

/* Seconds PID 1 may take between two steps of cells (records, skips, the boot's setup). */
#define BETWEEN_STEPS_S 120.0

struct run {
	const struct appliance_config *cfg;
	struct record_run rec;
	struct run_results *results;
	uint32_t seq;
	int md_next;
	int cells; /* of the matrix */
	struct disk_selection *disks;
	char refused_note[512]; /* appended to skip reasons about disks */
	bool *done;		/* at run_order_slot(): recorded on an earlier boot, or crashed */
	int stride;		/* the largest repeats */
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
	results_write(&run->results->ch, &e);
	free(text);
	watchdog_allow(BETWEEN_STEPS_S);
}

static bool *done_slot(struct run *run, const struct cell *c, int repeat)
{
	return &run->done[run_order_slot(run->stride, c->index, repeat)];
}

/* Whether this boot comes to cell c for the first time (its earlier repeats are done). */
static bool first_this_boot(struct run *run, const struct cell *c, int repeat)
{
	for (int k = 0; k < repeat; k++)
		if (!*done_slot(run, c, k))
			return false;
	return true;
}

/*
 * Each step of a run: the results log notes it (the boot after a crash
 * records where it died), the watchdog's deadline moves to the step's
 * limit, test points fire.
 */
static void on_step(void *ctx, const struct cell_result *r, const char *stage, const char *step,
		    double limit_s)
{
	struct run *run = ctx;
	char note[64];

	if (strcmp(stage, step))
		snprintf(note, sizeof(note), "%s:%s", stage, step);
	else
		snprintf(note, sizeof(note), "%s", stage);
	results_setup_progress(run->results, RLOG_CELL, r->cell->index, run->cells, r->repeat,
			       run->seq + 1, note);
	watchdog_allow(limit_s + WATCHDOG_MARGIN);
	test_point_reached(r, stage);
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
						"with " SCRATCH_DISK_SERIAL
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

static void skip_one(struct run *run, const struct cell *c, int repeat, const char *why)
{
	static struct cell_result r;

	cell_skip(&r, c, repeat, why);
	emit_record(run, &r);
	cell_result_free(&r);
}

static void run_one(struct run *run, struct progress *p, const struct cell *c, int repeat)
{
	static struct cell_result r;
	const struct cell_hooks hooks = {on_step, run};
	char md[16];

	snprintf(md, sizeof(md), "md%d", run->md_next++ % 1000);
	progress_start(p, c, repeat);
	cell_run(&r, c, repeat, run->disks->use, md, &hooks);
	progress_end(p, &r);
	results_setup_progress(run->results, RLOG_CELL, c->index, run->cells, repeat, run->seq + 1,
			       "record");
	emit_record(run, &r);
	results_setup_progress(run->results, RLOG_IDLE, 0, run->cells, 0, run->seq, "");
	cell_result_free(&r);
}

static struct matrix *load_matrix(const struct appliance_config *cfg)
{
	struct matrix_load_opts o = {.jobs_dir = IMAGE_JOBS_DIR};
	char path[512], err[MATRIX_ERR_LEN];
	struct matrix *m;

	if (matrix_path_for_name(IMAGE_MATRIX_DIR, cfg->matrix, path, sizeof(path), err, sizeof(err)))
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

/* Runs this boot makes and their estimate, for the progress lines. */
static int count_runs(struct run *run, const struct cell_list *cl, const struct cell_select *sel,
		      double *est)
{
	struct run_order o;
	const struct cell *c;
	int runs = 0, repeat;

	*est = 0;
	run_order_start(&o, cl, run->done);
	while (run_order_next(&o, &c, &repeat)) {
		if (!cell_select_match(sel, c) || c->skip)
			continue;
		runs++;
		if (c->estimate_s > 0)
			*est += c->estimate_s;
	}
	return runs;
}

/* Every run not done yet, in run_order.h's order: made, or recorded skipped. */
static void run_all(struct run *run, struct progress *p, const struct cell_list *cl,
		    const struct cell_select *sel)
{
	const struct appliance_config *cfg = run->cfg;
	char why[MATRIX_ERR_LEN + 600];
	struct run_order o;
	const struct cell *c;
	int repeat;

	run_order_start(&o, cl, run->done);
	while (run_order_next(&o, &c, &repeat)) {
		if (!cell_select_match(sel, c)) {
			snprintf(why, sizeof(why), "not selected (iomatrix.cells=%s)", cfg->cells);
			skip_one(run, c, repeat, why);
		} else if (c->skip) {
			bool disks = about_disks(c->skip) && run->refused_note[0];

			snprintf(why, sizeof(why), "%s%s%s%s", c->skip, disks ? " (refused: " : "",
				 disks ? run->refused_note : "", disks ? ")" : "");
			progress_skipped(p, c, repeat, why, first_this_boot(run, c, repeat));
			skip_one(run, c, repeat, why);
		} else {
			run_one(run, p, c, repeat);
		}
	}
}

/* "vdb,vdc": the ids of the disks cells take, for the run's description. */
static void used_disks(const struct disk_selection *s, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < s->nuse && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "," : "",
					 disk_choice_id(s->use[i]));
}

/*
 * The run the previous boot died in: found (and taken out of this boot's
 * runs) before the runs are counted, recorded crashed once the progress
 * lines have started.
 */
static bool find_crash(struct run *run, const struct cell_list *cl, int *cell, int *repeat)
{
	if (!run->results->resumed ||
	    !resume_crashed_run(&run->results->last, run->results->had_progress, cl, run->stride,
				run->done, cell, repeat))
		return false;
	*done_slot(run, &cl->cells[*cell - 1], *repeat) = true;
	return true;
}

static void record_crash(struct run *run, struct progress *p, const struct cell *c, int repeat)
{
	const struct rlog_progress *prog = &run->results->last;
	static struct cell_result r;
	struct cell_crash crash = {0};
	const char *colon = strchr(prog->note, ':');

	crash.boot = prog->boots ? prog->boots : 1;
	crash.found_boot = run->results->boot;
	crash.since_unix = (double)prog->time_unix;
	snprintf(crash.stage, sizeof(crash.stage), "%.*s",
		 (int)(colon ? (size_t)(colon - prog->note) : strlen(prog->note)), prog->note);
	snprintf(crash.step, sizeof(crash.step), "%s", colon ? colon + 1 : "");
	if (!crash.stage[0])
		snprintf(crash.stage, sizeof(crash.stage), "setup");
	cell_crashed(&r, c, repeat, &crash);
	progress_crashed(p, &r);
	emit_record(run, &r);
	cell_result_free(&r);
}

/* iomatrix.watchdog: auto arms it when there is one and a results log to resume from. */
static void start_watchdog(const struct appliance_config *cfg, const struct run_results *rr)
{
	char err[WATCHDOG_ERR_LEN];
	int timeout = cfg->watchdog, actual;

	if (timeout == CMDLINE_AUTO) {
		if (!rr->ch.have_log || access(WATCHDOG_DEVICE, F_OK))
			return;
		timeout = WATCHDOG_AUTO_TIMEOUT;
	}
	if (timeout <= 0)
		return;
	if (watchdog_start(WATCHDOG_DEVICE, timeout, BETWEEN_STEPS_S, &actual, err, sizeof(err))) {
		con_say(CONSOLE_WATCHDOG "%s; running without one", err);
		return;
	}
	con_say(CONSOLE_WATCHDOG "%s" CONSOLE_ARMED ", timeout %d s, fed while the matrix makes progress%s",
		WATCHDOG_DEVICE, actual,
		rr->ch.have_log ? "" : " (no results log: a reset starts the matrix again)");
}

void matrix_run(const struct appliance_config *cfg, const struct disk_list *found)
{
	static struct disk_selection disks;
	static struct machine_info mi;
	static struct progress p;
	static struct run_results rr;
	struct run run = {.cfg = cfg, .disks = &disks, .results = &rr};
	struct cell_select *sel;
	struct cell_list cl;
	struct run_plan want;
	struct machine mc;
	struct matrix *m;
	char err[MATRIX_ERR_LEN], run_id[24], est_s[32];
	double est;
	int runs, unselected = 0, crash_cell, crash_repeat;
	bool crashed;

	m = load_matrix(cfg);
	/* "all" is the command line's word for cell_select's empty selection. */
	sel = cell_select_parse(strcmp(cfg->cells, "all") ? cfg->cells : "", m, true, err,
				sizeof(err));
	if (!sel)
		fatal("iomatrix.cells=%s: %s", cfg->cells, err);
	machine_info_read(&mi);
	make_run_id(run_id, sizeof(run_id));
	memset(&want, 0, sizeof(want));
	snprintf(want.matrix, sizeof(want.matrix), "%s", matrix_name(m));
	snprintf(want.kernel, sizeof(want.kernel), "%s", mi.release);
	results_setup_open(&rr, cfg, found, run_id, &want);
	if (rr.finished) {
		results_setup_close(&rr);
		cell_select_free(sel);
		matrix_free(m);
		return;
	}
	start_watchdog(cfg, &rr);
	if (disk_select(found, "/sys", cfg->disks, rr.have_dev ? rr.dev.disk : "", &disks, err,
			sizeof(err)))
		fatal("%s", err);
	disk_select_check(&disks, cfg->wipe, results_setup_own_disks(&rr));
	say_disks(&disks, cfg);
	refused_note(&run);
	machine_for(&mc, &disks, &mi);
	if (matrix_expand(m, &mc, cfg->scale, &cl, err, sizeof(err)))
		fatal("matrix %s: %s", cfg->matrix, err);
	for (int i = 0; cfg->repeats > 0 && i < cl.count; i++)
		cl.cells[i].repeats = cfg->repeats;

	run_plan_of(&want, matrix_name(m), mi.release, &cl);
	used_disks(&disks, want.disks, sizeof(want.disks));
	results_setup_plan(&rr, cfg, &want);
	run.cells = cl.count;
	run.stride = run_order_stride(&cl);
	run.done = calloc((size_t)cl.count * (size_t)(run.stride ? run.stride : 1), 1);
	if (!run.done)
		fatal("out of memory for %d cells", cl.count);
	if (rr.resumed && resume_mark_done(&rr.res, &cl, run.stride, run.done))
		con_say("results: records in the log that fit no cell of the plan: ignored");
	run.seq = rr.ch.have_log ? rr.ch.log.last_seq : 0;
	run.rec = (struct record_run){rr.run_id, matrix_name(m), cl.scale, cl.count, &mi, rr.boot};
	test_points_arm(cfg, rr.boot);

	crashed = find_crash(&run, &cl, &crash_cell, &crash_repeat);
	runs = count_runs(&run, &cl, sel, &est);
	for (int i = 0; i < cl.count; i++)
		unselected += !cell_select_match(sel, &cl.cells[i]);
	con_say_t("matrix %s: %d cells, %d selected (iomatrix.cells=%s), %d runs, scale %g, "
		  "estimate %s, run %s",
		  matrix_name(m), cl.count, cl.count - unselected, cfg->cells, runs, cl.scale,
		  progress_duration(est, est_s, sizeof(est_s)), rr.run_id);
	progress_init(&p, runs, est);
	p.earlier = (int)rr.res.n;
	if (crashed)
		record_crash(&run, &p, &cl.cells[crash_cell - 1], crash_repeat);
	if (rr.resumed)
		results_setup_progress(&rr, RLOG_IDLE, 0, cl.count, 0, run.seq, "resumed");
	run_all(&run, &p, &cl, sel);
	results_setup_progress(&rr, RLOG_DONE, 0, cl.count, 0, run.seq, "done");
	progress_summary(&p, matrix_name(m));
	results_setup_close(&rr);
	free(run.done);
	cell_list_free(&cl);
	cell_select_free(sel);
	matrix_free(m);
}
