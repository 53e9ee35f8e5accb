// SPDX-License-Identifier: GPL-2.0
/*
 * Completion-latency percentiles (fio's clat_ns.percentile) of one cell, a
 * line per kernel. x is the number of nines, -log10(1 - p/100), so 90, 99,
 * 99.9 and 99.99 are equally spaced and the tail gets room; y is log10.
 */
#include <math.h>
#include <string.h>

#include "compare/metrics.h"
#include "compare/svg.h"
#include "compare/svg_charts.h"
#include "compare/metric_format.h"

#define W 480.0
#define H 300.0
#define L 64.0
#define R 34.0
#define T 48.0
#define B 44.0
#define MAXP 32

struct pctl_series {
	size_t n;
	double pct[MAXP];
	double ns[MAXP];
};

/* The mean over the ok repeats of each percentile all of them report. */
static void series_of(const struct rs_cell *c, const char *dir, struct pctl_series *s)
{
	double sum[MAXP] = { 0 };
	size_t runs = 0;

	memset(s, 0, sizeof(*s));
	for (size_t r = 0; c && r < c->nrecs; r++) {
		double pct[MAXP], ns[MAXP];
		size_t n;

		if (c->recs[r]->status != RS_OK)
			continue;
		n = metric_clat_percentiles(c->recs[r]->root, dir, pct, ns, MAXP);
		if (n == 0)
			continue;
		if (runs == 0) {
			s->n = n;
			memcpy(s->pct, pct, n * sizeof(*pct));
		}
		if (n != s->n || memcmp(pct, s->pct, n * sizeof(*pct)))
			continue; /* a run with other percentiles cannot be averaged in */
		for (size_t i = 0; i < n; i++)
			sum[i] += ns[i];
		runs++;
	}
	if (!runs) {
		s->n = 0;
		return;
	}
	for (size_t i = 0; i < s->n; i++)
		s->ns[i] = sum[i] / (double)runs;
}

static double nines(double pct)
{
	return -log10(1 - pct / 100);
}

int svg_pctl(FILE *f, const char *title, const char *dir, const struct rs_cell *const *cells,
	     const char *const *labels, size_t nseries)
{
	struct pctl_series s[8];
	struct axis ax = { .lo = 0, .hi = 4, .px_lo = L, .px_hi = W - R };
	struct axis ay = { .lo = INFINITY, .hi = 0, .px_lo = H - B, .px_hi = T, .log = true };
	static const double xt[] = { 50, 90, 99, 99.9, 99.99 };
	double ticks[SVG_MAX_TICKS], xs[MAXP], ys[MAXP];
	size_t nt, any = 0;

	if (nseries > 8)
		nseries = 8;
	for (size_t k = 0; k < nseries; k++) {
		series_of(cells[k], dir, &s[k]);
		for (size_t i = 0; i < s[k].n; i++) {
			if (s[k].ns[i] > 0)
				ay.lo = fmin(ay.lo, s[k].ns[i]);
			ay.hi = fmax(ay.hi, s[k].ns[i]);
			ax.hi = fmax(ax.hi, nines(s[k].pct[i]));
		}
		any += s[k].n > 0;
	}
	if (!any || !(ay.hi > 0))
		return -1;
	axis_nice(&ay);
	svg_begin(f, W, H, title);
	svg_heading(f, 8, 18, 12, title, 70);
	for (size_t k = 0; k < nseries; k++) {
		double lx = L + (double)k * 130;

		svg_line(f, lx, 33, lx + 16, 33, svg_series_colour[k], 2.5);
		svg_text(f, lx + 20, 37, "start", 11, SVG_INK, labels[k]);
	}
	nt = axis_ticks(&ay, ticks, SVG_MAX_TICKS);
	for (size_t t = 0; t < nt; t++) {
		double y = axis_map(&ay, ticks[t]);
		char buf[32];

		svg_line(f, L, y, W - R, y, SVG_GRID, 1);
		unit_format(buf, sizeof(buf), UNIT_NS, ticks[t], ticks[t]);
		svg_text(f, L - 6, y + 4, "end", 11, SVG_INK, buf);
	}
	for (size_t t = 0; t < sizeof(xt) / sizeof(xt[0]); t++) {
		double x = axis_map(&ax, nines(xt[t]));
		char buf[16];

		if (nines(xt[t]) > ax.hi + 1e-9)
			continue;
		svg_line(f, x, T, x, H - B, SVG_GRID, 1);
		snprintf(buf, sizeof(buf), "p%g", xt[t]);
		svg_text(f, x, H - B + 16, "middle", 11, SVG_INK, buf);
	}
	svg_text(f, (L + W - R) / 2, H - 8, "middle", 12, SVG_INK, "percentile (clat)");
	svg_line(f, L, H - B, W - R, H - B, SVG_INK, 1);
	for (size_t k = 0; k < nseries; k++) {
		for (size_t i = 0; i < s[k].n; i++) {
			xs[i] = axis_map(&ax, nines(s[k].pct[i]));
			ys[i] = axis_map(&ay, s[k].ns[i]);
		}
		if (s[k].n > 1)
			svg_polyline(f, xs, ys, s[k].n, svg_series_colour[k], 2);
		for (size_t i = 0; i < s[k].n; i++) {
			char v[32], tip[96];

			unit_format(v, sizeof(v), UNIT_NS, s[k].ns[i], s[k].ns[i]);
			snprintf(tip, sizeof(tip), "%s p%g: %s", labels[k], s[k].pct[i], v);
			svg_circle(f, xs[i], ys[i], 2.5, svg_series_colour[k], tip);
		}
	}
	svg_end(f);
	return 0;
}
