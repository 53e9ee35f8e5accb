// SPDX-License-Identifier: GPL-2.0
/* The metric table and how each metric is read from a record. */
#include <stdlib.h>
#include <string.h>

#include "lib/jpath.h"
#include "compare/metrics.h"

static json_object *fio_jobs(json_object *rec)
{
	const char *kind;
	json_object *jobs;

	if (!jpath_str(rec, "workload.kind", &kind) || strcmp(kind, "fio"))
		return NULL;
	jobs = jpath(rec, "workload.fio.jobs");
	if (!jobs || !json_object_is_type(jobs, json_type_array) ||
	    json_object_array_length(jobs) == 0)
		return NULL;
	return jobs;
}

/* IOs of one direction over all jobs: a direction without IOs has no metrics. */
static double fio_total_ios(json_object *jobs, const char *dir)
{
	double sum = 0, v;

	for (size_t i = 0; i < json_object_array_length(jobs); i++) {
		json_object *d = jpath(json_object_array_get_idx(jobs, i), dir);

		if (d && jpath_double(d, "total_ios", &v))
			sum += v;
	}
	return sum;
}

/* Sum over jobs[] of <dir>.<field>, as fio's group report adds them. */
static bool fio_sum(const struct metric *m, json_object *rec, const char *field, double *out)
{
	json_object *jobs = fio_jobs(rec);
	double sum = 0, v;

	if (!jobs || fio_total_ios(jobs, m->dir) <= 0)
		return false;
	for (size_t i = 0; i < json_object_array_length(jobs); i++) {
		json_object *d = jpath(json_object_array_get_idx(jobs, i), m->dir);

		if (!d || !jpath_double(d, field, &v))
			return false;
		sum += v;
	}
	*out = sum;
	return true;
}

static bool x_fio_bw(const struct metric *m, json_object *rec, double *out)
{
	return fio_sum(m, rec, "bw_bytes", out);
}

static bool x_fio_iops(const struct metric *m, json_object *rec, double *out)
{
	return fio_sum(m, rec, "iops", out);
}

/* IO-weighted mean of lat_ns.mean over jobs: each job counts by its IOs. */
static bool x_fio_lat_mean(const struct metric *m, json_object *rec, double *out)
{
	json_object *jobs = fio_jobs(rec);
	double wsum = 0, ios = 0, mean, n;

	if (!jobs)
		return false;
	for (size_t i = 0; i < json_object_array_length(jobs); i++) {
		json_object *d = jpath(json_object_array_get_idx(jobs, i), m->dir);

		if (!d || !jpath_double(d, "total_ios", &n) || n <= 0)
			continue;
		if (!jpath_double(d, "lat_ns.mean", &mean))
			return false;
		wsum += mean * n;
		ios += n;
	}
	if (ios <= 0)
		return false;
	*out = wsum / ios;
	return true;
}

static json_object *busiest_job_dir(json_object *rec, const char *dir)
{
	json_object *jobs = fio_jobs(rec), *best = NULL;
	double most = 0, n;

	if (!jobs)
		return NULL;
	for (size_t i = 0; i < json_object_array_length(jobs); i++) {
		json_object *d = jpath(json_object_array_get_idx(jobs, i), dir);

		if (d && jpath_double(d, "total_ios", &n) && n > most) {
			most = n;
			best = d;
		}
	}
	return best;
}

/* Percentile keys contain dots, so they are looked up directly, not by jpath. */
static bool x_fio_clat_pct(const struct metric *m, json_object *rec, double *out)
{
	json_object *d = busiest_job_dir(rec, m->dir),
		    *pcts = d ? jpath(d, "clat_ns.percentile") : NULL;
	json_object *v;

	if (!pcts || !json_object_is_type(pcts, json_type_object) ||
	    !json_object_object_get_ex(pcts, m->pct, &v) ||
	    !(json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
		return false;
	*out = json_object_get_double(v);
	return *out >= 0;
}

/* (usr_cpu + sys_cpu) % of job_runtime, in ns, over all IOs of all jobs. */
static bool x_fio_cpu_per_io(const struct metric *m, json_object *rec, double *out)
{
	json_object *jobs = fio_jobs(rec);
	double cpu_ns = 0, ios, usr, sys, runtime_ms;

	(void)m;
	if (!jobs)
		return false;
	ios = fio_total_ios(jobs, "read") + fio_total_ios(jobs, "write") +
	      fio_total_ios(jobs, "trim");
	if (ios <= 0)
		return false;
	for (size_t i = 0; i < json_object_array_length(jobs); i++) {
		json_object *j = json_object_array_get_idx(jobs, i);

		if (!jpath_double(j, "usr_cpu", &usr) || !jpath_double(j, "sys_cpu", &sys) ||
		    !jpath_double(j, "job_runtime", &runtime_ms))
			return false;
		cpu_ns += (usr + sys) / 100.0 * runtime_ms * 1e6;
	}
	*out = cpu_ns / ios;
	return true;
}

static bool x_dd_bw(const struct metric *m, json_object *rec, double *out)
{
	const char *kind;

	(void)m;
	if (!jpath_str(rec, "workload.kind", &kind) || strcmp(kind, "dd"))
		return false;
	return jpath_double(rec, "workload.dd.bw_bytes", out) && *out > 0;
}

static bool is_member_disk(json_object *rec, const char *name)
{
	json_object *disks = jpath(rec, "disks");
	const char *n;

	if (!disks || !json_object_is_type(disks, json_type_array))
		return false;
	for (size_t i = 0; i < json_object_array_length(disks); i++)
		if (jpath_str(json_object_array_get_idx(disks, i), "name", &n) && !strcmp(n, name))
			return true;
	return false;
}

/*
 * Bytes the disks under test wrote over bytes the workload wrote: parity,
 * journal and metadata writes show here before they show in bandwidth.
 */
static bool x_write_amp(const struct metric *m, json_object *rec, double *out)
{
	json_object *ds = jpath(rec, "diskstats_delta"), *jobs;
	double disk_bytes = 0, wl_bytes = 0, v;
	bool any = false;

	(void)m;
	if (!ds || !json_object_is_type(ds, json_type_object))
		return false;
	json_object_object_foreach(ds, name, st)
	{
		if (!is_member_disk(rec, name) || !jpath_double(st, "sectors_written", &v))
			continue;
		disk_bytes += v * 512.0;
		any = true;
	}
	if (jpath_double(rec, "workload.dd.io_bytes", &v)) {
		wl_bytes = v;
	} else if ((jobs = fio_jobs(rec))) {
		for (size_t i = 0; i < json_object_array_length(jobs); i++)
			if (jpath_double(json_object_array_get_idx(jobs, i), "write.io_bytes", &v))
				wl_bytes += v;
	}
	if (!any || wl_bytes <= 0)
		return false;
	*out = disk_bytes / wl_bytes;
	return true;
}

static bool x_sys_cpu(const struct metric *m, json_object *rec, double *out)
{
	(void)m;
	return jpath_double(rec, "cpu.system_pct", out);
}

#define FIO_RATE(n, u, f, d, doc)                                                         \
	{ .name = n, .unit = u, .better = BETTER_HIGHER, .mean = MEAN_HARMONIC,             \
	  .by_default = true, .from = doc, .extract = f, .dir = d }
#define FIO_LAT(n, f, d, p, def, doc)                                                     \
	{ .name = n, .unit = UNIT_NS, .better = BETTER_LOWER, .mean = MEAN_ARITHMETIC,      \
	  .by_default = def, .from = doc, .extract = f, .dir = d, .pct = p }

const struct metric metric_table[] = {
	FIO_RATE("read_bw", UNIT_BYTES_PER_S, x_fio_bw, "read", "sum over jobs[] of read.bw_bytes"),
	FIO_RATE("write_bw", UNIT_BYTES_PER_S, x_fio_bw, "write",
		 "sum over jobs[] of write.bw_bytes"),
	FIO_RATE("read_iops", UNIT_IOPS, x_fio_iops, "read", "sum over jobs[] of read.iops"),
	FIO_RATE("write_iops", UNIT_IOPS, x_fio_iops, "write", "sum over jobs[] of write.iops"),
	FIO_LAT("read_lat_mean", x_fio_lat_mean, "read", NULL, true,
		"IO-weighted mean of jobs[].read.lat_ns.mean"),
	FIO_LAT("write_lat_mean", x_fio_lat_mean, "write", NULL, true,
		"IO-weighted mean of jobs[].write.lat_ns.mean"),
	FIO_LAT("read_clat_p50", x_fio_clat_pct, "read", "50.000000", false,
		"read.clat_ns.percentile[\"50.000000\"] of the job with most IOs"),
	FIO_LAT("write_clat_p50", x_fio_clat_pct, "write", "50.000000", false,
		"write.clat_ns.percentile[\"50.000000\"] of the job with most IOs"),
	FIO_LAT("read_clat_p99", x_fio_clat_pct, "read", "99.000000", true,
		"read.clat_ns.percentile[\"99.000000\"] of the job with most IOs"),
	FIO_LAT("write_clat_p99", x_fio_clat_pct, "write", "99.000000", true,
		"write.clat_ns.percentile[\"99.000000\"] of the job with most IOs"),
	FIO_LAT("read_clat_p99.9", x_fio_clat_pct, "read", "99.900000", false,
		"read.clat_ns.percentile[\"99.900000\"] of the job with most IOs"),
	FIO_LAT("write_clat_p99.9", x_fio_clat_pct, "write", "99.900000", false,
		"write.clat_ns.percentile[\"99.900000\"] of the job with most IOs"),
	{ .name = "cpu_per_io", .unit = UNIT_NS, .better = BETTER_LOWER, .mean = MEAN_ARITHMETIC,
	  .by_default = true, .extract = x_fio_cpu_per_io,
	  .from = "sum over jobs[] of (usr_cpu+sys_cpu)% x job_runtime, over all IOs" },
	{ .name = "dd_bw", .unit = UNIT_BYTES_PER_S, .better = BETTER_HIGHER, .mean = MEAN_HARMONIC,
	  .by_default = true, .extract = x_dd_bw, .from = "workload.dd.bw_bytes" },
	{ .name = "write_amp", .unit = UNIT_RATIO, .better = BETTER_LOWER, .mean = MEAN_ARITHMETIC,
	  .by_default = false, .extract = x_write_amp,
	  .from = "diskstats_delta sectors_written x 512 of the disks[] under test, over the "
		  "bytes the workload wrote" },
	{ .name = "sys_cpu", .unit = UNIT_PERCENT, .better = BETTER_LOWER, .mean = MEAN_ARITHMETIC,
	  .by_default = false, .extract = x_sys_cpu, .from = "cpu.system_pct" },
};

const size_t metric_count = sizeof(metric_table) / sizeof(metric_table[0]);

const struct metric *metric_find(const char *name)
{
	for (size_t i = 0; i < metric_count; i++)
		if (!strcmp(metric_table[i].name, name))
			return &metric_table[i];
	return NULL;
}

bool metric_get(const struct metric *m, json_object *record, double *out)
{
	const char *status;

	if (!jpath_str(record, "status", &status) || strcmp(status, "ok"))
		return false;
	return m->extract(m, record, out);
}

struct pct_pair {
	double pct, ns;
};

static int pct_cmp(const void *a, const void *b)
{
	const struct pct_pair *x = a, *y = b;

	return (x->pct > y->pct) - (x->pct < y->pct);
}

size_t metric_clat_percentiles(json_object *record, const char *dir, double *pct, double *ns,
			       size_t max)
{
	json_object *d = busiest_job_dir(record, dir);
	json_object *pcts = d ? jpath(d, "clat_ns.percentile") : NULL;
	struct pct_pair *pairs;
	size_t n = 0;

	if (!pcts || !json_object_is_type(pcts, json_type_object) || max == 0)
		return 0;
	pairs = calloc(max, sizeof(*pairs));
	if (!pairs)
		return 0;
	json_object_object_foreach(pcts, key, val)
	{
		char *end;
		double p = strtod(key, &end);

		if (n == max || *end || p <= 0 || p >= 100 ||
		    !(json_object_is_type(val, json_type_int) ||
		      json_object_is_type(val, json_type_double)))
			continue;
		pairs[n].pct = p;
		pairs[n].ns = json_object_get_double(val);
		n++;
	}
	qsort(pairs, n, sizeof(*pairs), pct_cmp);
	for (size_t i = 0; i < n; i++) {
		pct[i] = pairs[i].pct;
		ns[i] = pairs[i].ns;
	}
	free(pairs);
	return n;
}
