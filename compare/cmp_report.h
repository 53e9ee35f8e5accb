/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rendering comparisons: what the options of `iomatrix compare` choose and
 * one entry point per format. Every format starts with the same head (the
 * verdict line first, then one line per problem: missing cells, failures,
 * mismatched matrices, outliers) and shows the same rows.
 */
#ifndef IOMATRIX_COMPARE_CMP_REPORT_H
#define IOMATRIX_COMPARE_CMP_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "compare/compare.h"

enum out_format {
	FMT_TEXT,
	FMT_MARKDOWN,
	FMT_CSV,
	FMT_JSON,
	FMT_HTML,
};

enum out_layout {
	LAYOUT_AUTO,
	LAYOUT_ROWS,	/* a row per cell and metric */
	LAYOUT_SEED000, /* before/after: READ bw, IOPS, latency | WRITE ... per cell */
	LAYOUT_SEED002, /* one line per cell: its dimensions and the % change */
	LAYOUT_CURVE,	/* a metric along one dimension (iodepth), a column per kernel */
};

enum out_sort {
	SORT_KEY,    /* matrix order */
	SORT_CHANGE, /* largest change first */
};

struct cmp_report {
	const struct comparison *cmps; /* one per NEW, all against the same base */
	size_t ncmps;
	enum out_format format;
	enum out_layout layout;
	enum out_sort sort;
	bool only_significant;
	bool metrics_chosen; /* --metric given: layouts show those metrics */
	const char *xdim;    /* curve layout: the dimension along x; NULL: chosen */
};

/* Text and Markdown (r->format says which). 0, or -1 when writing failed. */
int cmp_render_text(const struct cmp_report *r, FILE *f);
int cmp_render_csv(const struct cmp_report *r, FILE *f);
int cmp_render_json(const struct cmp_report *r, FILE *f);
int html_report_compare(const struct cmp_report *r, FILE *f);

#endif
