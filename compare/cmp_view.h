/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the layouts share: which dimensions vary (the others go to one head
 * line), short keys, the rows to show in which order, a cell's primary
 * metric, the dimension a curve runs along, and the marks.
 */
#ifndef IOMATRIX_COMPARE_CMP_VIEW_H
#define IOMATRIX_COMPARE_CMP_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "compare/cmp_report.h"

#define VIEW_MAX_DIMS 16

struct view_dims {
	size_t n;
	const char *name[VIEW_MAX_DIMS];   /* in matrix order */
	bool varies[VIEW_MAX_DIMS];
	const char *value[VIEW_MAX_DIMS];  /* the one value of a dimension that does not vary */
};

/* The dimensions of every cell in the comparisons, in first-seen order. */
void view_dims(const struct cmp_report *r, struct view_dims *d);
/* "fs=ext4 workload=randrw": the dimensions that do not vary; "" when all vary. */
void view_common_line(const struct view_dims *d, char *buf, size_t len);
/* The key with only the dimensions that vary ("-" when none do). */
void view_short_key(const struct view_dims *d, const struct cmp_cell *c, char *buf, size_t len);
const char *view_cell_dim(const struct cmp_cell *c, const char *name);

/* Rows of c to show, filtered (--only-significant) and sorted (--sort). */
size_t view_rows(const struct cmp_report *r, const struct comparison *c, size_t **order);
bool view_row_flagged(const struct cmp_row *row);
/*
 * Cells of c to show, for the layouts with a line or block per cell:
 * --only-significant keeps cells with a flagged row; --sort change orders
 * them by the largest change of their primary metric.
 */
size_t view_cells(const struct cmp_report *r, const struct comparison *c, size_t **order);

/*
 * The metric a one-number layout shows for a cell: the first rate (the
 * metric table's order) with data, else the first row. NULL: no rows.
 */
const struct cmp_row *view_primary_row(const struct comparison *c, const struct cmp_cell *cell);
const struct cmp_row *view_cell_row(const struct comparison *c, const struct cmp_cell *cell,
				    const struct metric *m);

/* The curve's x dimension: requested, else the varying numeric one with most values. */
const char *view_curve_dim(const struct cmp_report *r, const struct view_dims *d);

/* "worse", "better", "", "n=1: cannot judge", "missing" ...; " o" added for outliers. */
void view_mark(const struct comparison *c, const struct cmp_row *row, char *buf, size_t len);
/* One character for compact layouts: '*' flagged, '?' cannot judge, ' ' otherwise. */
char view_mark_char(const struct cmp_row *row);
/* "+5.2%" or "-"; "±2.1/3.0%" */
void view_change(const struct cmp_row *row, char *buf, size_t len);
void view_rsd(const struct cmp_row *row, char *buf, size_t len);
/* The spread of repeats within a run, base/new: "4.1/-%" */
void view_wrsd(const struct cmp_row *row, char *buf, size_t len);
/* Under the run unit, the spread of repeats within runs gets a column when there is one. */
bool view_wrsd_shown(const struct comparison *c);
void view_n(const struct cmp_row *row, char *buf, size_t len);

/* --- the head every format shows ------------------------------------------ */

#define VIEW_HEAD_MAX 28
#define VIEW_LINE 1024

struct head_line {
	const char *kind; /* "verdict", "base", "new", "missing", "failed", "mismatch",
			     "unit", "repeats", "outliers", "resolution", "method",
			     "warning" */
	char text[VIEW_LINE];
};

/* The verdict line first, then the sets, then one line per problem. */
size_t view_head_lines(const struct comparison *c, struct head_line *out, size_t max);

#endif
