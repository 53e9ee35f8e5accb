/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics as an IO engine's worker collects them, and their turning
 * into a struct jr_job (records/job_result.h) when the run ends.
 *
 * The hot path is stats_lat_add and lat_hist_index: compares, adds and a
 * 64x64->128 multiply; no locks (each worker owns its struct, which lives
 * in memory shared with the parent so forked workers can hand it back),
 * no allocation, no floating point.
 */
#ifndef IOMATRIX_RUNNER_ENGINE_STATS_H
#define IOMATRIX_RUNNER_ENGINE_STATS_H

#include <stdint.h>

#include "matrix/job_options.h"
#include "records/job_result.h"
#include "records/lat_hist.h"

#define SAMPLE_INTERVAL_NS 500000000ULL /* fio's bw_avg_time / iops_avg_time */

struct lat_acc {
	uint64_t min, max, n, sum;
	unsigned __int128 sumsq;
};

struct sample_acc {
	double min, max, sum, sumsq;
	uint64_t n;
};

/* What a completion updates first, in the first cache line (the struct is aligned to one). */
struct ddir_stats {
	uint64_t io_bytes, ios;
	struct lat_acc clat;
	struct lat_acc lat, slat;
	uint64_t short_ios, drop_ios;
	struct sample_acc bw, iops;
	uint64_t last_bytes, last_ios; /* at the previous sample */
	uint64_t clat_hist[LAT_HIST_NR];
	uint64_t lat_hist[LAT_HIST_NR]; /* only with lat_percentiles */
} __attribute__((aligned(64)));

struct job_stats {
	struct ddir_stats dir[DDIR_NR];
	struct lat_acc sync_lat;
	uint64_t sync_hist[LAT_HIST_NR];
	uint64_t depth_map[JR_DEPTH_NR];
	uint64_t submit_map[JR_DEPTH_NR], complete_map[JR_DEPTH_NR];
	uint64_t total_submit, total_complete;
	uint64_t start_ns, end_ns, last_sample_ns, launch_ns;
	uint64_t usr_us, sys_us, ctx, majf, minf;
	int sync_engine;   /* lat is clat, slat is not measured */
	int error;	   /* errno of the first failure */
	char errmsg[256];
	uint64_t verify_blocks, verify_errors;
	uint64_t bytes_per_loop;
	uint32_t loops_done;
	int pid;
	int setup_failed;     /* failed before any IO: the run is refused */
	char err_option[32];  /* the option to blame for a setup failure */
};

static inline void stats_lat_add(struct lat_acc *a, uint64_t v)
{
	if (v < a->min)
		a->min = v;
	if (v > a->max)
		a->max = v;
	a->n++;
	a->sum += v;
	a->sumsq += (unsigned __int128)v * v;
}

/* fio's IO-depth buckets: 1,2,4,8,16,32,>=64 (index of the largest power <= n). */
static inline unsigned stats_depth_bucket(unsigned n)
{
	unsigned b = 0;

	while (b < JR_DEPTH_NR - 1 && (1u << (b + 1)) <= n)
		b++;
	return b;
}

/* fio's submit/complete buckets: 0, 1-4, 5-8, 9-16, 17-32, 33-64, >64. */
static inline unsigned stats_batch_bucket(unsigned n)
{
	if (n == 0)
		return 0;
	if (n <= 4)
		return 1;
	if (n <= 8)
		return 2;
	if (n <= 16)
		return 3;
	if (n <= 32)
		return 4;
	if (n <= 64)
		return 5;
	return 6;
}

/* Clears s for a new measurement; fresh memory (zeroed) skips the histograms. */
void stats_reset(struct job_stats *s, int fresh);
/* A bw/iops sample for each direction the job does (rw bits), at time now. */
void stats_sample(struct job_stats *s, uint32_t rw, uint64_t now);

/*
 * The report of one job, or of several merged (group_reporting): jr is
 * filled from members[0..n), named after the first. o is the job's options
 * (percentiles, kb_base, header fields). Returns 0 or -1 (out of memory).
 */
int stats_finalize(struct job_stats *const *members, unsigned n, const struct job_options *o,
		   int json_plus, struct jr_job *jr);

/* Exact percentiles of a histogram, as fio computes them (for tests too). */
unsigned stats_percentiles(const uint64_t *hist, uint64_t n, const double *keys, unsigned nkeys,
			   uint64_t *out);

#endif
