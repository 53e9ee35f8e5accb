/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The result of a fio-style run: what fio's JSON holds, as plain data.
 *
 * The runner fills it from its statistics; the host command fills it by
 * loading a record's JSON back. Both output writers (report_normal.c,
 * report_json.c) read only this, so a stored result prints the same
 * report as the run that made it. No pointer here points into the engine:
 * every array is owned by the struct and freed by jr_run_free.
 *
 * Units are fio's: bytes, nanoseconds for latencies, KiB/s for bw, ms for
 * runtimes, percent for cpu and distributions.
 */
#ifndef IOMATRIX_RECORDS_JOB_RESULT_H
#define IOMATRIX_RECORDS_JOB_RESULT_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "matrix/job_options.h"

#define JR_DEPTH_NR 7 /* IO depths 1,2,4,8,16,32,>=64; submit/complete 0,4,8,16,32,64,>=64 */
#define JR_LAT_N_NR 10
#define JR_LAT_U_NR 10
#define JR_LAT_M_NR 12

struct jr_bin {
	uint64_t value; /* the bucket's midpoint, ns */
	uint64_t count;
};

struct jr_lat {
	uint64_t min, max, n;
	double mean, stddev;
	uint32_t npct;			  /* percentiles present (0: none) */
	uint64_t pct_val[PCT_LIST_MAX];	  /* for jr_job.pct_keys[i] */
	struct jr_bin *bins;		  /* json+: non-empty buckets, or NULL */
	size_t nbins;
};

struct jr_ddir {
	uint64_t io_bytes;
	uint64_t bw_bytes; /* bytes/s over the runtime */
	uint64_t bw;	   /* KiB/s */
	double iops;
	uint64_t runtime_ms;
	uint64_t total_ios, short_ios, drop_ios;
	struct jr_lat slat, clat, lat;
	uint64_t bw_min, bw_max, bw_samples; /* KiB/s samples every 500 ms */
	double bw_agg, bw_mean, bw_dev;
	uint64_t iops_min, iops_max, iops_samples;
	double iops_mean, iops_stddev;
};

struct jr_kv {
	char *key;
	char *value; /* NULL: a bare flag (printed as fio does, with an empty value) */
};

struct jr_job {
	char *name;
	char *description;
	int groupid;
	int error;     /* an errno value, 0 when the job succeeded */
	char *errmsg;  /* one line, or NULL */
	uint32_t members; /* jobs merged into this one (group_reporting) */
	int pid;
	time_t end_time;
	struct jr_kv *opts; /* "job options", as written */
	size_t nopts;
	uint32_t kb_base;

	/*
	 * What the report's header line shows. rw and ioengine are text, as
	 * fio names them: a result loaded from fio's own JSON may name an
	 * engine iomatrix does not have.
	 */
	char rw[32];
	char ioengine[64];
	uint32_t iodepth;
	uint32_t bs_min[DDIR_NR], bs_max[DDIR_NR];
	int thread;

	struct jr_ddir dir[DDIR_NR];
	uint64_t sync_total_ios;
	struct jr_lat sync_lat;

	uint64_t job_runtime_ms;
	uint64_t elapsed_s;
	double usr_cpu, sys_cpu;
	uint64_t ctx, majf, minf;
	double iodepth_level[JR_DEPTH_NR];
	double iodepth_submit[JR_DEPTH_NR];
	double iodepth_complete[JR_DEPTH_NR];
	double latency_ns[JR_LAT_N_NR];
	double latency_us[JR_LAT_U_NR];
	double latency_ms[JR_LAT_M_NR];
	uint32_t latency_depth;

	uint32_t npct;
	double pct_keys[PCT_LIST_MAX];
	int clat_percentiles, lat_percentiles;

	/* iomatrix's own, under the job's "iomatrix" key. */
	uint64_t verify_blocks, verify_errors;
	uint64_t bytes_per_loop;
	uint32_t loops_done;
};

struct jr_disk {
	char name[64];
	uint64_t ios[2], merges[2], sectors[2], ticks[2], in_queue, io_ticks, msec;
	double util;
};

struct jr_run {
	char fio_version[64];
	time_t timestamp;
	uint64_t timestamp_ms;
	struct jr_kv *global_opts;
	size_t nglobal;
	struct jr_job *jobs;
	size_t njobs;
	struct jr_disk *disks;
	size_t ndisks;
	uint32_t started; /* workers started (clones counted) */
	int threads;	  /* "Starting N threads" rather than processes */
};

/* Group totals for fio's "Run status group" lines. */
struct jr_group {
	int groupid;
	uint32_t kb_base;
	uint64_t io_bytes[DDIR_NR];
	uint64_t agg_bw[DDIR_NR]; /* bytes/s: io over the longest runtime */
	uint64_t min_bw[DDIR_NR], max_bw[DDIR_NR];
	uint64_t min_run[DDIR_NR], max_run[DDIR_NR];
};

/*
 * fio's JSON key names, shared by the writer (report_json.c) and the host's
 * loader: the directions, the IO depth and batch buckets, the latency
 * buckets (latency_ns and latency_us use the first JR_LAT_N_NR).
 */
extern const char *const jr_ddir_keys[DDIR_NR];
extern const char *const jr_depth_keys[JR_DEPTH_NR];
extern const char *const jr_batch_keys[JR_DEPTH_NR];
extern const char *const jr_lat_keys[JR_LAT_M_NR];

/* Groups of r in order; *out is malloc'd. Returns 0 or -1 (out of memory). */
int jr_groups(const struct jr_run *r, struct jr_group **out, size_t *n);
const struct jr_group *jr_group_of(const struct jr_group *g, size_t n, int groupid);

/* The share of the group's bandwidth a job's mean sample is (fio's "per="). */
double jr_bw_agg_pct(const struct jr_group *g, int dir, double bw_mean_kib);

void jr_job_free(struct jr_job *j);
void jr_run_free(struct jr_run *r);

#endif
