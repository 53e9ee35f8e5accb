/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A metric along one dimension (seed 001: IOPS against iodepth), one panel
 * per combination of the other varying dimensions (per readahead), one
 * series per kernel: the base, then each NEW. Shared by the text table and
 * the SVG chart of the same shape.
 */
#ifndef IOMATRIX_COMPARE_CURVE_H
#define IOMATRIX_COMPARE_CURVE_H

#include "compare/cmp_view.h"

#define CURVE_MAX_SERIES 8

struct curve_point {
	const char *xval;
	double x;
	bool has[CURVE_MAX_SERIES];
	double y[CURVE_MAX_SERIES];
	double lo[CURVE_MAX_SERIES]; /* 95 % interval of the mean */
	double hi[CURVE_MAX_SERIES];
	/* for series k >= 1: the row comparing it with the base, or NULL */
	const struct cmp_row *row[CURVE_MAX_SERIES];
};

struct curve_panel {
	char title[512]; /* "readahead=64" ("" when nothing else varies) */
	const struct metric *m;
	size_t npoints;
	struct curve_point *pts; /* ascending x */
};

struct curve_set {
	const char *xdim;
	size_t nseries;
	const char *series[CURVE_MAX_SERIES];
	size_t npanels;
	struct curve_panel *panels;
};

/* 0; 1 when no dimension can serve as x; -1 out of memory. */
int curve_build(const struct cmp_report *r, const struct view_dims *d, struct curve_set *cs);
void curve_free(struct curve_set *cs);

#endif
