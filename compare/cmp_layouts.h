/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The text/Markdown layouts of a comparison, one file each. A layout fills a
 * table (or, for seed 000's exact look in text, prints its own lines);
 * md says Markdown instead of fixed-width text.
 */
#ifndef IOMATRIX_COMPARE_CMP_LAYOUTS_H
#define IOMATRIX_COMPARE_CMP_LAYOUTS_H

#include <stdio.h>

#include "compare/cmp_view.h"
#include "compare/table.h"

/* Text lines are kept within this many columns where the content allows. */
#define TEXT_COLUMNS 100

int layout_seed000(const struct cmp_report *r, const struct comparison *c,
		   const struct view_dims *d, FILE *f);
int layout_seed002(const struct cmp_report *r, const struct comparison *c,
		   const struct view_dims *d, FILE *f);
/* Along one dimension, every comparison at once: a column per kernel. */
int layout_curve(const struct cmp_report *r, const struct view_dims *d, FILE *f);

/* From column col on: change, rsd, wrsd (when shown), n and the mark of row. */
void layout_stat_cols(struct table *t, size_t col, const struct comparison *c,
		      const struct cmp_row *row);

/* A table in the report's format. */
int layout_print_table(const struct cmp_report *r, const struct table *t, FILE *f);

#endif
