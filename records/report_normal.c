// SPDX-License-Identifier: GPL-2.0
/*
 * fio's normal (human) report, line for line: a reader of a fio report
 * finds the same numbers in the same places. The formats are fio 3.33's.
 */
#include "records/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "matrix/job_options.h"

void report_num2str(char *buf, size_t len, uint64_t num, int maxlen, int base, int pow2,
		    enum n2s_unit unit)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	static const char *const unitstr[] = { "", "B", "B/s" };
	const char *const *prefix = pow2 ? iec : si;
	const unsigned thousand = pow2 ? 1024 : 1000;
	unsigned modulo = UINT32_MAX;
	int post = 0, carry = 0;
	char tmp[32];

	for (; base > 1; post++)
		base /= (int)thousand;
	while (post < 7) {
		snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)num);
		if ((int)strlen(tmp) <= maxlen)
			break;
		modulo = (unsigned)(num % thousand);
		num /= thousand;
		carry = modulo >= thousand / 2;
		post++;
	}
	if (post >= 7)
		post = 0;
	snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)num);
	if (modulo == UINT32_MAX || maxlen - (int)strlen(tmp) <= 1) {
		if (modulo != UINT32_MAX && carry)
			num++;
		snprintf(buf, len, "%llu%s%s", (unsigned long long)num, prefix[post],
			 unitstr[unit]);
		return;
	}
	char frac[32];

	snprintf(frac, sizeof(frac), "%.*f", maxlen - (int)strlen(tmp) - 1,
		 (double)modulo / (double)thousand);
	/*
	 * fio prints the digits after "0."; a fraction that rounds up to 1.0
	 * carries into the integer and keeps its "0" (11977 -> "12.0k").
	 */
	if (frac[0] == '1')
		num++;
	snprintf(buf, len, "%llu.%s%s%s", (unsigned long long)num, frac + 2, prefix[post],
		 unitstr[unit]);
}

#define SIG_FIGS 4

static void header_lines(FILE *f, const struct jr_run *r)
{
	char lo[3][32], hi[3][32];

	for (size_t i = 0; i < r->njobs; i++) {
		const struct jr_job *j = &r->jobs[i];
		int i2p = j->kb_base == 1024; /* fio: the job's own kb_base */

		/* fio prints this once per job, then "..." for its clones. */
		if (i > 0 && !strcmp(j->name, r->jobs[i - 1].name) && j->groupid == r->jobs[i - 1].groupid)
			continue;
		for (int d = 0; d < DDIR_NR; d++) {
			report_num2str(lo[d], sizeof(lo[d]), j->bs_min[d], SIG_FIGS, 1, i2p,
				       N2S_BYTE);
			report_num2str(hi[d], sizeof(hi[d]), j->bs_max[d], SIG_FIGS, 1, i2p,
				       N2S_BYTE);
		}
		fprintf(f,
			"%s: (g=%d): rw=%s, bs=(R) %s-%s, (W) %s-%s, (T) %s-%s, ioengine=%s, "
			"iodepth=%u\n",
			j->name, j->groupid, j->rw, lo[0], hi[0], lo[1], hi[1], lo[2], hi[2],
			j->ioengine, j->iodepth);
		if (j->members > 1 || (i + 1 < r->njobs && !strcmp(r->jobs[i + 1].name, j->name) &&
					r->jobs[i + 1].groupid == j->groupid))
			fprintf(f, "...\n");
	}
	fprintf(f, "%s\n", r->fio_version);
	fprintf(f, "Starting %u %s%s\n", r->started, r->threads ? "thread" : "process",
		r->started == 1 ? "" : (r->threads ? "s" : "es"));
}

/* fio's nsec_to_usec / nsec_to_msec: which unit a min/max/avg line uses. */
static const char *scale_lat(uint64_t *min, uint64_t *max, double *mean, double *dev)
{
	if (*min > 2000000 && *max > 99999999ULL && *dev > 1000000.0) {
		*min /= 1000000;
		*max /= 1000000;
		*mean /= 1000000.0;
		*dev /= 1000000.0;
		return "(msec)";
	}
	if (*min > 2000 && *max > 99999 && *dev > 1000.0) {
		*min /= 1000;
		*max /= 1000;
		*mean /= 1000.0;
		*dev /= 1000.0;
		return "(usec)";
	}
	return "(nsec)";
}

static void lat_line(FILE *f, const char *name, const struct jr_lat *l)
{
	uint64_t min = l->min, max = l->max;
	double mean = l->mean, dev = l->stddev;
	char mins[32], maxs[32];
	const char *base;

	if (!l->n)
		return;
	base = scale_lat(&min, &max, &mean, &dev);
	report_num2str(mins, sizeof(mins), min, 6, 1, 0, N2S_NONE);
	report_num2str(maxs, sizeof(maxs), max, 6, 1, 0, N2S_NONE);
	fprintf(f, "    %s %s: min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n", name, base, mins, maxs,
		mean, dev);
}

static void percentile_lines(FILE *f, const char *pre, const struct jr_job *j,
			     const struct jr_lat *l)
{
	uint64_t vals[PCT_LIST_MAX], minv = UINT64_MAX, maxv = 0;
	unsigned divisor = 1, scale = 0, per_line, width;
	const char *unit = "nsec";

	if (!l->npct)
		return;
	for (unsigned i = 0; i < l->npct; i++) {
		vals[i] = l->pct_val[i];
		minv = vals[i] < minv ? vals[i] : minv;
		maxv = vals[i] > maxv ? vals[i] : maxv;
	}
	if (minv > 2000000 && maxv > 99999999ULL) {
		scale = 2;
		divisor = 1000000;
		unit = "msec";
	} else if (minv > 2000 && maxv > 99999) {
		scale = 1;
		divisor = 1000;
		unit = "usec";
	}
	fprintf(f, "    %s percentiles (%s):\n     |", pre, unit);
	width = (unsigned)(log10((double)(maxv / divisor)) + 1);
	if (maxv / divisor == 0 || width < 5)
		width = 5;
	per_line = (80 - 7) / (2 + 10 + width);
	for (unsigned i = 0; i < l->npct; i++) {
		int last = i == l->npct - 1;

		if (i && i % per_line == 0)
			fprintf(f, "     |");
		for (unsigned s = 0; s < scale; s++)
			vals[i] = (vals[i] + 999) / 1000;
		fprintf(f, " %5.2fth=[%*llu]%c", j->pct_keys[i], (int)width,
			(unsigned long long)vals[i], last ? '\n' : ',');
		if (last)
			break;
		if (i % per_line == per_line - 1)
			fprintf(f, "\n");
	}
}

static void ddir_lines(FILE *f, const struct jr_job *j, int d, const struct jr_group *g)
{
	const struct jr_ddir *dd = &j->dir[d];
	/* fio: the group's kb_base (its last job's), for every job in it */
	uint32_t kb_base = g ? g->kb_base : j->kb_base;
	int i2p = kb_base == 1024;
	char io[32], bw[32], bwalt[32], iops[32];
	uint64_t bwv, iopsv;

	if (!dd->runtime_ms)
		return;
	bwv = 1000 * dd->io_bytes / dd->runtime_ms;
	iopsv = 1000 * dd->total_ios / dd->runtime_ms;
	report_num2str(io, sizeof(io), dd->io_bytes, SIG_FIGS, 1, i2p, N2S_BYTE);
	report_num2str(bw, sizeof(bw), bwv, SIG_FIGS, 1, i2p, N2S_BYTEPERSEC);
	report_num2str(bwalt, sizeof(bwalt), bwv, SIG_FIGS, 1, !i2p, N2S_BYTEPERSEC);
	report_num2str(iops, sizeof(iops), iopsv, SIG_FIGS, 1, 0, N2S_NONE);
	fprintf(f, "  %s: IOPS=%s, BW=%s (%s)(%s/%llumsec)%s\n", jr_ddir_keys[d], iops, bw, bwalt,
		io, (unsigned long long)dd->runtime_ms, d == DDIR_WRITE ? "; 0 zone resets" : "");
	lat_line(f, "slat", &dd->slat);
	lat_line(f, "clat", &dd->clat);
	lat_line(f, " lat", &dd->lat);
	if (j->clat_percentiles)
		percentile_lines(f, "clat", j, &dd->clat);
	if (j->lat_percentiles)
		percentile_lines(f, "lat", j, &dd->lat);
	if (dd->bw_samples) {
		double min = (double)dd->bw_min, max = (double)dd->bw_max, mean = dd->bw_mean,
		       dev = dd->bw_dev, kb = (double)kb_base;
		const char *unit = i2p ? "KiB" : "kB";

		if (mean > kb * kb) {
			min /= kb;
			max /= kb;
			mean /= kb;
			dev /= kb;
			unit = "MiB";
		}
		fprintf(f,
			"   bw (%5s/s): min=%5llu, max=%5llu, per=%3.2f%%, avg=%5.02f, stdev=%5.02f, "
			"samples=%llu\n",
			unit, (unsigned long long)min, (unsigned long long)max,
			jr_bw_agg_pct(g, d, dd->bw_mean), mean, dev,
			(unsigned long long)dd->bw_samples);
	}
	if (dd->iops_samples)
		fprintf(f,
			"   iops        : min=%5llu, max=%5llu, avg=%5.02f, stdev=%5.02f, "
			"samples=%llu\n",
			(unsigned long long)dd->iops_min, (unsigned long long)dd->iops_max,
			dd->iops_mean, dd->iops_stddev, (unsigned long long)dd->iops_samples);
}

static void bucket_lines(FILE *f, const char *unit, const double *v, int nr,
			 const char *const *ranges)
{
	int on_line = 0, shown = 0;

	for (int i = 0; i < nr; i++) {
		if (v[i] <= 0.0)
			continue;
		if (!on_line) {
			if (shown)
				fprintf(f, "\n");
			fprintf(f, "  lat (%s)   : ", unit);
		} else {
			fprintf(f, ", ");
		}
		fprintf(f, "%s%3.2f%%", ranges[i], v[i]);
		shown = 1;
		if (++on_line == 5)
			on_line = 0;
	}
	if (shown)
		fprintf(f, "\n");
}

static void dist_line(FILE *f, const char *label, const char *const *keys, const double *v)
{
	fprintf(f, "%s", label);
	for (int i = 0; i < JR_DEPTH_NR; i++)
		fprintf(f, "%s=%3.1f%%%s", keys[i], v[i], i == JR_DEPTH_NR - 1 ? "\n" : ", ");
}

static void job_block(FILE *f, const struct jr_job *j, const struct jr_group *g)
{
	static const char *const lat_ranges[] = { "2=",	  "4=",	  "10=",  "20=",   "50=",  "100=",
						  "250=", "500=", "750=", "1000=", "2000=", ">=2000=" };
	char when[64];
	struct tm tm;

	if (!j->dir[0].io_bytes && !j->dir[1].io_bytes && !j->dir[2].io_bytes &&
	    !j->dir[0].total_ios && !j->dir[1].total_ios && !j->error)
		return;
	localtime_r(&j->end_time, &tm);
	strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);
	if (!j->error)
		fprintf(f, "%s: (groupid=%d, jobs=%u): err=%2d: pid=%d: %s\n", j->name, j->groupid,
			j->members, j->error, j->pid, when);
	else
		fprintf(f, "%s: (groupid=%d, jobs=%u): err=%2d (%s): pid=%d: %s\n", j->name,
			j->groupid, j->members, j->error, j->errmsg ? j->errmsg : "", j->pid, when);
	if (j->description && *j->description)
		fprintf(f, "  Description  : [%s]\n", j->description);
	for (int d = 0; d < DDIR_NR; d++)
		if (j->dir[d].io_bytes)
			ddir_lines(f, j, d, g);
	bucket_lines(f, "nsec", j->latency_ns, JR_LAT_N_NR, lat_ranges);
	bucket_lines(f, "usec", j->latency_us, JR_LAT_U_NR, lat_ranges);
	bucket_lines(f, "msec", j->latency_ms, JR_LAT_M_NR, lat_ranges);
	if (j->sync_lat.n) {
		fprintf(f, "  fsync/fdatasync/sync_file_range:\n");
		lat_line(f, "sync", &j->sync_lat);
		percentile_lines(f, "sync", j, &j->sync_lat);
	}
	fprintf(f, "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%llu, majf=%llu, minf=%llu\n",
		j->usr_cpu, j->sys_cpu, (unsigned long long)j->ctx, (unsigned long long)j->majf,
		(unsigned long long)j->minf);
	dist_line(f, "  IO depths    : ", jr_depth_keys, j->iodepth_level);
	dist_line(f, "     submit    : ", jr_batch_keys, j->iodepth_submit);
	dist_line(f, "     complete  : ", jr_batch_keys, j->iodepth_complete);
	fprintf(f,
		"     issued rwts: total=%llu,%llu,%llu,%llu short=%llu,%llu,%llu,0 "
		"dropped=%llu,%llu,%llu,0\n",
		(unsigned long long)j->dir[0].total_ios, (unsigned long long)j->dir[1].total_ios,
		(unsigned long long)j->dir[2].total_ios, (unsigned long long)j->sync_total_ios,
		(unsigned long long)j->dir[0].short_ios,
		(unsigned long long)j->dir[1].short_ios, (unsigned long long)j->dir[2].short_ios,
		(unsigned long long)j->dir[0].drop_ios, (unsigned long long)j->dir[1].drop_ios,
		(unsigned long long)j->dir[2].drop_ios);
	fprintf(f, "     latency   : target=0, window=0, percentile=100.00%%, depth=%u\n",
		j->latency_depth);
	if (j->verify_blocks)
		fprintf(f, "     verify    : blocks=%llu, bad=%llu\n",
			(unsigned long long)j->verify_blocks, (unsigned long long)j->verify_errors);
}

static void group_lines(FILE *f, const struct jr_group *g)
{
	static const char *const names[] = { "   READ", "  WRITE", "   TRIM" };
	int i2p = g->kb_base == 1024;

	/* fio 3.33: no blank line between job blocks, one before each group. */
	fprintf(f, "\nRun status group %d (all jobs):\n", g->groupid);
	for (int d = 0; d < DDIR_NR; d++) {
		char io[32], ioalt[32], agg[32], aggalt[32], mn[32], mnalt[32], mx[32], mxalt[32];

		if (!g->max_run[d])
			continue;
		report_num2str(io, sizeof(io), g->io_bytes[d], SIG_FIGS, 1, i2p, N2S_BYTE);
		report_num2str(ioalt, sizeof(ioalt), g->io_bytes[d], SIG_FIGS, 1, !i2p, N2S_BYTE);
		report_num2str(agg, sizeof(agg), g->agg_bw[d], SIG_FIGS, 1, i2p, N2S_BYTEPERSEC);
		report_num2str(aggalt, sizeof(aggalt), g->agg_bw[d], SIG_FIGS, 1, !i2p,
			       N2S_BYTEPERSEC);
		report_num2str(mn, sizeof(mn), g->min_bw[d], SIG_FIGS, 1, i2p, N2S_BYTEPERSEC);
		report_num2str(mnalt, sizeof(mnalt), g->min_bw[d], SIG_FIGS, 1, !i2p,
			       N2S_BYTEPERSEC);
		report_num2str(mx, sizeof(mx), g->max_bw[d], SIG_FIGS, 1, i2p, N2S_BYTEPERSEC);
		report_num2str(mxalt, sizeof(mxalt), g->max_bw[d], SIG_FIGS, 1, !i2p,
			       N2S_BYTEPERSEC);
		fprintf(f, "%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%llu-%llumsec\n",
			names[d], agg, aggalt, mn, mx, mnalt, mxalt, io, ioalt,
			(unsigned long long)g->min_run[d], (unsigned long long)g->max_run[d]);
	}
}

int report_normal(FILE *f, const struct jr_run *r)
{
	struct jr_group *groups;
	size_t ng;

	if (jr_groups(r, &groups, &ng))
		return -1;
	header_lines(f, r);
	fprintf(f, "\n");
	for (size_t i = 0; i < r->njobs; i++)
		job_block(f, &r->jobs[i], jr_group_of(groups, ng, r->jobs[i].groupid));
	for (size_t i = 0; i < ng; i++)
		group_lines(f, &groups[i]);
	if (r->ndisks) {
		fprintf(f, "\nDisk stats (read/write):\n");
		for (size_t i = 0; i < r->ndisks; i++) {
			const struct jr_disk *d = &r->disks[i];

			fprintf(f,
				"  %s: ios=%llu/%llu, merge=%llu/%llu, ticks=%llu/%llu, "
				"in_queue=%llu, util=%3.2f%%\n",
				d->name, (unsigned long long)d->ios[0], (unsigned long long)d->ios[1],
				(unsigned long long)d->merges[0], (unsigned long long)d->merges[1],
				(unsigned long long)d->ticks[0], (unsigned long long)d->ticks[1],
				(unsigned long long)d->in_queue, d->util);
		}
	}
	free(groups);
	return ferror(f) ? -1 : 0;
}
