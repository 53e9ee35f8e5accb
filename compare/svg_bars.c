// SPDX-License-Identifier: GPL-2.0
/* Bars with confidence intervals per cell: base against new, base = 100 %. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/svg.h"
#include "compare/svg_charts.h"
#include "compare/metric_format.h"

#define W 960.0
#define LABEL_W 330.0
#define NOTE_W 120.0
#define TOP 46.0
#define BAR_H 8.0
#define GROUP_H 26.0
#define AXIS_H 34.0

/* Flagged rows first, then the largest |change| (qsort_r over row indices of arg). */
static int by_interest(const void *a, const void *b, void *arg)
{
	const struct comparison *pick_cmp = arg;
	const struct cmp_row *x = &pick_cmp->rows[*(const size_t *)a];
	const struct cmp_row *y = &pick_cmp->rows[*(const size_t *)b];
	int fx = x->v == CMP_BETTER || x->v == CMP_WORSE,
	    fy = y->v == CMP_BETTER || y->v == CMP_WORSE;

	if (fx != fy)
		return fy - fx;
	if (fabs(x->change) != fabs(y->change))
		return fabs(x->change) < fabs(y->change) ? 1 : -1;
	return (x->cell > y->cell) - (x->cell < y->cell);
}

static int by_cell(const void *a, const void *b, void *arg)
{
	const struct comparison *pick_cmp = arg;
	const struct cmp_row *x = &pick_cmp->rows[*(const size_t *)a];
	const struct cmp_row *y = &pick_cmp->rows[*(const size_t *)b];

	return (x->cell > y->cell) - (x->cell < y->cell);
}

static size_t pick_rows(const struct comparison *c, const struct metric *m, size_t max,
			size_t **out, size_t *total)
{
	size_t n = 0;

	*out = calloc(c->nrows + 1, sizeof(**out));
	if (!*out)
		return 0;
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].m == m && c->rows[i].base.st.n && c->rows[i].new.st.n &&
		    c->rows[i].base.st.mean > 0 && isfinite(c->rows[i].change))
			(*out)[n++] = i;
	*total = n;
	if (n > max) {
		qsort_r(*out, n, sizeof(**out), by_interest, (void *)c);
		n = max;
	}
	qsort_r(*out, n, sizeof(**out), by_cell, (void *)c);
	return n;
}

static void tip(char *buf, size_t len, const char *who, const struct cmp_row *row,
		const struct cmp_side *s)
{
	char mean[32], lo[32], hi[32];

	unit_format(mean, sizeof(mean), row->m->unit, s->st.mean, s->st.mean);
	unit_format(lo, sizeof(lo), row->m->unit, s->st.ci_lo, s->st.mean);
	unit_format(hi, sizeof(hi), row->m->unit, s->st.ci_hi, s->st.mean);
	snprintf(buf, len, "%s: %s (95%% %s .. %s), n=%zu, rsd %.1f%%", who, mean, lo, hi, s->st.n,
		 s->st.rsd * 100);
}

size_t svg_bars(FILE *f, const struct comparison *c, const struct view_dims *d,
		const struct metric *m, size_t max_cells)
{
	size_t *rows, total, n = pick_rows(c, m, max_cells, &rows, &total);
	struct axis ax = { .lo = 0, .hi = 100, .px_lo = LABEL_W, .px_hi = W - NOTE_W };
	double h, ticks[SVG_MAX_TICKS];
	size_t nt;
	char title[256], buf[512];

	if (!rows || n == 0) {
		free(rows);
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		const struct cmp_row *r = &c->rows[rows[i]];
		double bm = r->base.st.mean;

		ax.hi = fmax(ax.hi, fmax(r->base.st.ci_hi, r->new.st.ci_hi) / bm * 100);
	}
	axis_nice(&ax);
	h = TOP + (double)n * GROUP_H + AXIS_H;
	snprintf(title, sizeof(title), "%s: %s against %s (%s = 100 %%), 95 %% intervals%s",
		 m->name, c->new->label, c->base->label, c->base->label,
		 total > n ? ", flagged and largest changes first" : "");
	svg_begin(f, W, h, title);
	svg_text(f, 8, 18, "start", 14, SVG_INK, title);
	if (total > n) {
		snprintf(buf, sizeof(buf), "showing %zu of %zu cells", n, total);
		svg_text(f, 8, 34, "start", 11, "#666666", buf);
	}
	svg_rect(f, W - 300, 26, 10, 8, svg_series_colour[0], NULL);
	svg_text(f, W - 286, 34, "start", 11, SVG_INK, c->base->label);
	svg_rect(f, W - 150, 26, 10, 8, svg_series_colour[1], NULL);
	svg_text(f, W - 136, 34, "start", 11, SVG_INK, c->new->label);
	nt = axis_ticks(&ax, ticks, SVG_MAX_TICKS);
	for (size_t t = 0; t < nt; t++) {
		double x = axis_map(&ax, ticks[t]);

		svg_line(f, x, TOP - 4, x, h - AXIS_H + 4, ticks[t] == 100 ? "#999999" : SVG_GRID,
			 1);
		snprintf(buf, sizeof(buf), "%.0f%%", ticks[t]);
		svg_text(f, x, h - AXIS_H + 18, "middle", 11, SVG_INK, buf);
	}
	for (size_t i = 0; i < n; i++) {
		const struct cmp_row *r = &c->rows[rows[i]];
		double bm = r->base.st.mean, y = TOP + (double)i * GROUP_H;
		const char *colour = r->v == CMP_WORSE	  ? SVG_WORSE
				     : r->v == CMP_BETTER ? SVG_BETTER
							  : SVG_INK;
		char key[512], note[64];

		view_short_key(d, &c->cells[r->cell], key, sizeof(key));
		svg_label_end(f, LABEL_W - 6, y + BAR_H + 6, key, 52);
		tip(buf, sizeof(buf), c->base->label, r, &r->base);
		svg_rect(f, ax.px_lo, y + 2, axis_map(&ax, 100) - ax.px_lo, BAR_H,
			 svg_series_colour[0], buf);
		if (r->base.st.n > 1)
			svg_whisker(f, true, y + 2 + BAR_H / 2,
				    axis_map(&ax, r->base.st.ci_lo / bm * 100),
				    axis_map(&ax, r->base.st.ci_hi / bm * 100), SVG_INK);
		tip(buf, sizeof(buf), c->new->label, r, &r->new);
		svg_rect(f, ax.px_lo, y + 4 + BAR_H,
			 axis_map(&ax, r->new.st.mean / bm * 100) - ax.px_lo, BAR_H,
			 svg_series_colour[1], buf);
		if (r->new.st.n > 1)
			svg_whisker(f, true, y + 4 + BAR_H * 1.5,
				    axis_map(&ax, r->new.st.ci_lo / bm * 100),
				    axis_map(&ax, r->new.st.ci_hi / bm * 100), SVG_INK);
		snprintf(note, sizeof(note), "%+.1f%%%s", r->change,
			 r->v == CMP_WORSE ? " worse" : r->v == CMP_BETTER ? " better"
			 : r->v == CMP_CANNOT_JUDGE ? " n=1" : "");
		svg_text(f, W - NOTE_W + 8, y + BAR_H + 6, "start", 11, colour, note);
	}
	svg_end(f);
	free(rows);
	return n;
}
