// SPDX-License-Identifier: GPL-2.0
/*
 * fio 3.x's JSON: the same structure, key names and units as fio 3.33, so
 * tools that read fio's JSON read ours. What iomatrix adds is under
 * "iomatrix" (at the top and in each job), never in place of fio's keys.
 */
#include "records/report.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "matrix/job_parse.h"
#include "lib/json_out.h"
#include "records/lat_hist.h"
#include "lib/version.h"

static void kvs(struct jw *j, const char *key, const struct jr_kv *kv, size_t n)
{
	jw_obj_begin(j, key);
	for (size_t i = 0; i < n; i++)
		jw_str(j, kv[i].key, kv[i].value ? kv[i].value : "");
	jw_obj_end(j);
}

static void lat_obj(struct jw *j, const char *key, const struct jr_job *job, const struct jr_lat *l,
		    int with_pct, int plus)
{
	char name[32];

	jw_obj_begin(j, key);
	jw_uint(j, "min", l->min);
	jw_uint(j, "max", l->max);
	jw_double(j, "mean", l->mean);
	jw_double(j, "stddev", l->stddev);
	jw_uint(j, "N", l->n);
	if (with_pct && l->npct && l->n) {
		jw_obj_begin(j, "percentile");
		for (unsigned i = 0; i < l->npct; i++) {
			snprintf(name, sizeof(name), "%f", job->pct_keys[i]);
			jw_uint(j, name, l->pct_val[i]);
		}
		jw_obj_end(j);
		if (plus && l->bins) {
			jw_obj_begin(j, "bins");
			for (size_t i = 0; i < l->nbins; i++) {
				snprintf(name, sizeof(name), "%llu",
					 (unsigned long long)l->bins[i].value);
				jw_uint(j, name, l->bins[i].count);
			}
			jw_obj_end(j);
		}
	}
	jw_obj_end(j);
}

static void ddir_obj(struct jw *j, const char *key, const struct jr_job *job, int d,
		     const struct jr_group *g, int plus)
{
	const struct jr_ddir *dd = &job->dir[d];

	jw_obj_begin(j, key);
	jw_uint(j, "io_bytes", dd->io_bytes);
	jw_uint(j, "io_kbytes", dd->io_bytes >> 10);
	jw_uint(j, "bw_bytes", dd->bw_bytes);
	jw_uint(j, "bw", dd->bw);
	jw_double(j, "iops", dd->iops);
	jw_uint(j, "runtime", dd->runtime_ms);
	jw_uint(j, "total_ios", dd->total_ios);
	jw_uint(j, "short_ios", dd->short_ios);
	jw_uint(j, "drop_ios", dd->drop_ios);
	lat_obj(j, "slat_ns", job, &dd->slat, 0, plus);
	lat_obj(j, "clat_ns", job, &dd->clat, job->clat_percentiles, plus);
	lat_obj(j, "lat_ns", job, &dd->lat, job->lat_percentiles, plus);
	jw_uint(j, "bw_min", dd->bw_min);
	jw_uint(j, "bw_max", dd->bw_max);
	jw_double(j, "bw_agg", dd->bw_samples ? jr_bw_agg_pct(g, d, dd->bw_mean) : 0.0);
	jw_double(j, "bw_mean", dd->bw_mean);
	jw_double(j, "bw_dev", dd->bw_dev);
	jw_uint(j, "bw_samples", dd->bw_samples);
	jw_uint(j, "iops_min", dd->iops_min);
	jw_uint(j, "iops_max", dd->iops_max);
	jw_double(j, "iops_mean", dd->iops_mean);
	jw_double(j, "iops_stddev", dd->iops_stddev);
	jw_uint(j, "iops_samples", dd->iops_samples);
	jw_obj_end(j);
}

static void dist_obj(struct jw *j, const char *key, const char *const *names, const double *v,
		     int n)
{
	jw_obj_begin(j, key);
	for (int i = 0; i < n; i++)
		jw_double(j, names[i], v[i]);
	jw_obj_end(j);
}

/*
 * What the normal report shows and fio's JSON leaves out (the header line,
 * the pid and time of the job line): so a loaded result prints the same
 * text as the run did (records/jr_load.c).
 */
static void header_obj(struct jw *j, const struct jr_job *job)
{
	jw_int(j, "pid", job->pid);
	jw_int(j, "end_time", (long long)job->end_time);
	jw_str(j, "rw", job->rw);
	jw_str(j, "ioengine", job->ioengine);
	jw_uint(j, "iodepth", job->iodepth);
	jw_arr_begin(j, "bs_min");
	for (int d = 0; d < DDIR_NR; d++)
		jw_uint(j, NULL, job->bs_min[d]);
	jw_arr_end(j);
	jw_arr_begin(j, "bs_max");
	for (int d = 0; d < DDIR_NR; d++)
		jw_uint(j, NULL, job->bs_max[d]);
	jw_arr_end(j);
	jw_uint(j, "kb_base", job->kb_base);
	jw_bool(j, "thread", job->thread != 0);
}

static void job_obj(struct jw *j, const struct jr_job *job, const struct jr_group *g, int plus,
		    time_t now)
{
	jw_obj_begin(j, NULL);
	jw_str(j, "jobname", job->name);
	jw_int(j, "groupid", job->groupid);
	jw_int(j, "error", job->error);
	jw_int(j, "eta", 2147483647);
	jw_uint(j, "elapsed", job->elapsed_s ? job->elapsed_s : (uint64_t)(now > 0));
	if (job->nopts) /* fio leaves the key out for a job that sets nothing itself */
		kvs(j, "job options", job->opts, job->nopts);
	for (int d = 0; d < DDIR_NR; d++)
		ddir_obj(j, jr_ddir_keys[d], job, d, g, plus);
	jw_obj_begin(j, "sync");
	jw_uint(j, "total_ios", job->sync_total_ios);
	lat_obj(j, "lat_ns", job, &job->sync_lat, job->clat_percentiles || job->lat_percentiles,
		plus);
	jw_obj_end(j);
	jw_uint(j, "job_runtime", job->job_runtime_ms);
	jw_double(j, "usr_cpu", job->usr_cpu);
	jw_double(j, "sys_cpu", job->sys_cpu);
	jw_uint(j, "ctx", job->ctx);
	jw_uint(j, "majf", job->majf);
	jw_uint(j, "minf", job->minf);
	dist_obj(j, "iodepth_level", jr_depth_keys, job->iodepth_level, JR_DEPTH_NR);
	dist_obj(j, "iodepth_submit", jr_batch_keys, job->iodepth_submit, JR_DEPTH_NR);
	dist_obj(j, "iodepth_complete", jr_batch_keys, job->iodepth_complete, JR_DEPTH_NR);
	dist_obj(j, "latency_ns", jr_lat_keys, job->latency_ns, JR_LAT_N_NR);
	dist_obj(j, "latency_us", jr_lat_keys, job->latency_us, JR_LAT_U_NR);
	dist_obj(j, "latency_ms", jr_lat_keys, job->latency_ms, JR_LAT_M_NR);
	jw_uint(j, "latency_depth", job->latency_depth);
	jw_uint(j, "latency_target", 0);
	jw_double(j, "latency_percentile", 100.0);
	jw_uint(j, "latency_window", 0);
	if (job->description && *job->description)
		jw_str(j, "desc", job->description);
	jw_obj_begin(j, "iomatrix");
	jw_uint(j, "jobs", job->members);
	jw_str(j, "error_message", job->errmsg);
	jw_uint(j, "bytes_per_loop", job->bytes_per_loop);
	jw_uint(j, "loops_done", job->loops_done);
	jw_uint(j, "verify_blocks", job->verify_blocks);
	jw_uint(j, "verify_errors", job->verify_errors);
	header_obj(j, job);
	jw_obj_end(j);
	jw_obj_end(j);
}

static void disk_obj(struct jw *j, const struct jr_disk *d)
{
	jw_obj_begin(j, NULL);
	jw_str(j, "name", d->name);
	jw_uint(j, "read_ios", d->ios[0]);
	jw_uint(j, "write_ios", d->ios[1]);
	jw_uint(j, "read_merges", d->merges[0]);
	jw_uint(j, "write_merges", d->merges[1]);
	jw_uint(j, "read_ticks", d->ticks[0]);
	jw_uint(j, "write_ticks", d->ticks[1]);
	jw_uint(j, "in_queue", d->in_queue);
	jw_double(j, "util", d->util);
	jw_obj_end(j);
}

int report_json(FILE *f, const struct jr_run *r, int plus)
{
	struct jr_group *groups;
	struct jw j;
	char when[64];
	struct tm tm;
	size_t ng;

	if (jr_groups(r, &groups, &ng))
		return -1;
	localtime_r(&r->timestamp, &tm);
	strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);
	jw_init(&j, f, true);
	jw_obj_begin(&j, NULL);
	jw_str(&j, "fio version", r->fio_version);
	jw_int(&j, "timestamp", (long long)r->timestamp);
	jw_uint(&j, "timestamp_ms", r->timestamp_ms);
	jw_str(&j, "time", when);
	if (r->nglobal)
		kvs(&j, "global options", r->global_opts, r->nglobal);
	jw_arr_begin(&j, "jobs");
	for (size_t i = 0; i < r->njobs; i++)
		job_obj(&j, &r->jobs[i], jr_group_of(groups, ng, r->jobs[i].groupid), plus,
			r->timestamp);
	jw_arr_end(&j);
	if (r->ndisks) {
		jw_arr_begin(&j, "disk_util");
		for (size_t i = 0; i < r->ndisks; i++)
			disk_obj(&j, &r->disks[i]);
		jw_arr_end(&j);
	}
	jw_obj_begin(&j, "iomatrix");
	jw_str(&j, "version", IOMATRIX_VERSION);
	jw_str(&j, "fio_compatible", IOMATRIX_FIO_COMPAT);
	jw_uint(&j, "latency_histogram_sub_buckets", LAT_HIST_SUB);
	jw_obj_end(&j);
	jw_obj_end(&j);
	free(groups);
	if (jw_end(&j))
		return -1;
	return ferror(f) ? -1 : 0;
}

struct write_ctx {
	const struct jr_run *r;
	unsigned formats;
};

static int write_all(FILE *f, const void *arg)
{
	const struct write_ctx *c = arg;

	/* fio, asked for several formats, prints the JSON before the normal report. */
	if ((c->formats & (OUTPUT_JSON | OUTPUT_JSON_PLUS)) &&
	    report_json(f, c->r, (c->formats & OUTPUT_JSON_PLUS) != 0))
		return -1;
	if ((c->formats & OUTPUT_NORMAL) && report_normal(f, c->r))
		return -1;
	return 0;
}

int report_write(const char *path, const struct jr_run *r, unsigned formats, char *err,
		 size_t errlen)
{
	struct write_ctx c = { r, formats };

	return report_atomic(path, write_all, &c, err, errlen);
}
