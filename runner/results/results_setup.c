// SPDX-License-Identifier: GPL-2.0
/* The results channels at boot, and whether this boot resumes a run; see results_setup.h. */
#include "runner/results/results_setup.h"

#include <stdio.h>
#include <string.h>

#include "runner/console.h"

/* The log cannot be used for this run: start a new one (force) or leave it alone. */
static void replace_or_drop(struct run_results *rr, const struct appliance_config *cfg,
			    const char *why)
{
	const char *path = rr->dev.path;
	char err[RESULTS_ERR_LEN];

	rlog_close(&rr->ch.log);
	rr->ch.have_log = false;
	rr->resumed = rr->finished = rr->has_info = false;
	resume_free(&rr->res);
	if (cfg->results_init != RESULTS_INIT_FORCE) {
		con_say("results: %s: %s; left alone, no records go there "
			"(iomatrix.results_init=force starts a new log on it)",
			path, why);
		return;
	}
	if (rlog_init(path, rr->run_id, 0, RLOG_INIT_OVERWRITE, err, sizeof(err)) ||
	    rlog_open(&rr->ch.log, path, NULL, NULL, err, sizeof(err))) {
		con_say("results: %s: %s; starting a new log failed: %s", path, why, err);
		return;
	}
	rr->ch.have_log = true;
	con_say("results: %s: %s; a new results log for run %s (iomatrix.results_init=force)", path,
		why, rr->run_id);
}

/* The log's description, when it has one; false with why when it cannot be had. */
static bool read_info(struct run_results *rr, char *why, size_t len)
{
	static char text[RLOG_RUN_INFO_MAX + 1];
	char err[RESUME_ERR_LEN];
	size_t n;
	int r = rlog_run_info_read(&rr->ch.log, text, sizeof(text), &n, err, sizeof(err));

	if (r < 0) {
		snprintf(why, len, "%s", err);
		return false;
	}
	if (r == 0) {
		snprintf(why, len, "%s",
			 rr->ch.log.last_seq ? "it holds records but no run description" : "");
		return false;
	}
	if (run_plan_parse(text, n, &rr->info, err, sizeof(err))) {
		snprintf(why, len, "its run description is unreadable: %.400s", err);
		return false;
	}
	rr->has_info = true;
	return true;
}

static void open_log(struct run_results *rr, const struct appliance_config *cfg,
		     const struct disk_list *found, const struct run_plan *want)
{
	const struct results_channel_spec *ch = &rr->ch.spec.ch[rr->ch.spec.disk];
	char err[RESULTS_ERR_LEN], why[RESULTS_ERR_LEN];
	const struct rlog_progress *p = &rr->ch.log.progress;
	int state;

	if (results_find_device(ch, found, "/sys", "/dev", &rr->dev, err, sizeof(err))) {
		con_say("results: %s: %s; no results log", ch->word, err);
		return;
	}
	rr->have_dev = true;
	state = results_open_log(&rr->ch.log, rr->dev.path, cfg->results_init, rr->run_id,
				 resume_visit, &rr->res, err, sizeof(err));
	if (state < 0) {
		con_say("results: %s: %s; no results log", ch->word, err);
		resume_free(&rr->res);
		return;
	}
	rr->ch.have_log = true;
	if (state == RESULTS_LOG_INITIALISED) {
		resume_free(&rr->res);
		con_say("results: %s is %s: a new results log for run %s (iomatrix.results_init)",
			ch->word, rr->dev.path, rr->run_id);
		return;
	}
	if (rr->res.oom) {
		replace_or_drop(rr, cfg, "out of memory reading its records");
		return;
	}
	if (!read_info(rr, why, sizeof(why))) {
		if (why[0]) {
			replace_or_drop(rr, cfg, why);
			return;
		}
		/* initialised before a crash took the boot that made it: a new run */
		con_say("results: %s is %s: an empty results log", ch->word, rr->dev.path);
		return;
	}
	if (run_plan_differs(&rr->info, want, false, why, sizeof(why))) {
		char line[RESULTS_ERR_LEN + 64];

		snprintf(line, sizeof(line), "it holds run %s of %.400s", rr->ch.log.info.run_id,
			 why);
		replace_or_drop(rr, cfg, line);
		return;
	}
	if (rr->ch.log.has_progress && p->state == RLOG_DONE) {
		snprintf(why, sizeof(why), "run %s finished (%u records, last seq %u)",
			 rr->ch.log.info.run_id, (unsigned)rr->res.n, rr->ch.log.last_seq);
		if (cfg->results_init == RESULTS_INIT_FORCE) {
			replace_or_drop(rr, cfg, why);
			return;
		}
		rr->finished = true;
		con_say("results: %s is %s: %s: nothing to run (iomatrix.results_init=force starts "
			"a new run on it)",
			ch->word, rr->dev.path, why);
		return;
	}
	rr->resumed = true;
	rr->had_progress = rr->ch.log.has_progress;
	rr->last = *p;
	snprintf(rr->run_id, sizeof(rr->run_id), "%s", rr->ch.log.info.run_id);
	rr->boot = (rr->ch.log.has_progress && p->boots ? p->boots : 1) + 1;
	con_say("results: %s is %s: resuming run %s on its boot %u: %zu records, last seq %u%s",
		ch->word, rr->dev.path, rr->run_id, rr->boot, rr->res.n, rr->ch.log.last_seq,
		rr->res.damaged ? " (some damaged: their cells run again)" : "");
}

void results_setup_open(struct run_results *rr, const struct appliance_config *cfg,
			const struct disk_list *found, const char *run_id,
			const struct run_plan *want)
{
	char err[RESULTS_SPEC_ERR_LEN], shown[512];

	memset(rr, 0, sizeof(*rr));
	rr->boot = 1;
	snprintf(rr->run_id, sizeof(rr->run_id), "%s", run_id);
	/* Valid: the command line was checked against the same parser. */
	if (results_spec_parse(cfg->results, &rr->ch.spec, err, sizeof(err)))
		con_say("results: iomatrix.results=%s: %s", cfg->results, err);
	results_open_serial(&rr->ch);
	if (rr->ch.spec.disk >= 0)
		open_log(rr, cfg, found, want);
	if (!rr->ch.have_log && !rr->ch.nserial && !rr->finished) {
		static const struct results_channel_spec console = {.kind = RESULTS_CONSOLE,
								    .word = "console"};

		rr->ch.serial[0] = (struct results_serial){&console, 1, -1, 0, false};
		rr->ch.nserial = 1;
		con_say("results: no channel of iomatrix.results=%s could be opened: records go "
			"to the console",
			cfg->results);
	}
	results_describe(&rr->ch, shown, sizeof(shown));
	con_say("results: records go to %s", shown);
}

void results_setup_plan(struct run_results *rr, const struct appliance_config *cfg,
			const struct run_plan *want)
{
	char why[RESULTS_ERR_LEN], text[RLOG_RUN_INFO_MAX + 1], err[RLOG_ERR_LEN];
	size_t n;

	if (!rr->ch.have_log || rr->finished)
		return;
	if (rr->resumed && run_plan_differs(&rr->info, want, true, why, sizeof(why))) {
		char line[RESULTS_ERR_LEN + 64];

		snprintf(line, sizeof(line), "it holds run %s of %.400s", rr->run_id, why);
		replace_or_drop(rr, cfg, line);
		if (!rr->ch.have_log)
			return;
	}
	if (!rr->resumed) {
		rr->boot = 1;
		snprintf(rr->run_id, sizeof(rr->run_id), "%s", rr->ch.log.info.run_id);
		/* Disk ids are printable and trimmed (disks.c), as the format needs. */
		n = run_plan_format(want, text, sizeof(text));
		if (!n || rlog_run_info_write(&rr->ch.log, text, n, err, sizeof(err)))
			con_say("results: %s: %s: a later boot cannot resume this run",
				rr->ch.log.path, n ? err : "the run description is too long");
	}
	/*
	 * A resumed run's slot still names the run the last boot died in: it
	 * is kept until that run's crashed record is written (the caller
	 * notes "resumed" then), so a boot that dies before loses nothing.
	 */
	if (!rr->resumed)
		results_setup_progress(rr, RLOG_IDLE, 0, want->cells, 0, rr->ch.log.last_seq,
				       "started");
}

const char *results_setup_own_disks(const struct run_results *rr)
{
	return rr->resumed && rr->has_info ? rr->info.disks : NULL;
}

void results_setup_progress(struct run_results *rr, enum rlog_progress_state state, int cell,
			    int cells, int repeat, uint32_t seq, const char *note)
{
	static bool said;
	struct rlog_progress p = {0};
	char err[RLOG_ERR_LEN];

	if (!rr->ch.have_log)
		return;
	p.state = state;
	p.cell_index = (uint32_t)cell;
	p.cell_count = (uint32_t)cells;
	p.repeat = (uint32_t)repeat;
	p.seq = seq;
	p.boots = rr->boot;
	snprintf(p.note, sizeof(p.note), "%s", note);
	if (rlog_progress_write(&rr->ch.log, &p, err, sizeof(err)) && !said) {
		con_say("results: %s (further failures to note progress not shown)", err);
		said = true;
	}
}

void results_setup_close(struct run_results *rr)
{
	results_close(&rr->ch);
	resume_free(&rr->res);
}
