// SPDX-License-Identifier: GPL-2.0
/* What the comparison layouts share. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp_view.h"

const char *view_cell_dim(const struct cmp_cell *c, const char *name)
{
	const struct rs_cell *rc = c->base ? c->base : c->new;

	return rc ? rs_cell_dim(rc, name) : NULL;
}

static void note_dims(struct view_dims *d, const struct rs_cell *rc)
{
	for (size_t i = 0; rc && i < rc->ndims; i++) {
		size_t k;

		for (k = 0; k < d->n; k++)
			if (!strcmp(d->name[k], rc->dims[i].name))
				break;
		if (k == d->n) {
			if (d->n == VIEW_MAX_DIMS)
				continue;
			d->name[k] = rc->dims[i].name;
			d->value[k] = rc->dims[i].value;
			d->n++;
		} else if (!d->varies[k] && strcmp(d->value[k], rc->dims[i].value)) {
			d->varies[k] = true;
		}
	}
}

void view_dims(const struct cmp_report *r, struct view_dims *d)
{
	memset(d, 0, sizeof(*d));
	for (size_t k = 0; k < r->ncmps; k++) {
		const struct comparison *c = &r->cmps[k];

		for (size_t i = 0; i < c->ncells; i++) {
			note_dims(d, c->cells[i].base);
			note_dims(d, c->cells[i].new);
		}
	}
	/* A dimension some cells lack varies too: it tells those cells apart. */
	for (size_t k = 0; k < r->ncmps; k++)
		for (size_t i = 0; i < r->cmps[k].ncells; i++)
			for (size_t j = 0; j < d->n; j++)
				if (!view_cell_dim(&r->cmps[k].cells[i], d->name[j]))
					d->varies[j] = true;
	/* With one cell nothing varies; keep its key readable. */
	{
		bool any = false;

		for (size_t j = 0; j < d->n; j++)
			any |= d->varies[j];
		for (size_t j = 0; !any && j < d->n; j++)
			d->varies[j] = true;
	}
}

void view_common_line(const struct view_dims *d, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t j = 0; j < d->n && used < len; j++)
		if (!d->varies[j])
			used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "",
						 d->name[j], d->value[j]);
}

void view_short_key(const struct view_dims *d, const struct cmp_cell *c, char *buf, size_t len)
{
	const struct rs_cell *rc = c->base ? c->base : c->new;
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; rc && i < rc->ndims && used < len; i++) {
		bool varies = true;

		for (size_t j = 0; j < d->n; j++)
			if (!strcmp(d->name[j], rc->dims[i].name))
				varies = d->varies[j];
		if (varies)
			used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "",
						 rc->dims[i].name, rc->dims[i].value);
	}
	if (!used)
		snprintf(buf, len, "-");
}

bool view_row_flagged(const struct cmp_row *row)
{
	return row->v == CMP_BETTER || row->v == CMP_WORSE;
}

/* Orders row indices of a comparison (the qsort_r argument) by |change|, largest first. */
static int by_change(const void *a, const void *b, void *arg)
{
	const struct comparison *sort_cmp = arg;
	const struct cmp_row *x = &sort_cmp->rows[*(const size_t *)a];
	const struct cmp_row *y = &sort_cmp->rows[*(const size_t *)b];
	double cx = isfinite(x->change) ? fabs(x->change) : -1;
	double cy = isfinite(y->change) ? fabs(y->change) : -1;

	if (cx != cy)
		return cx < cy ? 1 : -1;
	return (*(const size_t *)a > *(const size_t *)b) -
	       (*(const size_t *)a < *(const size_t *)b);
}

size_t view_rows(const struct cmp_report *r, const struct comparison *c, size_t **order)
{
	size_t n = 0;

	*order = calloc(c->nrows + 1, sizeof(**order));
	if (!*order)
		return 0;
	for (size_t i = 0; i < c->nrows; i++)
		if (!r->only_significant || view_row_flagged(&c->rows[i]))
			(*order)[n++] = i;
	if (r->sort == SORT_CHANGE) {
		qsort_r(*order, n, sizeof(**order), by_change, (void *)c);
	}
	return n;
}

static double primary_change(const struct comparison *c, size_t cell)
{
	const struct cmp_row *row = view_primary_row(c, &c->cells[cell]);

	return row && isfinite(row->change) ? fabs(row->change) : -1;
}

static int cells_by_change(const void *a, const void *b, void *arg)
{
	const struct comparison *sort_cmp = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	double cx = primary_change(sort_cmp, x), cy = primary_change(sort_cmp, y);

	if (cx != cy)
		return cx < cy ? 1 : -1;
	return (x > y) - (x < y);
}

size_t view_cells(const struct cmp_report *r, const struct comparison *c, size_t **order)
{
	size_t n = 0;

	*order = calloc(c->ncells + 1, sizeof(**order));
	if (!*order)
		return 0;
	for (size_t i = 0; i < c->ncells; i++) {
		const struct cmp_cell *cell = &c->cells[i];

		if (cell->nrows == 0 && cell->v == CMP_NO_DATA)
			continue;
		if (r->only_significant && cell->v != CMP_BETTER && cell->v != CMP_WORSE)
			continue;
		(*order)[n++] = i;
	}
	if (r->sort == SORT_CHANGE) {
		qsort_r(*order, n, sizeof(**order), cells_by_change, (void *)c);
	}
	return n;
}

const struct cmp_row *view_cell_row(const struct comparison *c, const struct cmp_cell *cell,
				    const struct metric *m)
{
	for (size_t i = cell->first_row; i < cell->first_row + cell->nrows; i++)
		if (c->rows[i].m == m)
			return &c->rows[i];
	return NULL;
}

const struct cmp_row *view_primary_row(const struct comparison *c, const struct cmp_cell *cell)
{
	for (size_t i = cell->first_row; i < cell->first_row + cell->nrows; i++)
		if (c->rows[i].m->mean == MEAN_HARMONIC)
			return &c->rows[i];
	return cell->nrows ? &c->rows[cell->first_row] : NULL;
}

static bool numeric(const char *s)
{
	char *end;

	if (!s || !*s)
		return false;
	strtod(s, &end);
	return *end == '\0';
}

const char *view_curve_dim(const struct cmp_report *r, const struct view_dims *d)
{
	const char *best = NULL;
	size_t best_n = 0;

	if (r->xdim)
		return r->xdim;
	for (size_t j = 0; j < d->n; j++) {
		const char *seen[64];
		size_t nseen = 0;
		bool ok = d->varies[j];

		for (size_t k = 0; ok && k < r->ncmps; k++) {
			for (size_t i = 0; ok && i < r->cmps[k].ncells; i++) {
				const char *v = view_cell_dim(&r->cmps[k].cells[i], d->name[j]);
				bool dup = false;

				if (!v)
					continue;
				ok = numeric(v);
				for (size_t s = 0; s < nseen && !dup; s++)
					dup = !strcmp(seen[s], v);
				if (!dup && nseen < 64)
					seen[nseen++] = v;
			}
		}
		if (ok && nseen > best_n) {
			best = d->name[j];
			best_n = nseen;
		}
	}
	return best_n >= 2 ? best : NULL;
}

void view_mark(const struct comparison *c, const struct cmp_row *row, char *buf, size_t len)
{
	const struct cmp_cell *cell = &c->cells[row->cell];
	enum cmp_verdict v = row->v;
	const char *word;

	if (cell->v == CMP_MISSING || cell->v == CMP_FAILED)
		v = cell->v;
	switch (v) {
	case CMP_WORSE: word = "WORSE"; break;
	case CMP_BETTER: word = "better"; break;
	case CMP_UNCHANGED: word = ""; break;
	default: word = cmp_verdict_name(v); break;
	}
	snprintf(buf, len, "%s%s", word,
		 row->base.noutliers + row->new.noutliers ? (*word ? " o" : "o") : "");
}

char view_mark_char(const struct cmp_row *row)
{
	if (view_row_flagged(row))
		return '*';
	if (row->v == CMP_CANNOT_JUDGE)
		return '?';
	return ' ';
}

void view_change(const struct cmp_row *row, char *buf, size_t len)
{
	if (!isfinite(row->change) || row->base.st.n == 0 || row->new.st.n == 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.1f%%", row->change);
}

void view_rsd(const struct cmp_row *row, char *buf, size_t len)
{
	char b[16], n[16];

	snprintf(b, sizeof(b), row->base.st.n > 1 ? "%.1f" : "-", row->base.st.rsd * 100);
	snprintf(n, sizeof(n), row->new.st.n > 1 ? "%.1f" : "-", row->new.st.rsd * 100);
	snprintf(buf, len, "%s/%s%%", b, n);
}

void view_wrsd(const struct cmp_row *row, char *buf, size_t len)
{
	char b[16], n[16];

	snprintf(b, sizeof(b), isfinite(row->base.within_rsd) ? "%.1f" : "-",
		 row->base.within_rsd * 100);
	snprintf(n, sizeof(n), isfinite(row->new.within_rsd) ? "%.1f" : "-",
		 row->new.within_rsd * 100);
	snprintf(buf, len, "%s/%s%%", b, n);
}

bool view_wrsd_shown(const struct comparison *c)
{
	return c->unit == CMP_UNIT_RUN && cmp_has_within(c);
}

void view_n(const struct cmp_row *row, char *buf, size_t len)
{
	snprintf(buf, len, "%zu/%zu", row->base.st.n, row->new.st.n);
}

static void set_line(char *buf, size_t len, const char *side, const struct result_set *rs)
{
	int n = snprintf(buf, len, "%s %s: kernel %s, matrix %s, %zu cells, ", side, rs->label,
			 rs->kernel_release ? rs->kernel_release : "?",
			 rs->matrix ? rs->matrix : "?", rs->ncells);

	if (n < 0 || (size_t)n >= len)
		return;
	if (rs->nruns < 2 || !rs->runs) {
		snprintf(buf + n, len - (size_t)n, "run %s, %s", rs->run_id ? rs->run_id : "?",
			 rs->path ? rs->path : "?");
		return;
	}
	n += snprintf(buf + n, len - (size_t)n, "%zu runs:", rs->nruns);
	for (size_t i = 0; i < rs->nruns && (size_t)n < len; i++)
		n += snprintf(buf + n, len - (size_t)n, "%s %s", i ? "," : "", rs->runs[i].path);
}

#define WARN_SHOWN 5

static size_t warnings(const struct result_set *rs, const char *side, struct head_line *out,
		       size_t n, size_t max)
{
	for (size_t i = 0; i < rs->nwarnings && n < max; i++) {
		out[n].kind = "warning";
		if (i == WARN_SHOWN) {
			snprintf(out[n++].text, VIEW_LINE, "%s: and %zu more unreadable records",
				 side, rs->nwarnings - WARN_SHOWN);
			break;
		}
		snprintf(out[n++].text, VIEW_LINE, "%s: %s", side, rs->warnings[i]);
	}
	if (rs->ndamaged && n < max) {
		out[n].kind = "warning";
		snprintf(out[n++].text, VIEW_LINE, "%s: the manifest lists %zu damaged record%s",
			 side, rs->ndamaged, rs->ndamaged == 1 ? "" : "s");
	}
	return n;
}

size_t view_head_lines(const struct comparison *c, struct head_line *out, size_t max)
{
	size_t n = 0;

	if (max < 15)
		return 0;
	out[n].kind = "verdict";
	cmp_verdict_line(c, out[n++].text, VIEW_LINE);
	out[n].kind = "base";
	set_line(out[n++].text, VIEW_LINE, "base", c->base);
	out[n].kind = "new";
	set_line(out[n++].text, VIEW_LINE, "new ", c->new);
	out[n].kind = "missing";
	if (cmp_missing_line(c, true, out[n].text, VIEW_LINE))
		n++;
	out[n].kind = "missing";
	if (cmp_missing_line(c, false, out[n].text, VIEW_LINE))
		n++;
	out[n].kind = "failed";
	if (cmp_failed_line(c, out[n].text, VIEW_LINE))
		n++;
	out[n].kind = "mismatch";
	if (cmp_mismatch_line(c, out[n].text, VIEW_LINE))
		n++;
	for (int i = 0; i < 2; i++) {
		out[n].kind = "unit";
		if (cmp_unit_line(c, i, out[n].text, VIEW_LINE))
			n++;
	}
	out[n].kind = "repeats";
	if (cmp_repeats_line(c, out[n].text, VIEW_LINE))
		n++;
	out[n].kind = "outliers";
	if (cmp_outliers_line(c, out[n].text, VIEW_LINE))
		n++;
	out[n].kind = "resolution";
	if (cmp_resolution_line(c, out[n].text, VIEW_LINE))
		n++;
	out[n].kind = "method";
	cmp_method_line(c, out[n++].text, VIEW_LINE);
	n = warnings(c->base, "base", out, n, max);
	n = warnings(c->new, "new", out, n, max);
	return n;
}
