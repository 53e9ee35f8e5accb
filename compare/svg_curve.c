// SPDX-License-Identifier: GPL-2.0
/*
 * A metric along one dimension (seed 001: IOPS against iodepth), a line per
 * kernel with 95 % intervals. The x values sit at equal distances, which for
 * doubling queue depths is a log2 axis and keeps the other steps readable.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/svg.h"
#include "compare/svg_charts.h"
#include "compare/metric_format.h"

#define W 480.0
#define H 300.0
#define L 64.0
#define R 24.0
#define T 48.0
#define B 44.0

static double x_at(const struct curve_panel *p, size_t i)
{
	return p->npoints > 1 ? L + (W - L - R) * (double)i / (double)(p->npoints - 1)
			      : L + (W - L - R) / 2;
}

void svg_curve(FILE *f, const struct curve_set *cs, const struct curve_panel *p)
{
	struct axis ay = { .lo = 0, .hi = 0, .px_lo = H - B, .px_hi = T };
	double ticks[SVG_MAX_TICKS], xs[64], ys[64];
	struct unit_scale sc;
	char title[640], buf[128], unit[32];
	size_t nt;

	for (size_t i = 0; i < p->npoints; i++)
		for (size_t s = 0; s < cs->nseries; s++)
			if (p->pts[i].has[s])
				ay.hi = fmax(ay.hi, fmax(p->pts[i].hi[s], p->pts[i].y[s]));
	axis_nice(&ay);
	sc = unit_pick(p->m->unit, ay.hi);
	unit_label(unit, sizeof(unit), p->m->unit, sc);
	snprintf(title, sizeof(title), "%s%s%s (%s) against %s", p->title, *p->title ? ": " : "",
		 p->m->name, unit, cs->xdim);
	svg_begin(f, W, H, title);
	svg_heading(f, 8, 18, 12, title, 70);
	for (size_t s = 0; s < cs->nseries; s++) {
		double lx = L + (double)s * 130;

		svg_line(f, lx, 33, lx + 16, 33, svg_series_colour[s], 2.5);
		svg_text(f, lx + 20, 37, "start", 11, SVG_INK, cs->series[s]);
	}
	nt = axis_ticks(&ay, ticks, SVG_MAX_TICKS);
	for (size_t t = 0; t < nt; t++) {
		double y = axis_map(&ay, ticks[t]);

		svg_line(f, L, y, W - R, y, SVG_GRID, 1);
		snprintf(buf, sizeof(buf), "%g", ticks[t] / sc.div);
		svg_text(f, L - 6, y + 4, "end", 11, SVG_INK, buf);
	}
	for (size_t i = 0; i < p->npoints; i++)
		svg_text(f, x_at(p, i), H - B + 16, "middle", 11, SVG_INK, p->pts[i].xval);
	svg_text(f, (L + W - R) / 2, H - 8, "middle", 12, SVG_INK, cs->xdim);
	svg_line(f, L, H - B, W - R, H - B, SVG_INK, 1);
	for (size_t s = 0; s < cs->nseries; s++) {
		size_t n = 0;

		for (size_t i = 0; i < p->npoints && n < 64; i++) {
			if (!p->pts[i].has[s])
				continue;
			xs[n] = x_at(p, i);
			ys[n] = axis_map(&ay, p->pts[i].y[s]);
			n++;
		}
		if (n > 1)
			svg_polyline(f, xs, ys, n, svg_series_colour[s], 2);
		for (size_t i = 0; i < p->npoints; i++) {
			const struct curve_point *pt = &p->pts[i];
			const struct cmp_row *row = pt->row[s];
			char v[32];

			if (!pt->has[s])
				continue;
			if (pt->hi[s] > pt->lo[s])
				svg_whisker(f, false, x_at(p, i), axis_map(&ay, pt->lo[s]),
					    axis_map(&ay, pt->hi[s]), svg_series_colour[s]);
			/* A flagged point gets a ring in the colour of its verdict. */
			if (row && (row->v == CMP_WORSE || row->v == CMP_BETTER))
				svg_circle(f, x_at(p, i), axis_map(&ay, pt->y[s]), 6.5,
					   row->v == CMP_WORSE ? SVG_WORSE : SVG_BETTER, NULL);
			unit_format(v, sizeof(v), p->m->unit, pt->y[s], pt->y[s]);
			snprintf(buf, sizeof(buf), "%s %s=%s: %s%s%s", cs->series[s], cs->xdim,
				 pt->xval, v, row ? ", " : "", row ? cmp_verdict_name(row->v) : "");
			svg_circle(f, x_at(p, i), axis_map(&ay, pt->y[s]), 3.5,
				   svg_series_colour[s], buf);
		}
	}
	svg_end(f);
}
