// SPDX-License-Identifier: GPL-2.0
/* Comparing two result sets cell by cell and metric by metric. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"

static const char *const verdict_names[CMP_VERDICT_COUNT] = {
	[CMP_UNCHANGED] = "unchanged",
	[CMP_BETTER] = "better",
	[CMP_WORSE] = "worse",
	[CMP_CANNOT_JUDGE] = "n=1: cannot judge",
	[CMP_NO_DATA] = "one side only",
	[CMP_FAILED] = "failed",
	[CMP_MISSING] = "missing",
};

const char *cmp_verdict_name(enum cmp_verdict v)
{
	return v < CMP_VERDICT_COUNT ? verdict_names[v] : "?";
}

static const char *const unit_names[] = {
	[CMP_UNIT_AUTO] = "auto",
	[CMP_UNIT_RUN] = "run",
	[CMP_UNIT_REPEAT] = "repeat",
};

const char *cmp_unit_name(enum cmp_unit u)
{
	return u <= CMP_UNIT_REPEAT ? unit_names[u] : "?";
}

/*
 * auto is the run: a kernel comparison is between boots. Only when both
 * sides are views of one run (--versus) were they measured in the same
 * boot; then the repeats are the samples.
 */
static enum cmp_unit resolve_unit(const struct comparison *c)
{
	if (c->opt.unit != CMP_UNIT_AUTO)
		return c->opt.unit;
	if (c->same_boot && c->base->nruns < 2)
		return CMP_UNIT_REPEAT;
	return CMP_UNIT_RUN;
}

void cmp_options_default(struct cmp_options *o)
{
	memset(o, 0, sizeof(*o));
	o->alpha = CMP_DEFAULT_ALPHA;
	o->min_effect = CMP_DEFAULT_MIN_EFFECT;
}

/* The % change that counts as better for the metric: sign flipped for "lower is better". */
static double cmp_gain(const struct cmp_row *r)
{
	return r->m->better == BETTER_HIGHER ? r->change : -r->change;
}

static bool cell_has_ok(const struct rs_cell *c)
{
	for (size_t i = 0; c && i < c->nrecs; i++)
		if (c->recs[i]->status == RS_OK)
			return true;
	return false;
}

static const struct rs_record *first_not_ok(const struct rs_cell *c)
{
	for (size_t i = 0; c && i < c->nrecs; i++)
		if (c->recs[i]->status != RS_OK)
			return c->recs[i];
	return NULL;
}

static int add_cell(struct comparison *c, const struct rs_cell *b, const struct rs_cell *n)
{
	struct cmp_cell *grown = realloc(c->cells, (c->ncells + 1) * sizeof(*grown));

	if (!grown)
		return -1;
	c->cells = grown;
	memset(&c->cells[c->ncells], 0, sizeof(*grown));
	c->cells[c->ncells].key = b ? b->key : n->key;
	c->cells[c->ncells].index = b ? b->index : n->index;
	c->cells[c->ncells].base = b;
	c->cells[c->ncells].new = n;
	c->ncells++;
	return 0;
}

/* Every ok repeat of the cell with the metric: the raw values, in run and repeat order. */
static int raw_values(const struct rs_cell *cell, const struct metric *m, struct cmp_side *s)
{
	s->raw = calloc(cell->nrecs, sizeof(*s->raw));
	s->raw_runs = calloc(cell->nrecs, sizeof(*s->raw_runs));
	s->raw_repeats = calloc(cell->nrecs, sizeof(*s->raw_repeats));
	if (!s->raw || !s->raw_runs || !s->raw_repeats)
		return -1;
	for (size_t i = 0; i < cell->nrecs; i++) {
		double v;

		if (!metric_get(m, cell->recs[i]->root, &v))
			continue;
		s->raw[s->nraw] = v;
		s->raw_runs[s->nraw] = cell->recs[i]->run;
		s->raw_repeats[s->nraw] = cell->recs[i]->repeat;
		s->nraw++;
	}
	return 0;
}

/*
 * The spread of repeats within runs: each run's rsd, pooled with weights
 * n_r - 1 (as a pooled variance). Raw values come grouped by run.
 */
static double within_run_rsd(const struct cmp_side *s)
{
	double ss = 0, df = 0;

	for (size_t i = 0, j; i < s->nraw; i = j) {
		struct sample_stats st;

		for (j = i; j < s->nraw && s->raw_runs[j] == s->raw_runs[i]; j++)
			;
		if (j - i < 2)
			continue;
		stats_describe(s->raw + i, j - i, MEAN_ARITHMETIC, &st);
		ss += (double)(j - i - 1) * st.rsd * st.rsd;
		df += (double)(j - i - 1);
	}
	return df > 0 ? sqrt(ss / df) : NAN;
}

/* The sample: a value per run (its mean over its repeats), or every repeat. */
static int side_values(const struct rs_cell *cell, const struct metric *m, enum cmp_unit unit,
		       struct cmp_side *s)
{
	memset(s, 0, sizeof(*s));
	s->within_rsd = NAN;
	if (!cell || !cell->nrecs)
		return 0;
	s->vals = calloc(cell->nrecs, sizeof(*s->vals));
	s->runs = calloc(cell->nrecs, sizeof(*s->runs));
	s->repeats = calloc(cell->nrecs, sizeof(*s->repeats));
	s->outlier = calloc(cell->nrecs, sizeof(*s->outlier));
	if (!s->vals || !s->runs || !s->repeats || !s->outlier || raw_values(cell, m, s))
		return -1;
	s->within_rsd = within_run_rsd(s);
	for (size_t i = 0, j; i < s->nraw; i = j) {
		if (unit == CMP_UNIT_REPEAT) {
			j = i + 1;
			s->vals[s->nall] = s->raw[i];
			s->repeats[s->nall] = s->raw_repeats[i];
		} else {
			for (j = i; j < s->nraw && s->raw_runs[j] == s->raw_runs[i]; j++)
				;
			/* Harmonic for rates: the run's total work over its total time. */
			s->vals[s->nall] = stats_kind_mean(s->raw + i, j - i, m->mean);
			s->repeats[s->nall] = -1;
		}
		s->runs[s->nall] = s->raw_runs[i];
		s->nall++;
	}
	return 0;
}

static void side_free(struct cmp_side *s)
{
	free(s->vals);
	free(s->runs);
	free(s->repeats);
	free(s->outlier);
	free(s->raw);
	free(s->raw_runs);
	free(s->raw_repeats);
}

static const struct metric **chosen_metrics(const struct cmp_options *o, size_t *n)
{
	const struct metric **ms;

	if (o->metrics) {
		*n = o->nmetrics;
		return (const struct metric **)o->metrics;
	}
	ms = calloc(metric_count, sizeof(*ms));
	*n = 0;
	for (size_t i = 0; ms && i < metric_count; i++)
		if (metric_table[i].by_default)
			ms[(*n)++] = &metric_table[i];
	return ms;
}

static int add_rows(struct comparison *c, size_t ci, const struct metric *const *ms, size_t nms)
{
	struct cmp_cell *cell = &c->cells[ci];

	cell->first_row = c->nrows;
	for (size_t k = 0; k < nms; k++) {
		struct cmp_row row = { .cell = ci, .m = ms[k] };
		struct cmp_row *grown;

		if (side_values(cell->base, ms[k], c->unit, &row.base) ||
		    side_values(cell->new, ms[k], c->unit, &row.new))
			goto oom;
		if (row.base.nall == 0 && row.new.nall == 0) {
			side_free(&row.base);
			side_free(&row.new);
			continue;
		}
		grown = realloc(c->rows, (c->nrows + 1) * sizeof(*grown));
		if (!grown)
			goto oom;
		c->rows = grown;
		c->rows[c->nrows++] = row;
		cell->nrows++;
		continue;
oom:
		side_free(&row.base);
		side_free(&row.new);
		return -1;
	}
	return 0;
}

/*
 * A side's spread in logs that its own outliers do not inflate: 1.4826 x MAD
 * from 4 values on, the standard deviation below that (a MAD of 2 or 3
 * values is one distance). -1 when there is none (fewer than 2 values, or
 * values <= 0).
 */
static double side_spread(const struct cmp_side *s)
{
	double *l, *dev, med, out;

	if (s->nall < 2)
		return -1;
	for (size_t i = 0; i < s->nall; i++)
		if (!(s->vals[i] > 0))
			return -1;
	l = calloc(2 * s->nall, sizeof(*l));
	if (!l)
		return -1;
	dev = l + s->nall;
	for (size_t i = 0; i < s->nall; i++)
		l[i] = log(s->vals[i]);
	if (s->nall < 4) {
		double m = stats_arith_mean(l, s->nall), ss = 0;

		for (size_t i = 0; i < s->nall; i++)
			ss += (l[i] - m) * (l[i] - m);
		out = sqrt(ss / (double)(s->nall - 1));
	} else {
		med = stats_median(l, s->nall);
		for (size_t i = 0; i < s->nall; i++)
			dev[i] = fabs(l[i] - med);
		out = 1.4826 * stats_median(dev, s->nall);
	}
	free(l);
	return out;
}

/*
 * The typical noise of each metric in this comparison: the median spread
 * of its sides. It is a floor under each side's own spread when looking for
 * outliers.
 */
static double noise_floor(const struct comparison *c, const struct metric *m)
{
	double *sds = calloc(2 * c->nrows + 1, sizeof(*sds)), med;
	size_t n = 0;

	if (!sds)
		return 0;
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_side *sides[2] = { &c->rows[i].base, &c->rows[i].new };

		if (c->rows[i].m != m)
			continue;
		for (int s = 0; s < 2; s++) {
			double sd = side_spread(sides[s]);

			if (sd >= 0)
				sds[n++] = sd;
		}
	}
	med = stats_median(sds, n);
	free(sds);
	return med;
}

/*
 * Marks outliers on a side against a robust spread that is at least the
 * metric's typical noise and the spread of the other side of the same cell:
 * noise belongs to the cell more than to the kernel, and with 3 repeats a
 * side's own spread is one distance, often tiny.
 */
static int side_finish(struct comparison *c, const struct metric *m, struct cmp_side *s,
		       const struct cmp_side *other, double floor)
{
	double *used;
	size_t nused = 0;

	floor = fmax(floor, side_spread(other));
	s->noutliers = stats_outliers(s->vals, s->nall, floor, STATS_OUTLIER_K, s->outlier);
	c->noutliers += s->noutliers;
	used = calloc(s->nall + 1, sizeof(*used));
	if (!used)
		return -1;
	for (size_t i = 0; i < s->nall; i++) {
		if (s->outlier[i] && c->opt.exclude_outliers) {
			c->nexcluded++;
			continue;
		}
		used[nused++] = s->vals[i];
	}
	stats_describe(used, nused, m->mean, &s->st);
	free(used);
	return 0;
}

static double *used_values(const struct comparison *c, const struct cmp_side *s, size_t *n)
{
	double *v = calloc(s->nall + 1, sizeof(*v));

	*n = 0;
	for (size_t j = 0; v && j < s->nall; j++)
		if (!(s->outlier[j] && c->opt.exclude_outliers))
			v[(*n)++] = s->vals[j];
	return v;
}

/* Fits each metric's variance prior over its testable rows, then tests them. */
static int moderate_and_test(struct comparison *c, const struct metric *const *ms, size_t nms)
{
	double *s2 = calloc(c->nrows + 1, sizeof(*s2)), *df = calloc(c->nrows + 1, sizeof(*df));

	if (!s2 || !df) {
		free(s2);
		free(df);
		return -1;
	}
	for (size_t k = 0; k < nms && c->npriors < CMP_MAX_METRICS; k++) {
		struct cmp_prior *pr = &c->priors[c->npriors++];
		size_t n = 0;

		pr->m = ms[k];
		for (size_t i = 0; i < c->nrows; i++) {
			if (c->rows[i].m != ms[k] || !c->rows[i].tested || !c->rows[i].ts.on_logs)
				continue;
			s2[n] = c->rows[i].ts.s2;
			df[n] = c->rows[i].ts.df;
			n++;
		}
		stats_eb_fit(s2, df, n, &pr->p);
		for (size_t i = 0; i < c->nrows; i++) {
			struct cmp_row *r = &c->rows[i];
			/* Raw values (some <= 0) are in another scale: no shared prior. */
			struct eb_prior none = { 0 };

			if (r->m == ms[k] && r->tested)
				stats_moderated_t(&r->ts, r->ts.on_logs ? &pr->p : &none, &r->t);
		}
	}
	free(s2);
	free(df);
	return 0;
}

static int test_rows(struct comparison *c, const struct metric *const *ms, size_t nms)
{
	double *floors = calloc(nms + 1, sizeof(*floors));

	if (!floors)
		return -1;
	for (size_t k = 0; k < nms; k++)
		floors[k] = noise_floor(c, ms[k]);
	for (size_t i = 0; i < c->nrows; i++) {
		struct cmp_row *r = &c->rows[i];
		double floor = 0, *a, *b;
		size_t na, nb;

		for (size_t k = 0; k < nms; k++)
			if (ms[k] == r->m)
				floor = floors[k];
		if (side_finish(c, r->m, &r->base, &r->new, floor) ||
		    side_finish(c, r->m, &r->new, &r->base, floor))
			goto oom;
		c->noutlier_rows += r->base.noutliers + r->new.noutliers > 0;
		r->change = r->base.st.mean != 0
				    ? (r->new.st.mean - r->base.st.mean) / r->base.st.mean * 100
				    : NAN;
		if (r->base.st.n == 0 || r->new.st.n == 0) {
			r->v = CMP_NO_DATA;
			continue;
		}
		if (r->base.st.n < 2 || r->new.st.n < 2) {
			r->v = CMP_CANNOT_JUDGE;
			continue;
		}
		a = used_values(c, &r->base, &na);
		b = used_values(c, &r->new, &nb);
		r->tested = a && b && stats_two_sample(a, na, b, nb, &r->ts) == 0;
		free(a);
		free(b);
		if (r->tested)
			c->ntests++;
		else
			r->v = CMP_CANNOT_JUDGE;
	}
	free(floors);
	return moderate_and_test(c, ms, nms);
oom:
	free(floors);
	return -1;
}

static void judge_row(struct comparison *c, struct cmp_row *r, double p_needed)
{
	double d = stats_t_detectable(&r->t, p_needed);

	d = r->t.on_logs ? (exp(d) - 1) * 100
			 : (r->base.st.mean ? d / fabs(r->base.st.mean) * 100 : NAN);
	r->detectable = fmax(d, c->opt.min_effect);
	if (r->q < c->opt.alpha && isfinite(r->change) && fabs(r->change) >= c->opt.min_effect)
		r->v = cmp_gain(r) > 0 ? CMP_BETTER : CMP_WORSE;
	else
		r->v = CMP_UNCHANGED;
}

/* Holm over every tested row. */
static int adjust_holm(struct comparison *c)
{
	double *p = calloc(c->ntests + 1, sizeof(*p)), *q = calloc(c->ntests + 1, sizeof(*q));
	size_t k = 0;

	if (!p || !q) {
		free(p);
		free(q);
		return -1;
	}
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].tested)
			p[k++] = c->rows[i].t.p;
	if (stats_holm_adjust(p, k, q)) {
		free(p);
		free(q);
		return -1;
	}
	/* Holm flags the p-values up to a cut-off; with none flagged the first needed alpha/m. */
	c->p_cutoff = k ? c->opt.alpha / (double)k : 0;
	for (size_t i = 0; i < k; i++)
		if (q[i] < c->opt.alpha && p[i] > c->p_cutoff)
			c->p_cutoff = p[i];
	k = 0;
	for (size_t i = 0; i < c->nrows; i++) {
		if (!c->rows[i].tested)
			continue;
		c->rows[i].q = q[k++];
		judge_row(c, &c->rows[i], c->p_cutoff);
	}
	free(p);
	free(q);
	return 0;
}

/* Benjamini-Hochberg over cells (Simes), then over the rows of the selected cells. */
static int adjust_bh_two_stage(struct comparison *c)
{
	size_t nc = 0, k;
	double *p = calloc(c->ncells + 1, sizeof(*p)), *q = calloc(c->ncells + 1, sizeof(*q));
	double *rp = calloc(c->nrows + 1, sizeof(*rp)), *rq = calloc(c->nrows + 1, sizeof(*rq));

	if (!p || !q || !rp || !rq)
		goto oom;
	for (size_t i = 0; i < c->ncells; i++) {
		struct cmp_cell *cell = &c->cells[i];

		k = 0;
		for (size_t r = cell->first_row; r < cell->first_row + cell->nrows; r++)
			if (c->rows[r].tested)
				rp[k++] = c->rows[r].t.p;
		cell->ntested = k;
		cell->p = stats_simes(rp, k);
		if (k)
			p[nc++] = cell->p;
	}
	if (stats_bh_adjust(p, nc, q))
		goto oom;
	c->ntested_cells = nc;
	c->p_cutoff = nc ? c->opt.alpha / (double)nc : 0;
	nc = 0;
	for (size_t i = 0; i < c->ncells; i++) {
		struct cmp_cell *cell = &c->cells[i];

		if (!cell->ntested)
			continue;
		cell->q = q[nc++];
		if (cell->q < c->opt.alpha) {
			c->nselected++;
			if (cell->p > c->p_cutoff)
				c->p_cutoff = cell->p;
		}
	}
	for (size_t i = 0; i < c->ncells; i++) {
		struct cmp_cell *cell = &c->cells[i];
		/* The second stage runs at alpha x selected / cells: scale the rows' q up instead.
		 */
		double scale = (double)c->ntested_cells / (double)(c->nselected ? c->nselected : 1);

		k = 0;
		for (size_t r = cell->first_row; r < cell->first_row + cell->nrows; r++)
			if (c->rows[r].tested)
				rp[k++] = c->rows[r].t.p;
		if (stats_bh_adjust(rp, k, rq))
			goto oom;
		k = 0;
		for (size_t r = cell->first_row; r < cell->first_row + cell->nrows; r++) {
			struct cmp_row *row = &c->rows[r];

			if (!row->tested)
				continue;
			row->q = fmax(cell->q, fmin(1, rq[k++] * scale));
			/* What a change in this metric alone would have needed. */
			judge_row(c, row, c->p_cutoff / (double)cell->ntested);
		}
	}
	free(p);
	free(q);
	free(rp);
	free(rq);
	return 0;
oom:
	free(p);
	free(q);
	free(rp);
	free(rq);
	return -1;
}

static int adjust_and_judge(struct comparison *c)
{
	return c->opt.adjust == ADJUST_HOLM ? adjust_holm(c) : adjust_bh_two_stage(c);
}

static enum cmp_verdict cell_verdict(const struct comparison *c, struct cmp_cell *cell)
{
	bool worse = false, better = false, unchanged = false, n1 = false;

	if (!cell->base || !cell->new)
		return CMP_MISSING;
	if (!cell_has_ok(cell->base) || !cell_has_ok(cell->new)) {
		cell->failed_in_new = cell_has_ok(cell->base);
		cell->failed = first_not_ok(cell->failed_in_new ? cell->new : cell->base);
		return CMP_FAILED;
	}
	for (size_t i = cell->first_row; i < cell->first_row + cell->nrows; i++) {
		worse |= c->rows[i].v == CMP_WORSE;
		better |= c->rows[i].v == CMP_BETTER;
		unchanged |= c->rows[i].v == CMP_UNCHANGED;
		n1 |= c->rows[i].v == CMP_CANNOT_JUDGE;
	}
	/* A regression in any metric is what the reader must see first. */
	if (worse)
		return CMP_WORSE;
	if (better)
		return CMP_BETTER;
	if (unchanged)
		return CMP_UNCHANGED;
	return n1 ? CMP_CANNOT_JUDGE : CMP_NO_DATA;
}

int compare_sets(const struct result_set *base, const struct result_set *new,
		 const struct cmp_options *opt, struct comparison *out, char *err, size_t errlen)
{
	const struct metric **ms;
	size_t nms;

	memset(out, 0, sizeof(*out));
	out->base = base;
	out->new = new;
	out->opt = *opt;
	out->same_boot = base->view_of && base->view_of == new->view_of;
	out->unit = resolve_unit(out);
	ms = chosen_metrics(opt, &nms);
	if (!ms)
		goto oom;
	for (size_t i = 0; i < base->ncells; i++)
		if (cmp_cell_selected(&base->cells[i], opt) &&
		    add_cell(out, &base->cells[i], rs_find_cell(new, base->cells[i].key)))
			goto oom;
	for (size_t i = 0; i < new->ncells; i++)
		if (cmp_cell_selected(&new->cells[i], opt) &&
		    !rs_find_cell(base, new->cells[i].key) && add_cell(out, NULL, &new->cells[i]))
			goto oom;
	for (size_t i = 0; i < out->ncells; i++)
		if (add_rows(out, i, ms, nms))
			goto oom;
	if (test_rows(out, ms, nms) || adjust_and_judge(out))
		goto oom;
	for (size_t i = 0; i < out->ncells; i++) {
		struct cmp_cell *cell = &out->cells[i];

		cell->v = cell_verdict(out, cell);
		/* Both sides ok but none of the chosen metrics: not part of this comparison. */
		if (cell->v == CMP_NO_DATA && cell->nrows == 0)
			continue;
		out->cells_by_verdict[cell->v]++;
	}
	if (ms != opt->metrics)
		free(ms);
	return 0;
oom:
	if (ms != opt->metrics)
		free(ms);
	comparison_free(out);
	snprintf(err, errlen, "out of memory comparing %s with %s", base->path, new->path);
	return -1;
}

void comparison_free(struct comparison *c)
{
	for (size_t i = 0; i < c->nrows; i++) {
		side_free(&c->rows[i].base);
		side_free(&c->rows[i].new);
	}
	free(c->rows);
	free(c->cells);
	memset(c, 0, sizeof(*c));
}
