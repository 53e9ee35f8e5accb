/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics for few repeats (docs/compare.md says why each choice):
 * - means: harmonic for rates, arithmetic otherwise (metrics.h);
 * - the test: Student's t on the logarithms of the values, so it judges the
 *   ratio new/base, with each row's variance moderated by the variances of
 *   all rows of the same metric (empirical Bayes, as limma);
 * - many cells at once: Benjamini-Hochberg adjusted p-values (q-values);
 * - outliers: distance from the median in robust standard deviations,
 *   reported and never dropped unless asked.
 */
#ifndef IOMATRIX_COMPARE_CMP_STATS_H
#define IOMATRIX_COMPARE_CMP_STATS_H

#include <stdbool.h>
#include <stddef.h>

#include "compare/metrics.h"

struct sample_stats {
	size_t n;
	double mean;	  /* harmonic or arithmetic, by the metric's kind */
	double sd;	  /* sample standard deviation (n - 1); 0 when n < 2 */
	double rsd;	  /* sd over the arithmetic mean: the relative noise */
	bool log_ok;	  /* every value > 0, so log_mean and log_sd hold */
	double log_mean;
	double log_sd;
	double ci_lo;	  /* 95 % interval for the mean; both = mean when n < 2 */
	double ci_hi;
};

void stats_describe(const double *x, size_t n, enum mean_kind kind, struct sample_stats *s);

double stats_arith_mean(const double *x, size_t n);
/* n over the sum of reciprocals; 0 when any value is <= 0. */
double stats_harmonic_mean(const double *x, size_t n);
/* The mean of the metric's kind: harmonic when asked and every value is > 0, else arithmetic. */
double stats_kind_mean(const double *x, size_t n, enum mean_kind kind);
/* Sorts a copy; 0 for n == 0. */
double stats_median(const double *x, size_t n);

/* The two samples of one row, reduced to what the test needs. */
struct two_sample {
	size_t na, nb;
	double diff;	/* mean(b) - mean(a), of the logs when on_logs */
	double s2;	/* pooled variance, of the logs when on_logs */
	double df;	/* na + nb - 2 */
	bool on_logs;	/* false: some value was <= 0, raw values were used */
};

/* -1 when either side has fewer than 2 values. */
int stats_two_sample(const double *a, size_t na, const double *b, size_t nb,
		     struct two_sample *ts);

/*
 * The empirical-Bayes prior of the variances of many rows (Smyth 2004, as
 * limma's fitFDist): a scaled inverse chi-square with d0 degrees of freedom
 * around s0sq. d0 is large when the rows' variances differ no more than
 * sampling explains (then each row's variance is pulled towards s0sq), and
 * small when they truly differ (then each row keeps its own).
 */
struct eb_prior {
	double d0;	/* 0: no prior (too few rows); INFINITY: all rows share s0sq */
	double s0sq;
	size_t nfit;	/* rows the fit used */
};

#define STATS_EB_MIN_ROWS 8

void stats_eb_fit(const double *s2, const double *df, size_t n, struct eb_prior *p);

struct t_test {
	double t;
	double df;	/* row df + d0 */
	double p;	/* two-sided */
	double se;	/* standard error of diff */
	bool on_logs;
};

/*
 * Student's t on the row's difference with its variance moderated by the
 * prior: (d0 s0sq + df s2) / (d0 + df), on d0 + df degrees of freedom.
 */
void stats_moderated_t(const struct two_sample *ts, const struct eb_prior *p, struct t_test *t);

/*
 * The smallest |diff| (in the units the test ran on) that would reach the
 * two-sided p-value p_needed with this test's standard error and degrees of
 * freedom: what this noise and these repeats can resolve.
 */
double stats_t_detectable(const struct t_test *t, double p_needed);

/*
 * Benjamini-Hochberg: q[i] is the smallest false discovery rate at which
 * p[i] would be called significant among all m tests.
 */
int stats_bh_adjust(const double *p, size_t m, double *q);
/*
 * Simes' combination of n p-values into one for "any of them": the smallest
 * n p(i) / i. Valid when the tests depend positively on each other, as the
 * metrics of one cell do (bandwidth, IOPS and latency move together).
 */
double stats_simes(const double *p, size_t n);

/*
 * Holm: q[i] is the smallest family-wise error rate at which p[i] would be
 * rejected; stricter than Benjamini-Hochberg when many rows truly change.
 */
int stats_holm_adjust(const double *p, size_t m, double *q);

/*
 * Marks in is_out the values farther than k robust standard deviations from
 * the median, in logs (raw values if any is <= 0). The robust standard
 * deviation is 1.4826 x MAD, but at least scale_floor: with 3 repeats the MAD
 * is one distance, often tiny, and alone would call ordinary noise an outlier.
 * Returns how many were marked; needs n >= 3.
 */
size_t stats_outliers(const double *x, size_t n, double scale_floor, double k, bool *is_out);

#define STATS_OUTLIER_K 5.0

#endif
