// SPDX-License-Identifier: GPL-2.0
/*
 * Seed 002's list: one line per cell, its dimension values in columns and
 * the % change of its primary metric (or of each --metric), e.g.
 *
 *   array  fs  workload  change  rsd b/n    n  mark
 *   raid5  ext4   100dd   -7.3%  2.1/3.0%  5/5  WORSE
 *
 * Under the run unit, a "wrsd b/n" column after rsd: the repeats' spread within runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp_layouts.h"

static bool primaries_differ(const struct comparison *c, const size_t *order, size_t n)
{
	const struct metric *first = NULL;

	for (size_t i = 0; i < n; i++) {
		const struct cmp_row *row = view_primary_row(c, &c->cells[order[i]]);

		if (!row)
			continue;
		if (first && row->m != first)
			return true;
		first = row->m;
	}
	return false;
}

static void dims_cols(struct table *t, const struct view_dims *d)
{
	for (size_t j = 0; j < d->n; j++) {
		if (!d->varies[j])
			continue;
		table_col(t, d->name[j], ALIGN_RIGHT);
	}
}

static size_t dims_set(struct table *t, const struct view_dims *d, const struct cmp_cell *cell)
{
	size_t col = 0;

	for (size_t j = 0; j < d->n; j++) {
		const char *v;

		if (!d->varies[j])
			continue;
		v = view_cell_dim(cell, d->name[j]);
		table_set(t, col++, "%s", v ? v : "-");
	}
	return col;
}

static void one_metric(struct table *t, size_t col, const struct comparison *c,
		       const struct cmp_row *row, bool metric_col)
{
	if (metric_col)
		table_set(t, col++, "%s", row ? row->m->name : "-");
	if (!row) {
		table_set(t, col, "-");
		return;
	}
	layout_stat_cols(t, col, c, row);
}

int layout_seed002(const struct cmp_report *r, const struct comparison *c,
		   const struct view_dims *d, FILE *f)
{
	size_t *order, n = view_cells(r, c, &order);
	bool per_metric = r->metrics_chosen && c->opt.nmetrics > 1;
	bool metric_col =
		!per_metric && (r->metrics_chosen ? false : primaries_differ(c, order, n));
	struct table t;
	int rc;

	if (!order)
		return -1;
	table_init(&t);
	dims_cols(&t, d);
	if (per_metric) {
		for (size_t k = 0; k < c->opt.nmetrics; k++)
			table_col(&t, c->opt.metrics[k]->name, ALIGN_RIGHT);
	} else {
		if (metric_col)
			table_col(&t, "metric", ALIGN_LEFT);
		table_col(&t, "change", ALIGN_RIGHT);
		table_col(&t, "rsd b/n", ALIGN_RIGHT);
		if (view_wrsd_shown(c))
			table_col(&t, "wrsd b/n", ALIGN_RIGHT);
		table_col(&t, "n", ALIGN_RIGHT);
		table_col(&t, "mark", ALIGN_LEFT);
	}
	for (size_t i = 0; i < n; i++) {
		const struct cmp_cell *cell = &c->cells[order[i]];
		size_t col;

		table_row(&t);
		col = dims_set(&t, d, cell);
		if (per_metric) {
			for (size_t k = 0; k < c->opt.nmetrics; k++) {
				const struct cmp_row *row =
					view_cell_row(c, cell, c->opt.metrics[k]);
				char buf[48] = "-";

				if (row) {
					view_change(row, buf, sizeof(buf));
					if (strcmp(buf, "-") && view_mark_char(row) != ' ')
						snprintf(buf + strlen(buf),
							 sizeof(buf) - strlen(buf), "%c",
							 view_mark_char(row));
				}
				table_set(&t, col++, "%s", buf);
			}
		} else {
			const struct cmp_row *row =
				r->metrics_chosen ? view_cell_row(c, cell, c->opt.metrics[0])
						  : view_primary_row(c, cell);

			one_metric(&t, col, c, row, metric_col);
		}
	}
	if (n == 0)
		fprintf(f, "%s\n", r->only_significant ? "no significant change." : "no cells.");
	rc = n ? layout_print_table(r, &t, f) : 0;
	if (per_metric)
		fprintf(f, "%s* flagged (q < %g and |change| >= %g%%), ? n=1: cannot judge\n",
			r->format == FMT_MARKDOWN ? "\n" : "", c->opt.alpha, c->opt.min_effect);
	table_free(&t);
	free(order);
	return rc;
}
