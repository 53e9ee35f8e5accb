// SPDX-License-Identifier: GPL-2.0
/*
 * Comparisons as CSV (RFC 4180): one row per comparison, cell and metric,
 * values in the metric's base unit (bytes/s, IO/s, ns), every dimension a
 * column of its own so a spreadsheet can pivot on it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp_view.h"
#include "compare/metric_format.h"

static void csv_str(FILE *f, const char *s)
{
	if (!s)
		s = "";
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.6g", v);
}

static void side(FILE *f, const struct cmp_side *s)
{
	fprintf(f, ",%zu,", s->st.n);
	if (s->st.n) {
		csv_num(f, s->st.mean);
		fputc(',', f);
		csv_num(f, s->st.rsd * 100);
		fputc(',', f);
		csv_num(f, s->st.ci_lo);
		fputc(',', f);
		csv_num(f, s->st.ci_hi);
	} else {
		fputs(",,,", f);
	}
}

int cmp_render_csv(const struct cmp_report *r, FILE *f)
{
	struct view_dims d;

	view_dims(r, &d);
	fputs("base,new,key", f);
	for (size_t j = 0; j < d.n; j++) {
		fputc(',', f);
		csv_str(f, d.name[j]);
	}
	fputs(",metric,unit,better,base_n,base_mean,base_rsd_pct,base_ci_lo,base_ci_hi,"
	      "new_n,new_mean,new_rsd_pct,new_ci_lo,new_ci_hi,change_pct,p,q,verdict,"
	      "cell_verdict,outliers,replication_unit,base_within_rsd_pct,new_within_rsd_pct\n",
	      f);
	for (size_t k = 0; k < r->ncmps; k++) {
		const struct comparison *c = &r->cmps[k];
		size_t *order, n = view_rows(r, c, &order);

		if (!order)
			return -1;
		for (size_t i = 0; i < n; i++) {
			const struct cmp_row *row = &c->rows[order[i]];
			const struct cmp_cell *cell = &c->cells[row->cell];

			csv_str(f, c->base->label);
			fputc(',', f);
			csv_str(f, c->new->label);
			fputc(',', f);
			csv_str(f, cell->key);
			for (size_t j = 0; j < d.n; j++) {
				fputc(',', f);
				csv_str(f, view_cell_dim(cell, d.name[j]));
			}
			fprintf(f, ",%s,%s,%s", row->m->name, unit_base_name(row->m->unit),
				row->m->better == BETTER_HIGHER ? "higher" : "lower");
			side(f, &row->base);
			side(f, &row->new);
			fputc(',', f);
			if (row->base.st.n && row->new.st.n)
				csv_num(f, row->change);
			fputc(',', f);
			if (row->tested)
				csv_num(f, row->t.p);
			fputc(',', f);
			if (row->tested)
				csv_num(f, row->q);
			fputc(',', f);
			csv_str(f, cmp_verdict_name(row->v));
			fputc(',', f);
			csv_str(f, cmp_verdict_name(cell->v));
			fprintf(f, ",%zu,%s,", row->base.noutliers + row->new.noutliers,
				cmp_unit_name(c->unit));
			csv_num(f, row->base.within_rsd * 100);
			fputc(',', f);
			csv_num(f, row->new.within_rsd * 100);
			fputc('\n', f);
		}
		free(order);
	}
	return fflush(f) || ferror(f) ? -1 : 0;
}
