// SPDX-License-Identifier: GPL-2.0
/* Progress lines and the summary table; see progress.h. */
#include <stdio.h>
#include <string.h>

#include "runner/console.h"
#include "runner/run/progress.h"

const char *progress_duration(double s, char *buf, size_t len)
{
	long t = (long)(s + 0.5);

	if (s < 0)
		snprintf(buf, len, "?");
	else if (s < 9.95)
		snprintf(buf, len, "%.1f s", s);
	else if (t < 60)
		snprintf(buf, len, "%ld s", t);
	else if (t < 3600)
		snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
	else
		snprintf(buf, len, "%ldh%02ldm", t / 3600, (t % 3600) / 60);
	return buf;
}

void progress_init(struct progress *p, int total, double estimate)
{
	memset(p, 0, sizeof(*p));
	p->total = total;
	p->est_left = estimate;
	p->t0 = step_now();
}

static double eta(const struct progress *p)
{
	double ratio = p->est_done > 0 ? p->actual_done / p->est_done : 1.0;

	return p->est_left * ratio;
}

static void times(const struct progress *p, char *buf, size_t len)
{
	char a[32], b[32];

	snprintf(buf, len, "elapsed %s, ETA %s",
		 progress_duration(step_now() - p->t0, a, sizeof(a)),
		 progress_duration(eta(p), b, sizeof(b)));
}

void progress_start(struct progress *p, const struct cell *c, int repeat)
{
	char t[96];

	times(p, t, sizeof(t));
	con_say_t("cell %d/%d [#%d %d/%d] %s: start, %s", p->done + 1, p->total, c->index,
		  repeat + 1, c->repeats, c->key, t);
}

static void add_row(struct progress *p, const struct cell *c, int repeat, enum cell_status st,
		    const char *headline)
{
	struct progress_row *row;

	p->counts[st]++;
	if (p->nrows == PROGRESS_ROWS_MAX) {
		p->rows_dropped++;
		return;
	}
	row = &p->rows[p->nrows++];
	row->index = c->index;
	row->repeat = repeat;
	row->repeats = c->repeats;
	row->status = st;
	row->key = c->key;
	snprintf(row->headline, sizeof(row->headline), "%.*s", (int)sizeof(row->headline) - 1,
		 headline);
}

void progress_end(struct progress *p, const struct cell_result *r)
{
	const struct cell *c = r->cell;
	char t[96], head[160], a[32], b[32], d[32];
	double took = r->setup_s + r->workload_s + r->teardown_s;
	double est = c->estimate_s > 0 ? c->estimate_s : 0; /* < 0: the plan could not tell */

	p->done++;
	p->est_done += est;
	p->est_left -= est;
	if (p->est_left < 0)
		p->est_left = 0;
	p->actual_done += took;
	if (r->status == CELL_OK)
		headline_str(&r->w.h, head, sizeof(head));
	else
		snprintf(head, sizeof(head), "%.*s", (int)sizeof(head) - 1, r->error);
	times(p, t, sizeof(t));
	con_say_t("cell %d/%d [#%d %d/%d] %s: %s, %s (setup %s, workload %s, teardown %s), %s",
		  p->done, p->total, c->index, r->repeat + 1, c->repeats, c->key,
		  cell_status_names[r->status], r->status == CELL_OK ? head : r->error,
		  progress_duration(r->setup_s, a, sizeof(a)),
		  progress_duration(r->workload_s, b, sizeof(b)),
		  progress_duration(r->teardown_s, d, sizeof(d)), t);
	add_row(p, c, r->repeat, r->status, head);
}

void progress_skipped(struct progress *p, const struct cell *c, int repeat, const char *why,
		      bool say)
{
	if (say)
		con_say("cell [#%d] %s: skipped: %s", c->index, c->key, why);
	add_row(p, c, repeat, CELL_SKIPPED, why);
}

void progress_crashed(struct progress *p, const struct cell_result *r)
{
	const struct cell *c = r->cell;

	con_say("cell [#%d %d/%d] %s: %s", c->index, r->repeat + 1, c->repeats, c->key, r->error);
	add_row(p, c, r->repeat, CELL_CRASHED, r->error);
}

void progress_summary(const struct progress *p, const char *matrix)
{
	char took[32], earlier[64] = "";

	if (p->earlier)
		snprintf(earlier, sizeof(earlier), "; %d recorded on earlier boots", p->earlier);
	con_say_t("summary: matrix %s, %d runs in %s: %d ok, %d failed, %d timeout; %d skipped; "
		  "%d crashed%s",
		  matrix, p->done, progress_duration(step_now() - p->t0, took, sizeof(took)),
		  p->counts[CELL_OK], p->counts[CELL_FAILED], p->counts[CELL_TIMEOUT],
		  p->counts[CELL_SKIPPED], p->counts[CELL_CRASHED], earlier);
	con_say("summary: %5s %7s  %-8s %-60s %s", "cell", "repeat", "status", "headline", "key");
	for (size_t i = 0; i < p->nrows; i++) {
		const struct progress_row *row = &p->rows[i];
		char rep[16];

		snprintf(rep, sizeof(rep), "%d/%d", row->repeat + 1, row->repeats);
		con_say("summary: %5d %7s  %-8s %-60.60s %s", row->index, rep,
			cell_status_names[row->status], row->headline, row->key);
	}
	if (p->rows_dropped)
		con_say("summary: (%zu more rows not shown)", p->rows_dropped);
}
