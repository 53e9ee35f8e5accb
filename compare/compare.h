/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Comparing two sides cell by cell: the model every output format renders.
 * A side is one result set or the merged runs (boots) of one kernel
 * (rs_side.h). compare_sets() matches cells by cell.key, reads the chosen
 * metrics from every ok repeat, reduces them to the unit of replication
 * (one value per run, or per repeat), marks outliers, tests each (cell,
 * metric) with a moderated t-test on logs, adjusts the p-values of the whole
 * comparison with Benjamini-Hochberg, and gives each row and cell a verdict.
 */
#ifndef IOMATRIX_COMPARE_COMPARE_H
#define IOMATRIX_COMPARE_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "compare/metrics.h"
#include "records/rs_load.h"
#include "compare/cmp_stats.h"

#define CMP_DEFAULT_ALPHA 0.05
#define CMP_DEFAULT_MIN_EFFECT 3.0 /* percent; docs/compare.md says why not 5 */

enum cmp_verdict {
	CMP_UNCHANGED,
	CMP_BETTER,
	CMP_WORSE,
	CMP_CANNOT_JUDGE, /* fewer than 2 repeats on a side: n=1 */
	CMP_NO_DATA,	  /* the metric exists on one side only */
	CMP_FAILED,	  /* no ok record on a side */
	CMP_MISSING,	  /* the cell has no record at all on a side */
	CMP_VERDICT_COUNT,
};

const char *cmp_verdict_name(enum cmp_verdict v);

/*
 * The unit of replication: what one value of a side's sample is. A kernel
 * comparison is between boots, and repeats in one boot share its
 * conditions, so their spread is not the noise between boots.
 */
enum cmp_unit {
	CMP_UNIT_AUTO,	 /* the run; the repeat when both sides are views of one run (--versus) */
	CMP_UNIT_RUN,	 /* one value per run: its mean over its repeats; n = runs */
	CMP_UNIT_REPEAT, /* every repeat of every run is one value; n = repeats */
};

const char *cmp_unit_name(enum cmp_unit u);

struct cmp_filter {
	char *dim;
	char *value;
};

enum cmp_adjust {
	/*
	 * Benjamini-Hochberg in two stages (Benjamini and Bogomolov 2014): over
	 * cells first, each cell's rows combined by Simes, then over the rows of
	 * the selected cells at alpha x selected / cells. The false discovery
	 * rate holds for cells, as the verdict counts them, and a cell's
	 * metrics that move together (bandwidth, IOPS, latency) count once.
	 */
	ADJUST_BH,
	ADJUST_HOLM, /* Holm over all rows: the family-wise error rate */
};

struct cmp_options {
	double alpha;
	enum cmp_adjust adjust;
	double min_effect;	 /* percent */
	bool exclude_outliers;
	enum cmp_unit unit;
	const struct metric **metrics; /* NULL: the table's defaults */
	size_t nmetrics;
	const struct cmp_filter *where; /* same dim: any value; different dims: all */
	size_t nwhere;
};

void cmp_options_default(struct cmp_options *o);

struct cmp_side {
	/* The sample the test takes, one value per unit, in run and repeat order. */
	size_t nall;
	double *vals;	 /* a run's mean over its repeats (unit run), or a repeat's value */
	int *runs;	 /* the run of each value (0 for a side of one run) */
	int *repeats;	 /* the repeat of each value; -1 for a run's mean */
	bool *outlier;
	size_t noutliers;
	struct sample_stats st; /* over the values used: all, or without outliers */
	/* Every ok repeat behind the sample. */
	size_t nraw;
	double *raw;
	int *raw_runs;
	int *raw_repeats;
	/*
	 * The relative spread of the repeats within a run, pooled over the runs
	 * (sqrt of the (n-1)-weighted mean of each run's rsd squared): reported,
	 * never the test's variance under the run unit. NAN when no run has 2.
	 */
	double within_rsd;
};

struct cmp_row {
	size_t cell;		/* index into comparison.cells */
	const struct metric *m;
	struct cmp_side base;
	struct cmp_side new;
	double change;		/* percent, new against base */
	bool tested;
	struct two_sample ts;	/* the samples, on logs */
	struct t_test t;	/* the moderated t-test */
	double q;		/* adjusted p (Benjamini-Hochberg or Holm) */
	double detectable;	/* percent: the smallest change this row could have flagged */
	enum cmp_verdict v;
};

struct cmp_cell {
	const char *key;
	int index;
	const struct rs_cell *base;
	const struct rs_cell *new;
	enum cmp_verdict v;
	size_t ntested;		/* rows tested */
	double p;		/* Simes' combination of the rows' p-values */
	double q;		/* adjusted over the cells (Benjamini-Hochberg) */
	const struct rs_record *failed; /* a failed cell's first record that is not ok */
	bool failed_in_new;		/* which side of a failed cell has no ok record */
	size_t first_row;
	size_t nrows;
};

#define CMP_MAX_METRICS 32

/* The variance prior of one metric, fitted over all of its rows. */
struct cmp_prior {
	const struct metric *m;
	struct eb_prior p;
};

struct comparison {
	const struct result_set *base;
	const struct result_set *new;
	struct cmp_options opt;
	enum cmp_unit unit;	/* the unit the test used: run or repeat (opt.unit resolved) */
	bool same_boot;		/* both sides are views of the same runs (--versus) */
	size_t ncells;
	struct cmp_cell *cells;	/* base order, then cells only in new */
	size_t nrows;
	struct cmp_row *rows;
	size_t ntests;		/* rows tested */
	size_t ntested_cells;	/* cells with a tested row: the first family of the BH procedure */
	size_t nselected;	/* cells its first stage selected */
	size_t cells_by_verdict[CMP_VERDICT_COUNT];
	size_t noutliers;	/* values marked as outliers, both sides */
	size_t noutlier_rows;
	size_t nexcluded;	/* of them left out (--exclude-outliers) */
	double p_cutoff;	/* the largest p the adjustment let through (or alpha/m) */
	size_t npriors;
	struct cmp_prior priors[CMP_MAX_METRICS];
};

int compare_sets(const struct result_set *base, const struct result_set *new,
		 const struct cmp_options *opt, struct comparison *out, char *err, size_t errlen);
void comparison_free(struct comparison *c);

/*
 * --metric M,... ('all' for every metric) and --where DIM=V,... as the
 * commands take them; errors go to stderr naming the command. The lists are
 * freed with free() and cmp_free_where().
 */
int cmp_parse_metrics(const char *cmd, const char *spec, const struct metric ***out, size_t *n);
int cmp_parse_where(const char *cmd, const char *spec, struct cmp_filter **out, size_t *n);
void cmp_free_where(struct cmp_filter *w, size_t n);

/* Whether a cell passes the --where filters. */
bool cmp_cell_selected(const struct rs_cell *c, const struct cmp_options *o);

/*
 * One-line notes for the head of every report; each returns false when
 * there is nothing to say. The verdict line is always there.
 */
void cmp_verdict_line(const struct comparison *c, char *buf, size_t len);
bool cmp_missing_line(const struct comparison *c, bool in_new, char *buf, size_t len);
bool cmp_failed_line(const struct comparison *c, char *buf, size_t len);
bool cmp_mismatch_line(const struct comparison *c, char *buf, size_t len);
/* Runs per cell and repeats per run of each side (repeats per cell under the repeat unit). */
bool cmp_repeats_line(const struct comparison *c, char *buf, size_t len);
/*
 * The unit of replication and what it means here, line i (0 or 1; false
 * when there is no such line): what one value of a side is, or, when a
 * side has one run, that nothing is judged and what to do (boot each
 * kernel 3+ times), or the warning of --unit repeat on one boot a side.
 */
bool cmp_unit_line(const struct comparison *c, int i, char *buf, size_t len);
/* Whether some side has a run with two repeats or more: within-run spread to show. */
bool cmp_has_within(const struct comparison *c);
bool cmp_outliers_line(const struct comparison *c, char *buf, size_t len);
/* What the noise and the repeats allow: the changes a row needed to be flagged. */
bool cmp_resolution_line(const struct comparison *c, char *buf, size_t len);
void cmp_method_line(const struct comparison *c, char *buf, size_t len);

#endif
