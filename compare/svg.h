/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Drawing SVG by hand, for charts inside a self-contained HTML report: the
 * elements the charts need, escaping, axes with readable ticks (linear or
 * logarithmic) and one colour table. No scripts, no external resources.
 */
#ifndef IOMATRIX_COMPARE_SVG_H
#define IOMATRIX_COMPARE_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define SVG_MAX_TICKS 16

/* Colours of series (base first) and of verdicts. */
extern const char *const svg_series_colour[8];
#define SVG_WORSE "#c62828"
#define SVG_BETTER "#2e7d32"
#define SVG_GRID "#dddddd"
#define SVG_INK "#222222"

void xml_escape(FILE *f, const char *s);

void svg_begin(FILE *f, double w, double h, const char *title);
void svg_end(FILE *f);
void svg_text(FILE *f, double x, double y, const char *anchor, double size, const char *fill,
	      const char *text);
/* A left-aligned heading cut to max characters ("..." at the end); the full text is the <title>. */
void svg_heading(FILE *f, double x, double y, double size, const char *text, size_t max);
/* A right-aligned label (ending at x), cut the same way. */
void svg_label_end(FILE *f, double x, double y, const char *text, size_t max);
void svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *stroke,
	      double width);
/* A rectangle with a tooltip (<title>) when tip is not NULL. */
void svg_rect(FILE *f, double x, double y, double w, double h, const char *fill, const char *tip);
void svg_circle(FILE *f, double x, double y, double r, const char *fill, const char *tip);
void svg_polyline(FILE *f, const double *x, const double *y, size_t n, const char *stroke,
		  double width);
/* An error bar from lo to hi (pixels) at position at; horizontal or vertical. */
void svg_whisker(FILE *f, bool horizontal, double at, double lo, double hi, const char *stroke);

struct axis {
	double lo, hi;	     /* data range */
	double px_lo, px_hi; /* where lo and hi land */
	bool log;	     /* log10 scale (values > 0) */
};

double axis_map(const struct axis *a, double v);
/* Widens [lo, hi] to round numbers (from 0 for linear axes that start at 0). */
void axis_nice(struct axis *a);
size_t axis_ticks(const struct axis *a, double *ticks, size_t max);

#endif
