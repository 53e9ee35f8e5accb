// SPDX-License-Identifier: GPL-2.0
/* One run of one cell: setup, workload, teardown; see cell_run.h. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "runner/run/cell_run.h"
#include "runner/console.h"
#include "runner/setup/fs.h"
#include "runner/setup/tune.h"
#include "runner/setup/wipe.h"

const char *const cell_status_names[CELL_STATUS_COUNT] = {
	[CELL_OK] = "ok",
	[CELL_FAILED] = "failed",
	[CELL_TIMEOUT] = "timeout",
	[CELL_SKIPPED] = "skipped",
	[CELL_CRASHED] = "crashed",
};

/* Counters around the workload; one cell runs at a time. */
static struct sysstat stats_before, stats_after;
/* The caller's hooks for the run going on. */
static const struct cell_hooks *hooks;

static void at_step(const struct cell_result *r, const char *stage, const char *step,
		    double limit_s)
{
	if (hooks && hooks->step)
		hooks->step(hooks->ctx, r, stage, step, limit_s);
}

/* Adds the time of one step to its kind's total. */
static void add_step_time(struct cell_result *r, const char *name, double seconds)
{
	for (int i = 0; i < r->nsteps; i++)
		if (!strcmp(r->steps[i].name, name)) {
			r->steps[i].seconds += seconds;
			return;
		}
	if (r->nsteps < CELL_STEPS_MAX)
		r->steps[r->nsteps++] = (struct cell_step_time){name, seconds};
}

/* The first failure of the run decides its status and error. */
static void failed(struct cell_result *r, const struct step_error *e)
{
	char line[STEP_ERROR_LINE_MAX];

	if (r->status != CELL_OK) {
		if (!r->teardown_error[0])
			snprintf(r->teardown_error, sizeof(r->teardown_error), "%s",
				 step_error_line(e, line, sizeof(line)));
		return;
	}
	r->status = e->timeout ? CELL_TIMEOUT : CELL_FAILED;
	r->detail = *e;
	r->has_detail = true;
	step_error_line(e, r->error, sizeof(r->error));
}

/* Time left of the cell's limit for a setup or workload step; 0: none. */
static double time_left(double deadline)
{
	double left = deadline - step_now();

	return left > 0 ? left : 0;
}

static bool out_of_time(struct cell_result *r, double deadline, const char *next)
{
	struct step_error e;
	char why[96];

	if (time_left(deadline) > 0)
		return false;
	snprintf(why, sizeof(why), "the cell's time limit (%.0f s) ran out", r->cell->time_limit_s);
	step_fail(&e, next, "(not started)", why, NULL);
	e.timeout = true;
	failed(r, &e);
	return true;
}

static int set_schedulers(struct cell_result *r, double deadline)
{
	struct step_error e;
	double t = step_now();
	int ret = 0;

	at_step(r, "setup", "scheduler", time_left(deadline));
	for (int i = 0; i < r->ndisks && !ret; i++) {
		ret = tune_scheduler("/sys", r->disks[i].d->disk.name, r->cell->scheduler,
				     r->disks[i].scheduler, sizeof(r->disks[i].scheduler), &e);
		if (ret)
			failed(r, &e);
	}
	add_step_time(r, "scheduler", step_now() - t);
	return ret;
}

static int build_array(struct cell_result *r, const char *md_name, double deadline)
{
	const char *members[MATRIX_MAX_DISKS];
	struct step_error e;
	double t = step_now();
	int ret;

	for (int i = 0; i < r->ndisks; i++)
		members[i] = r->disks[i].d->path;
	at_step(r, "setup", "array", time_left(deadline));
	r->has_array = true;
	ret = array_create(&r->array, r->cell, members, r->ndisks, md_name, time_left(deadline),
			   &e);
	add_step_time(r, "array", step_now() - t - (r->array.resync_s > 0 ? r->array.resync_s : 0));
	if (r->array.resync_s >= 0)
		add_step_time(r, "resync", r->array.resync_s);
	if (ret)
		failed(r, &e);
	return ret;
}

static int make_filesystems(struct cell_result *r, double deadline)
{
	struct step_error e;

	for (int i = 0; i < r->nfs; i++) {
		struct cell_fs *f = &r->fs[i];
		double t = step_now();
		int ret;

		if (out_of_time(r, deadline, "mkfs"))
			return -1;
		at_step(r, "setup", "mkfs", time_left(deadline));
		f->made = true;
		ret = fs_mkfs(r->cell, f->dev, time_left(deadline), f->mkfs_cmd,
			      sizeof(f->mkfs_cmd), &e);
		add_step_time(r, "mkfs", step_now() - t);
		if (ret) {
			failed(r, &e);
			return -1;
		}
		t = step_now();
		at_step(r, "setup", "mount", time_left(deadline));
		ret = fs_mount(r->cell, f->dev, f->mnt, &e);
		add_step_time(r, "mount", step_now() - t);
		if (ret) {
			failed(r, &e);
			return -1;
		}
		f->mounted = true;
		t = step_now();
		ret = tune_readahead(f->dev, r->cell->readahead_sectors, &f->readahead, &e);
		add_step_time(r, "readahead", step_now() - t);
		if (ret) {
			failed(r, &e);
			return -1;
		}
	}
	return 0;
}

static int setup(struct cell_result *r, const char *md_name, double deadline)
{
	struct step_error e;
	double t;

	if (set_schedulers(r, deadline))
		return -1;
	if (r->cell->array != ARRAY_JBOD && build_array(r, md_name, deadline))
		return -1;
	if (make_filesystems(r, deadline))
		return -1;
	t = step_now();
	at_step(r, "setup", "drop_caches", time_left(deadline));
	if (tune_drop_caches(&e)) {
		failed(r, &e);
		return -1;
	}
	add_step_time(r, "drop_caches", step_now() - t);
	return out_of_time(r, deadline, "workload") ? -1 : 0;
}

static void run_workload(struct cell_result *r, double deadline)
{
	const char *dirs[MATRIX_MAX_DISKS], *devs[SYSSTAT_DEVS_MAX];
	struct step_error e;
	size_t ndevs = 0;
	double t;

	for (int i = 0; i < r->nfs; i++)
		dirs[i] = r->fs[i].mnt;
	for (int i = 0; i < r->ndisks && ndevs < SYSSTAT_DEVS_MAX; i++)
		devs[ndevs++] = r->disks[i].d->disk.name;
	if (r->has_array && ndevs < SYSSTAT_DEVS_MAX)
		devs[ndevs++] = r->array.name;
	at_step(r, "workload", "workload", time_left(deadline));
	sysstat_read(&stats_before, devs, ndevs);
	r->ran = true;
	t = step_now();
	if (workload_run(r->cell, dirs, r->nfs, time_left(deadline), &r->w, &e))
		failed(r, &e);
	r->workload_s = step_now() - t;
	add_step_time(r, "workload", r->workload_s);
	sysstat_read(&stats_after, devs, ndevs);
	r->before = &stats_before;
	r->after = &stats_after;
	r->have_stats = true;
}

static void teardown(struct cell_result *r)
{
	struct step_error e;
	double t;

	for (int i = 0; i < r->nfs; i++) {
		if (!r->fs[i].mounted)
			continue;
		t = step_now();
		at_step(r, "teardown", "umount", CELL_TEARDOWN_STEP_TIMEOUT);
		if (fs_umount(r->fs[i].mnt, CELL_TEARDOWN_STEP_TIMEOUT, &e))
			failed(r, &e);
		r->fs[i].mounted = false;
		add_step_time(r, "umount", step_now() - t);
	}
	/* The filesystem inside the array first: members' zeroes would not reach it. */
	if (r->has_array && r->array.created && r->nfs && r->fs[0].made) {
		t = step_now();
		at_step(r, "teardown", "wipe", CELL_TEARDOWN_STEP_TIMEOUT);
		if (wipe_device(r->array.dev, "wipe", &e))
			failed(r, &e);
		add_step_time(r, "wipe", step_now() - t);
	}
	if (r->has_array) {
		t = step_now();
		at_step(r, "teardown", "stop", CELL_TEARDOWN_STEP_TIMEOUT);
		if (array_stop(&r->array, CELL_TEARDOWN_STEP_TIMEOUT, &e))
			failed(r, &e);
		add_step_time(r, "stop", step_now() - t);
	}
	/* Never under a running array: zeroing its members' superblocks would corrupt it. */
	if (r->has_array && r->array.created)
		return;
	t = step_now();
	/* every member disk: the watchdog's deadline covers them all */
	at_step(r, "teardown", "wipe", CELL_TEARDOWN_STEP_TIMEOUT * (r->ndisks ? r->ndisks : 1));
	for (int i = 0; i < r->ndisks; i++)
		if (wipe_device(r->disks[i].d->path, "wipe", &e))
			failed(r, &e);
	add_step_time(r, "wipe", step_now() - t);
}

static void start(struct cell_result *r, const struct cell *c, int repeat)
{
	memset(r, 0, sizeof(*r));
	r->cell = c;
	r->repeat = repeat;
	r->status = CELL_OK;
	r->start_unix = (double)time(NULL);
}

void cell_run(struct cell_result *r, const struct cell *c, int repeat,
	      struct disk_choice *const *use, const char *md_name, const struct cell_hooks *h)
{
	double t0, t1;
	double deadline;

	hooks = h;
	start(r, c, repeat);
	t0 = step_now();
	deadline = t0 + c->time_limit_s;
	r->ndisks = c->disks;
	for (int i = 0; i < c->disks; i++)
		r->disks[i].d = use[i];
	r->nfs = c->array == ARRAY_JBOD ? c->disks : 1;
	for (int i = 0; i < r->nfs; i++) {
		struct cell_fs *f = &r->fs[i];

		if (c->array == ARRAY_JBOD)
			snprintf(f->dev, sizeof(f->dev), "%s", use[i]->path);
		else
			snprintf(f->dev, sizeof(f->dev), "/dev/%s", md_name);
		snprintf(f->mnt, sizeof(f->mnt), "/mnt/d%d", i);
		f->readahead = -1;
	}
	if (setup(r, md_name, deadline) == 0)
		run_workload(r, deadline);
	t1 = step_now();
	r->setup_s = (t1 - t0) - r->workload_s;
	teardown(r);
	r->teardown_s = step_now() - t1;
	hooks = NULL;
}

void cell_skip(struct cell_result *r, const struct cell *c, int repeat, const char *why)
{
	start(r, c, repeat);
	r->status = CELL_SKIPPED;
	snprintf(r->error, sizeof(r->error), "%s", why);
}

void cell_crashed(struct cell_result *r, const struct cell *c, int repeat,
		  const struct cell_crash *crash)
{
	char since[32];
	time_t t = (time_t)crash->since_unix;
	struct tm tm;

	start(r, c, repeat);
	r->status = CELL_CRASHED;
	r->crash = *crash;
	r->start_unix = crash->since_unix;
	if (!gmtime_r(&t, &tm) || !strftime(since, sizeof(since), "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(since, sizeof(since), "?");
	snprintf(r->error, sizeof(r->error),
		 "crashed: the machine died during %s%s%s (since %s) on boot %u of the run; "
		 "recorded on boot %u",
		 crash->stage, crash->step[0] ? ": " : "", crash->step, since, crash->boot,
		 crash->found_boot);
	r->has_detail = true;
	snprintf(r->detail.step, sizeof(r->detail.step), "%s",
		 crash->step[0] ? crash->step : crash->stage);
	snprintf(r->detail.status, sizeof(r->detail.status), "crashed (no record after boot %u)",
		 crash->boot);
}

void cell_result_free(struct cell_result *r)
{
	workload_result_free(&r->w);
}
