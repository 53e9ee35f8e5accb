// SPDX-License-Identifier: GPL-2.0
/* The latency histogram and percentiles against exact ones. */
#include <stdlib.h>

#include "check.h"
#include "runner/engine/offsets.h"
#include "runner/engine/stats.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void test_bucket_error_bound(void)
{
	/* Every value lands in a bucket whose midpoint is within 1 % of it; no cap. */
	const uint64_t probes[] = { 0, 1, 127, 128, 129, 1000, 4095, 4096, 123456789,
				    17000000000ULL, 1ULL << 40, UINT64_MAX / 3, UINT64_MAX };
	struct rng r;

	rng_seed(&r, 1);
	for (int i = 0; i < 200000; i++) {
		uint64_t v = i < 13 ? probes[i] : rng_next(&r) >> rng_below(&r, 64);
		unsigned idx = lat_hist_index(v);
		uint64_t mid = lat_hist_value(idx);

		CHECK(idx < LAT_HIST_NR);
		CHECK(lat_hist_lower(idx) <= v);
		if (idx + 1 < LAT_HIST_NR)
			CHECK(v < lat_hist_lower(idx + 1));
		if (v >= 128) {
			double err = ((double)mid - (double)v) / (double)v;

			if (err < -0.01 || err > 0.01) {
				printf("# value %llu bucket midpoint %llu\n", (unsigned long long)v,
				       (unsigned long long)mid);
				CHECK(0);
				break;
			}
		} else {
			CHECK_EQ_INT(mid, v);
		}
	}
}

static void test_percentiles_vs_exact(void)
{
	/* A long-tailed mix, like real latencies: mostly microseconds, some seconds. */
	const unsigned n = 100000;
	const double keys[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9,
				99.95, 99.99 };
	const unsigned nkeys = sizeof(keys) / sizeof(keys[0]);
	uint64_t *vals = malloc(n * sizeof(*vals)), *hist = calloc(LAT_HIST_NR, 8);
	uint64_t out[32];
	struct rng r;

	CHECK(vals && hist);
	rng_seed(&r, 42);
	for (unsigned i = 0; i < n; i++) {
		uint64_t v = 2000 + rng_below(&r, 50000);

		if (rng_below(&r, 1000) == 0)
			v = 20000000000ULL + rng_below(&r, 1000000000); /* past fio's 17 s cap */
		vals[i] = v;
		hist[lat_hist_index(v)]++;
	}
	qsort(vals, n, sizeof(*vals), cmp_u64);
	CHECK_EQ_INT(stats_percentiles(hist, n, keys, nkeys, out), nkeys);
	for (unsigned k = 0; k < nkeys; k++) {
		/* fio's rule: the first value with at least p % of samples at or below it. */
		uint64_t rank = (uint64_t)((keys[k] / 100.0) * n + 0.999999);
		uint64_t exact = vals[(rank ? rank : 1) - 1];
		double err = ((double)out[k] - (double)exact) / (double)exact;

		if (err < -0.01 || err > 0.01) {
			printf("# p%.2f: histogram %llu, exact %llu\n", keys[k],
			       (unsigned long long)out[k], (unsigned long long)exact);
			CHECK(0);
		}
	}
	free(vals);
	free(hist);
}

static void test_finalize_moments(void)
{
	static struct job_stats st;
	struct job_stats *m[1] = { &st };
	struct job_options o;
	struct jr_job jr;

	memset(&jr, 0, sizeof(jr));
	CHECK_EQ_INT(job_options_init(&o), 0);
	stats_reset(&st, 0);
	st.start_ns = 0;
	st.end_ns = 2000000000ULL;
	/* 1, 2, 3, 4: mean 2.5, sample stddev 1.29099 */
	for (uint64_t v = 1; v <= 4; v++) {
		stats_lat_add(&st.dir[DDIR_READ].clat, v * 1000);
		stats_lat_add(&st.dir[DDIR_READ].lat, v * 1000);
		st.dir[DDIR_READ].clat_hist[lat_hist_index(v * 1000)]++;
		st.dir[DDIR_READ].ios++;
		st.dir[DDIR_READ].io_bytes += 4096;
	}
	CHECK_EQ_INT(stats_finalize(m, 1, &o, 1, &jr), 0);
	CHECK_EQ_INT(jr.dir[DDIR_READ].clat.min, 1000);
	CHECK_EQ_INT(jr.dir[DDIR_READ].clat.max, 4000);
	CHECK(jr.dir[DDIR_READ].clat.mean == 2500.0);
	CHECK(jr.dir[DDIR_READ].clat.stddev > 1290.99 && jr.dir[DDIR_READ].clat.stddev < 1291.0);
	CHECK_EQ_INT(jr.dir[DDIR_READ].runtime_ms, 2000);
	CHECK_EQ_INT(jr.dir[DDIR_READ].bw_bytes, 16384 * 1000 / 2000);
	CHECK(jr.dir[DDIR_READ].clat.nbins == 4);
	CHECK(jr.latency_us[0] > 24.9 && jr.latency_us[0] < 25.1); /* 1000 ns: "2=" usec bucket */
	jr_job_free(&jr);
	job_options_free(&o);
}

int main(void)
{
	RUN_TEST(test_bucket_error_bound);
	RUN_TEST(test_percentiles_vs_exact);
	RUN_TEST(test_finalize_moments);
	CHECK_EXIT();
}
