// SPDX-License-Identifier: GPL-2.0
/*
 * A fio-like report of one record (see report_full.h: the seam for the
 * engine's formatter). Layout after fio's "normal" output:
 *
 *   randread-4k: (groupid=0, jobs=1): err= 0
 *     read: IOPS=41.2k, BW=161MiB/s (168MB/s)(1608MiB/10000msec)
 *       clat (usec): min=4, max=987, avg=24.31, stdev=14.59
 *       clat percentiles (usec):
 *        |  1.00th=[   41],  5.00th=[   56], 10.00th=[   66], 20.00th=[   80],
 *     cpu          : usr=2.41%, sys=5.63%, ctx=412000, majf=0, minf=12
 */
#include <math.h>
#include <string.h>

#include "jpath.h"
#include "metrics.h"
#include "report_full.h"
#include "metric_format.h"

/* fio's choice of unit for a latency block: the one that keeps the mean readable. */
static void lat_unit(double mean_ns, const char **name, double *div)
{
	if (mean_ns >= 1e7) {
		*name = "msec";
		*div = 1e6;
	} else if (mean_ns >= 1e4) {
		*name = "usec";
		*div = 1e3;
	} else {
		*name = "nsec";
		*div = 1;
	}
}

static void lat_line(FILE *f, json_object *dir, const char *what)
{
	char path[32];
	double min, max, mean, sd, div;
	const char *unit;

	json_object *o;

	snprintf(path, sizeof(path), "%s_ns", what[0] == ' ' ? what + 1 : what);
	o = jpath(dir, path);
	if (!o || !jpath_double(o, "min", &min) || !jpath_double(o, "max", &max) ||
	    !jpath_double(o, "mean", &mean) || !jpath_double(o, "stddev", &sd) || mean <= 0)
		return;
	lat_unit(mean, &unit, &div);
	fprintf(f, "    %4s (%s): min=%.0f, max=%.0f, avg=%.2f, stdev=%.2f\n", what, unit,
		min / div, max / div, mean / div, sd / div);
}

static void percentiles(FILE *f, json_object *rec, const char *dir)
{
	double pct[32], ns[32], div;
	size_t n = metric_clat_percentiles(rec, dir, pct, ns, 32);
	const char *unit;

	if (!n)
		return;
	lat_unit(ns[n / 2], &unit, &div);
	fprintf(f, "    clat percentiles (%s, the job with most IOs):\n", unit);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%5.2fth=[%5.0f]%s", i % 4 ? " " : "     | ", pct[i], ns[i] / div,
			i + 1 == n ? "\n" : i % 4 == 3 ? ",\n" : ",");
}

static void dir_block(FILE *f, json_object *rec, json_object *job, const char *dir, bool first)
{
	json_object *d = jpath(job, dir);
	double ios, iops, bw, bytes, runtime;
	char bws[32], io[32], n[32];

	if (!d || !jpath_double(d, "total_ios", &ios) || ios <= 0 ||
	    !jpath_double(d, "iops", &iops) || !jpath_double(d, "bw_bytes", &bw) ||
	    !jpath_double(d, "io_bytes", &bytes) || !jpath_double(d, "runtime", &runtime))
		return;
	unit_format(bws, sizeof(bws), UNIT_BYTES_PER_S, bw, bw);
	unit_format(io, sizeof(io), UNIT_BYTES_PER_S, bytes, bytes);
	/* io is a size, not a rate: drop the "/s". */
	io[strlen(io) > 2 ? strlen(io) - 2 : 0] = '\0';
	/* fio prints IOPS with a k (or M) from 10000 on. */
	if (iops >= 1e7)
		snprintf(n, sizeof(n), "%.1fM", iops / 1e6);
	else if (iops >= 1e4)
		snprintf(n, sizeof(n), "%.1fk", iops / 1e3);
	else
		snprintf(n, sizeof(n), "%.0f", iops);
	fprintf(f, "  %s: IOPS=%s, BW=%s (%.0fMB/s)(%s/%.0fmsec)\n", dir, n, bws, bw / 1e6, io,
		runtime);
	lat_line(f, d, "slat");
	lat_line(f, d, "clat");
	lat_line(f, d, " lat");
	if (first)
		percentiles(f, rec, dir);
}

static int fio_report(FILE *f, json_object *rec)
{
	json_object *jobs = jpath(rec, "workload.fio.jobs");

	if (!jobs || !json_object_is_type(jobs, json_type_array))
		return -1;
	for (size_t i = 0; i < json_object_array_length(jobs); i++) {
		json_object *job = json_object_array_get_idx(jobs, i);
		const char *name = "job";
		long long err = 0;
		double usr = 0, sys = 0, ctx = 0, majf = 0, minf = 0;

		jpath_str(job, "jobname", &name);
		jpath_int(job, "error", &err);
		fprintf(f, "%s: (groupid=0, jobs=1): err=%2lld\n", name, err);
		dir_block(f, rec, job, "read", i == 0);
		dir_block(f, rec, job, "write", i == 0);
		dir_block(f, rec, job, "trim", i == 0);
		jpath_double(job, "usr_cpu", &usr);
		jpath_double(job, "sys_cpu", &sys);
		jpath_double(job, "ctx", &ctx);
		jpath_double(job, "majf", &majf);
		jpath_double(job, "minf", &minf);
		fprintf(f,
			"  cpu          : usr=%.2f%%, sys=%.2f%%, ctx=%.0f, majf=%.0f, minf=%.0f\n",
			usr, sys, ctx, majf, minf);
	}
	return 0;
}

static int dd_report(FILE *f, json_object *rec)
{
	json_object *dd = jpath(rec, "workload.dd"), *pw;
	double writers, bs, size, io, elapsed, wr, sync, bw, lo = INFINITY, hi = 0;
	char s_bs[32], s_size[32], s_io[32], s_bw[32], s_lo[32], s_hi[32];

	if (!dd || !jpath_double(dd, "writers", &writers) || !jpath_double(dd, "bs", &bs) ||
	    !jpath_double(dd, "size_per_writer", &size) || !jpath_double(dd, "io_bytes", &io) ||
	    !jpath_double(dd, "elapsed_ns", &elapsed) || !jpath_double(dd, "bw_bytes", &bw))
		return -1;
	if (!jpath_double(dd, "write_ns", &wr))
		wr = NAN;
	if (!jpath_double(dd, "sync_ns", &sync))
		sync = NAN;
	unit_format(s_bs, sizeof(s_bs), UNIT_BYTES_PER_S, bs, bs);
	unit_format(s_size, sizeof(s_size), UNIT_BYTES_PER_S, size, size);
	unit_format(s_io, sizeof(s_io), UNIT_BYTES_PER_S, io, io);
	unit_format(s_bw, sizeof(s_bw), UNIT_BYTES_PER_S, bw, bw);
	/* Sizes, not rates. */
	s_bs[strlen(s_bs) - 2] = s_size[strlen(s_size) - 2] = s_io[strlen(s_io) - 2] = '\0';
	fprintf(f, "dd: %.0f writer%s x %s, bs %s: %s in %.3f s (write %.3f s, sync %.3f s): %s\n",
		writers, writers == 1 ? "" : "s", s_size, s_bs, s_io, elapsed / 1e9, wr / 1e9,
		sync / 1e9, s_bw);
	pw = jpath(dd, "per_writer");
	for (size_t i = 0; pw && json_object_is_type(pw, json_type_array) &&
			   i < json_object_array_length(pw);
	     i++) {
		double v;

		if (jpath_double(json_object_array_get_idx(pw, i), "bw_bytes", &v)) {
			lo = fmin(lo, v);
			hi = fmax(hi, v);
		}
	}
	if (hi > 0) {
		unit_format(s_lo, sizeof(s_lo), UNIT_BYTES_PER_S, lo, hi);
		unit_format(s_hi, sizeof(s_hi), UNIT_BYTES_PER_S, hi, hi);
		fprintf(f, "  per writer: min %s, max %s\n", s_lo, s_hi);
	}
	return 0;
}

static void context(FILE *f, json_object *rec)
{
	double setup, work, down, usr, sys, iow;
	const char *fs = "?", *level = "none";

	jpath_str(rec, "fs.type", &fs);
	jpath_str(rec, "array.level", &level);
	fprintf(f, "  setup        : fs %s, array %s", fs, level);
	if (jpath_double(rec, "times.setup_s", &setup) &&
	    jpath_double(rec, "times.workload_s", &work) &&
	    jpath_double(rec, "times.teardown_s", &down))
		fprintf(f, "; setup %.2f s, workload %.2f s, teardown %.2f s", setup, work, down);
	fputc('\n', f);
	if (jpath_double(rec, "cpu.user_pct", &usr) && jpath_double(rec, "cpu.system_pct", &sys) &&
	    jpath_double(rec, "cpu.iowait_pct", &iow))
		fprintf(f, "  machine cpu  : usr=%.1f%%, sys=%.1f%%, iowait=%.1f%%\n", usr, sys,
			iow);
}

int report_full_record(FILE *f, const struct rs_record *rec)
{
	int rc;

	fprintf(f, "repeat %d (seq %ld): %s%s%s\n", rec->repeat, rec->seq,
		rs_status_name(rec->status), rec->error ? ": " : "", rec->error ? rec->error : "");
	if (rec->status != RS_OK || !rec->kind)
		return -1;
	rc = !strcmp(rec->kind, "fio") ? fio_report(f, rec->root)
	     : !strcmp(rec->kind, "dd") ? dd_report(f, rec->root)
					: -1;
	if (rc == 0)
		context(f, rec->root);
	return rc;
}
