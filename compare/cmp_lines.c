// SPDX-License-Identifier: GPL-2.0
/*
 * The one-line notes at the head of every comparison report: the verdict,
 * cells missing on a side, failed cells, mismatched matrices, repeats,
 * outliers, the resolution and the method.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"

struct line {
	char *buf;
	size_t len, used;
};

static void addf(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (l->used >= l->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(l->buf + l->used, l->len - l->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->used += (size_t)n < l->len - l->used ? (size_t)n : l->len - l->used - 1;
}

void cmp_verdict_line(const struct comparison *c, char *buf, size_t len)
{
	const size_t *v = c->cells_by_verdict;
	size_t notc = v[CMP_CANNOT_JUDGE] + v[CMP_NO_DATA] + v[CMP_FAILED] + v[CMP_MISSING];
	struct line l = { buf, len, 0 };
	const char *sep = " (";

	addf(&l, "verdict: %zu cell%s better, %zu worse, %zu unchanged, %zu not comparable",
	     v[CMP_BETTER], v[CMP_BETTER] == 1 ? "" : "s", v[CMP_WORSE], v[CMP_UNCHANGED], notc);
	for (int k = CMP_CANNOT_JUDGE; k < CMP_VERDICT_COUNT; k++) {
		if (!v[k])
			continue;
		addf(&l, "%s%zu %s", sep, v[k], cmp_verdict_name((enum cmp_verdict)k));
		sep = ", ";
	}
	if (notc)
		addf(&l, ")");
}

#define LIST_MAX 3

bool cmp_missing_line(const struct comparison *c, bool in_new, char *buf, size_t len)
{
	const struct result_set *lacks = in_new ? c->new : c->base;
	struct line l = { buf, len, 0 };
	size_t n = 0, shown = 0, of = 0;

	for (size_t i = 0; i < c->ncells; i++) {
		const struct cmp_cell *cell = &c->cells[i];

		of += (in_new ? cell->base : cell->new) != NULL;
		n += in_new ? (cell->base && !cell->new) : (!cell->base && cell->new);
	}
	if (!n)
		return false;
	addf(&l, "missing in %s %s: %zu of %zu cells of the %s have no record there:",
	     in_new ? "new" : "base", lacks->label, n, of, in_new ? "base" : "new");
	for (size_t i = 0; i < c->ncells && shown < LIST_MAX; i++) {
		const struct cmp_cell *cell = &c->cells[i];

		if (in_new ? (cell->base && !cell->new) : (!cell->base && cell->new))
			addf(&l, "%s %s", shown++ ? ";" : "", cell->key);
	}
	if (n > shown)
		addf(&l, "; and %zu more", n - shown);
	return true;
}

bool cmp_failed_line(const struct comparison *c, char *buf, size_t len)
{
	struct line l = { buf, len, 0 };
	size_t n = c->cells_by_verdict[CMP_FAILED], shown = 0;

	if (!n)
		return false;
	addf(&l, "failed: %zu cell%s without an ok record:", n, n == 1 ? "" : "s");
	for (size_t i = 0; i < c->ncells && shown < LIST_MAX; i++) {
		const struct cmp_cell *cell = &c->cells[i];

		if (cell->v != CMP_FAILED)
			continue;
		addf(&l, "%s %s (%s: %s%s%s)", shown++ ? ";" : "", cell->key,
		     cell->failed_in_new ? "new" : "base",
		     cell->failed ? rs_status_name(cell->failed->status) : "no ok record",
		     cell->failed && cell->failed->error ? ": " : "",
		     cell->failed && cell->failed->error ? cell->failed->error : "");
	}
	if (n > shown)
		addf(&l, "; and %zu more", n - shown);
	return true;
}

/* Names of dimensions, or of values of one dimension, that one side has and the other not. */
static void dims_only_in(struct line *l, const struct result_set *a, const struct result_set *b,
			 const char *side, bool *said)
{
	for (size_t i = 0; i < a->ncells; i++) {
		for (size_t d = 0; d < a->cells[i].ndims; d++) {
			const char *name = a->cells[i].dims[d].name;
			bool seen_before = false, in_b = false;

			for (size_t j = 0; j < i && !seen_before; j++)
				seen_before = rs_cell_dim(&a->cells[j], name) != NULL;
			if (seen_before)
				continue;
			for (size_t j = 0; j < b->ncells && !in_b; j++)
				in_b = rs_cell_dim(&b->cells[j], name) != NULL;
			if (!in_b) {
				addf(l, "%sdimension \"%s\" only in %s", *said ? "; " : "", name,
				     side);
				*said = true;
			}
		}
	}
}

bool cmp_mismatch_line(const struct comparison *c, char *buf, size_t len)
{
	const struct result_set *a = c->base, *b = c->new;
	struct line l = { buf, len, 0 };
	bool said = false;
	bool names_differ = a->matrix && b->matrix && strcmp(a->matrix, b->matrix);
	bool counts_differ =
		a->cell_count >= 0 && b->cell_count >= 0 && a->cell_count != b->cell_count;

	addf(&l, "matrices differ: ");
	if (names_differ || counts_differ) {
		addf(&l, "base is \"%s\" (%d cells), new is \"%s\" (%d cells)",
		     a->matrix ? a->matrix : "?", a->cell_count, b->matrix ? b->matrix : "?",
		     b->cell_count);
		said = true;
	}
	dims_only_in(&l, a, b, "base", &said);
	dims_only_in(&l, b, a, "new", &said);
	return said;
}

struct range {
	size_t lo, hi;
};

static void range_add(struct range *r, size_t v)
{
	if (v < r->lo)
		r->lo = v;
	if (v > r->hi)
		r->hi = v;
}

/*
 * Over the cells a side has: runs per cell, repeats (records) per run of a
 * cell, and repeats per cell. A cell's records come grouped by run.
 */
static void side_counts(const struct comparison *c, bool base, struct range *runs,
			struct range *per_run, struct range *per_cell)
{
	*runs = *per_run = *per_cell = (struct range){ (size_t)-1, 0 };
	for (size_t i = 0; i < c->ncells; i++) {
		const struct rs_cell *cell = base ? c->cells[i].base : c->cells[i].new;
		size_t nruns = 0;

		if (!cell)
			continue;
		for (size_t k = 0, j; k < cell->nrecs; k = j) {
			for (j = k; j < cell->nrecs && cell->recs[j]->run == cell->recs[k]->run; j++)
				;
			range_add(per_run, j - k);
			nruns++;
		}
		range_add(runs, nruns);
		range_add(per_cell, cell->nrecs);
	}
	if (runs->lo == (size_t)-1)
		*runs = *per_run = *per_cell = (struct range){ 0, 0 };
}

static void add_range(struct line *l, const char *side, struct range r)
{
	addf(l, "%s %zu", side, r.lo);
	if (r.hi != r.lo)
		addf(l, "-%zu", r.hi);
}

bool cmp_repeats_line(const struct comparison *c, char *buf, size_t len)
{
	struct line l = { buf, len, 0 };
	struct range bruns, brep, bcell, nruns, nrep, ncell;

	side_counts(c, true, &bruns, &brep, &bcell);
	side_counts(c, false, &nruns, &nrep, &ncell);
	if (c->unit == CMP_UNIT_RUN) {
		addf(&l, "runs per cell: ");
		add_range(&l, "base", bruns);
		add_range(&l, ", new", nruns);
		addf(&l, "; repeats per run: ");
		add_range(&l, "base", brep);
		add_range(&l, ", new", nrep);
		if (bruns.lo < 2 || nruns.lo < 2)
			addf(&l, " (a cell with 1 run cannot be judged)");
		return true;
	}
	addf(&l, "repeats per cell: ");
	add_range(&l, "base", bcell);
	add_range(&l, ", new", ncell);
	if (c->base->nruns > 1 || c->new->nruns > 1)
		addf(&l, " (from base %zu runs, new %zu runs)", c->base->nruns, c->new->nruns);
	if (bcell.lo < 2 || ncell.lo < 2)
		addf(&l, " (a cell with 1 repeat cannot be judged)");
	return true;
}

bool cmp_has_within(const struct comparison *c)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (isfinite(c->rows[i].base.within_rsd) || isfinite(c->rows[i].new.within_rsd))
			return true;
	return false;
}

/* What the unit means here, in lines that fit an email: the first says it, a second advises. */
bool cmp_unit_line(const struct comparison *c, int i, char *buf, size_t len)
{
	size_t nb = c->base->nruns, nn = c->new->nruns;
	const char *lines[2] = { NULL, NULL };
	char first[256];

	if (c->unit == CMP_UNIT_RUN && nb >= 2 && nn >= 2) {
		lines[0] = "unit: the run (boot): one value per run, its mean over the run's repeats; "
			   "n = runs";
	} else if (c->unit == CMP_UNIT_RUN && nb < 2 && nn < 2) {
		/* The line that matters stands alone; the second only shows how. */
		lines[0] = "one boot a side: the noise between boots is unknown, so no cell is judged; "
			   "boot each kernel 3+ times";
		lines[1] = "  as in: iomatrix compare base-1,base-2,base-3 new-1,new-2,new-3 "
			   "(docs/compare.md)";
	} else if (c->unit == CMP_UNIT_RUN) {
		snprintf(first, sizeof(first),
			 "one boot of %s (%s: %zu runs): no cell is judged without the noise between "
			 "boots; boot %s 3+ times",
			 nb < 2 ? "base" : "new", nb < 2 ? "new" : "base", nb < 2 ? nn : nb,
			 nb < 2 ? "base" : "new");
		lines[0] = first;
	} else if (c->same_boot) {
		lines[0] = "unit: the repeat: both sides ran in the same boot (--versus)";
	} else if (nb < 2 && nn < 2) {
		lines[0] = "warning: --unit repeat with one boot a side: the repeats of one boot stand "
			   "in for the noise";
		lines[1] = "  between boots, which is larger: two boots of one kernel can be flagged "
			   "as a change";
	} else {
		lines[0] = "unit: the repeat (--unit repeat): the repeats of all runs of a side are one "
			   "sample";
	}
	if (i < 0 || i > 1 || !lines[i])
		return false;
	snprintf(buf, len, "%s", lines[i]);
	return true;
}

bool cmp_outliers_line(const struct comparison *c, char *buf, size_t len)
{
	struct line l = { buf, len, 0 };

	if (!c->noutliers)
		return false;
	addf(&l, "outliers: %zu value%s in %zu row%s marked 'o' (> %.0f robust sd from median): ",
	     c->noutliers, c->noutliers == 1 ? "" : "s", c->noutlier_rows,
	     c->noutlier_rows == 1 ? "" : "s", STATS_OUTLIER_K);
	if (c->opt.exclude_outliers)
		addf(&l, "%zu left out", c->nexcluded);
	else
		addf(&l, "kept, see --exclude-outliers");
	return true;
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * A detectable change: "7.3%"; from 1000 % on, the factor it is ("41x"),
 * and past 1000x only that: with 2 boots of a noisy machine the figure
 * runs to 12 digits, which says no more than ">1000x".
 */
static void detectable_str(char *buf, size_t len, double pct)
{
	double factor = 1 + pct / 100;

	if (pct < 1000)
		snprintf(buf, len, "%.1f%%", pct);
	else if (factor < 1000)
		snprintf(buf, len, "%.0fx", factor);
	else
		snprintf(buf, len, ">1000x");
}

bool cmp_resolution_line(const struct comparison *c, char *buf, size_t len)
{
	char med[16], lo[16], hi[16];
	double *d = calloc(c->ntests + 1, sizeof(*d));
	size_t n = 0;

	if (!d)
		return false;
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].tested && isfinite(c->rows[i].detectable))
			d[n++] = c->rows[i].detectable;
	if (n == 0) {
		free(d);
		return false;
	}
	qsort(d, n, sizeof(*d), dbl_cmp);
	detectable_str(med, sizeof(med), d[n / 2]);
	detectable_str(lo, sizeof(lo), d[n / 10]);
	detectable_str(hi, sizeof(hi), d[n - 1 - n / 10]);
	snprintf(buf, len,
		 "resolution: a row needed a change of %s to be flagged (median; "
		 "80%% of rows: %s to %s)",
		 med, lo, hi);
	free(d);
	return true;
}

void cmp_method_line(const struct comparison *c, char *buf, size_t len)
{
	snprintf(buf, len,
		 "test: moderated t on logs, %s, %zu tests; flagged: q < %g, |change| >= %g%%",
		 c->opt.adjust == ADJUST_HOLM ? "Holm" : "2-stage Benjamini-Hochberg", c->ntests,
		 c->opt.alpha, c->opt.min_effect);
}
