// SPDX-License-Identifier: GPL-2.0
/* Statistics for comparisons: means, the moderated t-test, adjustments, outliers. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "compare/cmp_stats.h"

#define NEAR(a, b, tol) (fabs((a) - (b)) <= (tol))

static uint64_t rng = 88172645463325252ULL;

static double uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return ((double)(rng >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

static void test_means(void)
{
	const double x[] = { 1, 2, 4 };
	const double with_zero[] = { 1, 0, 4 };

	CHECK(NEAR(stats_arith_mean(x, 3), 7.0 / 3, 1e-12));
	/* Equal work at 1, 2 and 4 units/s takes 1 + 1/2 + 1/4 s: 3 units in 1.75 s. */
	CHECK(NEAR(stats_harmonic_mean(x, 3), 3 / 1.75, 1e-12));
	CHECK(stats_harmonic_mean(with_zero, 3) == 0);
	CHECK(NEAR(stats_median(x, 3), 2, 0));
	CHECK(NEAR(stats_median((const double[]){ 4, 1, 3, 2 }, 4), 2.5, 0));
	CHECK(stats_median(x, 0) == 0);
}

static void test_describe(void)
{
	const double x[] = { 100, 110, 90, 105, 95 };
	struct sample_stats s;

	stats_describe(x, 5, MEAN_ARITHMETIC, &s);
	CHECK_EQ_INT(s.n, 5);
	CHECK(NEAR(s.mean, 100, 1e-9));
	CHECK(NEAR(s.sd, sqrt(62.5), 1e-9));
	CHECK(NEAR(s.rsd, sqrt(62.5) / 100, 1e-9));
	CHECK(s.log_ok);
	CHECK(s.ci_lo < 100 && s.ci_hi > 100);
	/* The interval is a factor around the mean: lo x hi = mean^2. */
	CHECK(NEAR(s.ci_lo * s.ci_hi, 100 * 100, 1e-6));
	stats_describe(x, 5, MEAN_HARMONIC, &s);
	CHECK(s.mean < 100);
	stats_describe(x, 1, MEAN_HARMONIC, &s);
	CHECK(s.ci_lo == s.mean && s.ci_hi == s.mean && s.sd == 0);
	stats_describe((const double[]){ -1, 1 }, 2, MEAN_HARMONIC, &s);
	CHECK(!s.log_ok && s.mean == 0);
}

/* Logs 0,1,2 against x,x+1,x+2: pooled variance 1, se sqrt(2/3), t = x / se. */
static void test_student_t_known_value(void)
{
	double x = 2.776445105 * sqrt(2.0 / 3.0); /* t(0.975, 4) */
	double a[3] = { exp(0), exp(1), exp(2) }, b[3] = { exp(x), exp(x + 1), exp(x + 2) };
	struct two_sample ts;
	struct eb_prior none = { 0 };
	struct t_test t;

	CHECK(stats_two_sample(a, 3, b, 3, &ts) == 0);
	CHECK(ts.on_logs);
	CHECK(NEAR(ts.diff, x, 1e-9));
	CHECK(NEAR(ts.s2, 1, 1e-9));
	CHECK(NEAR(ts.df, 4, 0));
	stats_moderated_t(&ts, &none, &t);
	CHECK(NEAR(t.t, 2.776445105, 1e-6));
	CHECK(NEAR(t.p, 0.05, 1e-6));
	CHECK(NEAR(t.df, 4, 0));
	/* What p = 0.05 needs is exactly this difference. */
	CHECK(NEAR(stats_t_detectable(&t, 0.05), x, 1e-6));
	CHECK(stats_two_sample(a, 1, b, 3, &ts) == -1);
}

static void test_moderation(void)
{
	enum { ROWS = 300, N = 5 };
	double s2[ROWS], df[ROWS];
	struct eb_prior p;
	struct two_sample ts = { .na = N, .nb = N, .diff = 0.1, .s2 = 0.0004, .df = 2 * N - 2 };
	struct t_test plain, moderated;

	/* Rows that share one noise: the prior is tight and sits at that noise. */
	for (int r = 0; r < ROWS; r++) {
		double v[2 * N], m = 0, ss = 0;

		for (int i = 0; i < 2 * N; i++) {
			v[i] = 0.03 * normal();
			m += v[i] / (2 * N);
		}
		for (int i = 0; i < 2 * N; i++)
			ss += (v[i] - m) * (v[i] - m);
		s2[r] = ss / (2 * N - 1);
		df[r] = 2 * N - 1;
	}
	stats_eb_fit(s2, df, ROWS, &p);
	CHECK_EQ_INT(p.nfit, ROWS);
	CHECK(p.d0 > 30);
	CHECK(NEAR(p.s0sq, 0.0009, 0.0009 * 0.15));

	/* A row whose own variance is far below the shared one gets a wider interval. */
	stats_moderated_t(&ts, &(struct eb_prior){ 0 }, &plain);
	stats_moderated_t(&ts, &p, &moderated);
	CHECK(moderated.se > plain.se);
	CHECK(moderated.df > plain.df);

	/* Rows with very different noise: the prior is weak. */
	for (int r = 0; r < ROWS; r++)
		s2[r] *= r % 2 ? 100 : 0.01;
	stats_eb_fit(s2, df, ROWS, &p);
	CHECK(p.d0 < 2);

	/* Too few rows: no prior at all. */
	stats_eb_fit(s2, df, STATS_EB_MIN_ROWS - 1, &p);
	CHECK(p.d0 == 0 && p.nfit == 0);
}

static void test_shared_noise_uses_normal(void)
{
	struct two_sample ts = { .na = 5, .nb = 5, .diff = 0.196, .s2 = 0.025, .df = 8 };
	struct eb_prior inf = { .d0 = INFINITY, .s0sq = 0.025 };
	struct t_test t;

	stats_moderated_t(&ts, &inf, &t);
	CHECK(isinf(t.df));
	CHECK(NEAR(t.se, 0.1, 1e-9));
	CHECK(NEAR(t.p, 0.05, 1e-3));
	CHECK(NEAR(stats_t_detectable(&t, 0.05), 0.196, 1e-3));
}

static void test_adjustments(void)
{
	const double p[] = { 0.01, 0.04, 0.03, 0.005 };
	double q[4];

	CHECK(stats_bh_adjust(p, 4, q) == 0);
	CHECK(NEAR(q[0], 0.02, 1e-12));
	CHECK(NEAR(q[1], 0.04, 1e-12));
	CHECK(NEAR(q[2], 0.04, 1e-12));
	CHECK(NEAR(q[3], 0.02, 1e-12));
	CHECK(stats_holm_adjust(p, 4, q) == 0);
	CHECK(NEAR(q[0], 0.03, 1e-12));
	CHECK(NEAR(q[1], 0.06, 1e-12));
	CHECK(NEAR(q[2], 0.06, 1e-12));
	CHECK(NEAR(q[3], 0.02, 1e-12));
	CHECK(NEAR(stats_simes(p, 4), 0.02, 1e-12));
	CHECK(stats_simes(p, 0) == 1);
	CHECK(stats_bh_adjust(p, 0, q) == 0);
}

static void test_outliers(void)
{
	const double x[] = { 100, 101, 99, 100.5, 150 };
	bool out[5];

	CHECK_EQ_INT(stats_outliers(x, 5, 0, STATS_OUTLIER_K, out), 1);
	CHECK(out[4] && !out[0] && !out[3]);
	/* A floor at the metric's usual noise (here 20 %) keeps the value in. */
	CHECK_EQ_INT(stats_outliers(x, 5, 0.2, STATS_OUTLIER_K, out), 0);
	CHECK_EQ_INT(stats_outliers((const double[]){ 100, 101, 102 }, 3, 0.01, 5, out), 0);
	CHECK_EQ_INT(stats_outliers(x, 2, 0, STATS_OUTLIER_K, out), 0);
	/* With 3 repeats the MAD is one distance: two close values alone do not make an outlier. */
	CHECK_EQ_INT(stats_outliers((const double[]){ 100, 100.01, 104 }, 3, 0.02, 5, out), 0);
	CHECK_EQ_INT(stats_outliers((const double[]){ 100, 100.01, 104 }, 3, 0, 5, out), 1);
}

int main(void)
{
	RUN_TEST(test_means);
	RUN_TEST(test_describe);
	RUN_TEST(test_student_t_known_value);
	RUN_TEST(test_moderation);
	RUN_TEST(test_shared_noise_uses_normal);
	RUN_TEST(test_adjustments);
	RUN_TEST(test_outliers);
	CHECK_EXIT();
}
