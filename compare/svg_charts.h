/* SPDX-License-Identifier: GPL-2.0 */
/* The report's charts, drawn as inline SVG: one function per kind of chart. */
#ifndef IOMATRIX_COMPARE_SVG_CHARTS_H
#define IOMATRIX_COMPARE_SVG_CHARTS_H

#include <stdio.h>

#include "compare/curve.h"

/*
 * Bars per cell for one metric: base and new with 95 % intervals, both
 * relative to the base mean (= 100 %) so cells of any size share the axis.
 * At most max_cells: flagged cells first, then the largest changes. Returns
 * how many cells were drawn (0: none had the metric on both sides).
 */
size_t svg_bars(FILE *f, const struct comparison *c, const struct view_dims *d,
		const struct metric *m, size_t max_cells);

/* One panel of a curve set: the metric along x, a line per series with intervals. */
void svg_curve(FILE *f, const struct curve_set *cs, const struct curve_panel *p);

/*
 * Completion-latency percentiles of one direction ("read"/"write") of one
 * cell, a line per series (the mean over repeats of each percentile), x on a
 * "nines" scale (50, 90, 99, 99.9, 99.99). 0 when drawn, -1 when no series
 * has percentiles.
 */
int svg_pctl(FILE *f, const char *title, const char *dir, const struct rs_cell *const *cells,
	     const char *const *labels, size_t nseries);

#endif
