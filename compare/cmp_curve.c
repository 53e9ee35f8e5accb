// SPDX-License-Identifier: GPL-2.0
/*
 * Seed 001's and seed 004's shape: a metric along one dimension, a column
 * per kernel (or per option, with --versus), a table per value of the other
 * dimensions:
 *
 *   readahead=64: read_iops
 *   iodepth  6.1.0-base  6.1.0-new  change
 *         1      11.4k      12.2k   +7.0%
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp_layouts.h"
#include "compare/curve.h"
#include "compare/metric_format.h"

static int print_panel(const struct cmp_report *r, const struct curve_set *cs,
		       const struct curve_panel *p, FILE *f)
{
	double ref = INFINITY;
	struct unit_scale sc;
	struct table t;
	char num[32], heads[CURVE_MAX_SERIES][64], unit[32];
	int rc;

	for (size_t i = 0; i < p->npoints; i++)
		for (size_t s = 0; s < cs->nseries; s++)
			if (p->pts[i].has[s] && p->pts[i].y[s] > 0 && p->pts[i].y[s] < ref)
				ref = p->pts[i].y[s];
	/* The smallest value picks the unit, so no value shows as 0.1xx. */
	sc = unit_pick(p->m->unit, isfinite(ref) ? ref : 0);
	unit_label(unit, sizeof(unit), p->m->unit, sc);
	fprintf(f, "%s%s%s%s (%s)%s\n", r->format == FMT_MARKDOWN ? "**" : "", p->title,
		*p->title ? ": " : "", p->m->name, unit, r->format == FMT_MARKDOWN ? "**\n" : "");
	table_init(&t);
	table_col(&t, cs->xdim, ALIGN_RIGHT);
	for (size_t s = 0; s < cs->nseries; s++)
		table_col(&t, cs->series[s], ALIGN_RIGHT);
	for (size_t s = 1; s < cs->nseries; s++) {
		snprintf(heads[s], sizeof(heads[s]), cs->nseries > 2 ? "change %zu" : "change", s);
		table_col(&t, heads[s], ALIGN_RIGHT);
	}
	for (size_t i = 0; i < p->npoints; i++) {
		const struct curve_point *pt = &p->pts[i];
		size_t col = 1;

		table_row(&t);
		table_set(&t, 0, "%s", pt->xval);
		for (size_t s = 0; s < cs->nseries; s++) {
			unit_number(num, sizeof(num), pt->has[s] ? pt->y[s] / sc.div : NAN);
			table_set(&t, col++, "%s", num);
		}
		for (size_t s = 1; s < cs->nseries; s++) {
			char ch[48] = "-";

			if (pt->row[s]) {
				view_change(pt->row[s], ch, sizeof(ch));
				if ((ch[0] != '-' || ch[1]) && view_mark_char(pt->row[s]) != ' ')
					snprintf(ch + strlen(ch), sizeof(ch) - strlen(ch), "%c",
						 view_mark_char(pt->row[s]));
			}
			table_set(&t, col++, "%s", ch);
		}
	}
	rc = layout_print_table(r, &t, f);
	table_free(&t);
	fputc('\n', f);
	return rc;
}

int layout_curve(const struct cmp_report *r, const struct view_dims *d, FILE *f)
{
	struct curve_set cs;
	int rc = curve_build(r, d, &cs);

	if (rc < 0)
		return -1;
	if (rc > 0) {
		fprintf(f, "curve layout: no dimension with numeric values varies; name one with "
			   "--x DIM\n");
		return 0;
	}
	for (size_t i = 0; i < cs.npanels && rc == 0; i++)
		rc = print_panel(r, &cs, &cs.panels[i], f);
	fprintf(f, "* flagged (q < %g and |change| >= %g%%), ? n=1: cannot judge\n",
		r->cmps[0].opt.alpha, r->cmps[0].opt.min_effect);
	curve_free(&cs);
	return rc;
}
