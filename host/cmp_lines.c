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

#include "compare.h"

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

static void repeat_range(const struct comparison *c, bool base, size_t *lo, size_t *hi)
{
	*lo = (size_t)-1;
	*hi = 0;
	for (size_t i = 0; i < c->ncells; i++) {
		const struct rs_cell *cell = base ? c->cells[i].base : c->cells[i].new;

		if (!cell)
			continue;
		if (cell->nrecs < *lo)
			*lo = cell->nrecs;
		if (cell->nrecs > *hi)
			*hi = cell->nrecs;
	}
	if (*lo == (size_t)-1)
		*lo = 0;
}

bool cmp_repeats_line(const struct comparison *c, char *buf, size_t len)
{
	struct line l = { buf, len, 0 };
	size_t blo, bhi, nlo, nhi;

	repeat_range(c, true, &blo, &bhi);
	repeat_range(c, false, &nlo, &nhi);
	addf(&l, "repeats per cell: base %zu", blo);
	if (bhi != blo)
		addf(&l, "-%zu", bhi);
	addf(&l, ", new %zu", nlo);
	if (nhi != nlo)
		addf(&l, "-%zu", nhi);
	if (blo < 2 || nlo < 2)
		addf(&l, " (a cell with 1 repeat cannot be judged)");
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

bool cmp_resolution_line(const struct comparison *c, char *buf, size_t len)
{
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
	snprintf(buf, len,
		 "resolution: a row needed a change of %.1f%% to be flagged (median; "
		 "80%% of rows: %.1f-%.1f%%)",
		 d[n / 2], d[n / 10], d[n - 1 - n / 10]);
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
