// SPDX-License-Identifier: GPL-2.0
/* From a worker's counters to fio's numbers; see stats.h. */
#include "runner/engine/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void lat_reset(struct lat_acc *a)
{
	memset(a, 0, sizeof(*a));
	a->min = UINT64_MAX;
}

static void sample_reset(struct sample_acc *a)
{
	memset(a, 0, sizeof(*a));
}

void stats_reset(struct job_stats *s, int fresh)
{
	for (int d = 0; d < DDIR_NR; d++) {
		struct ddir_stats *ds = &s->dir[d];
		/* Only histograms that were written to are touched (and so resident). */
		int used = ds->ios != 0, lat_used = ds->lat.n != 0;

		ds->io_bytes = ds->ios = ds->short_ios = ds->drop_ios = 0;
		ds->last_bytes = ds->last_ios = 0;
		lat_reset(&ds->slat);
		lat_reset(&ds->clat);
		lat_reset(&ds->lat);
		sample_reset(&ds->bw);
		sample_reset(&ds->iops);
		if (!fresh && used)
			memset(ds->clat_hist, 0, sizeof(ds->clat_hist));
		if (!fresh && lat_used)
			memset(ds->lat_hist, 0, sizeof(ds->lat_hist));
	}
	if (!fresh && s->sync_lat.n)
		memset(s->sync_hist, 0, sizeof(s->sync_hist));
	lat_reset(&s->sync_lat);
	memset(s->depth_map, 0, sizeof(s->depth_map));
	memset(s->submit_map, 0, sizeof(s->submit_map));
	memset(s->complete_map, 0, sizeof(s->complete_map));
	s->total_submit = s->total_complete = 0;
}

static void sample_add(struct sample_acc *a, double v)
{
	if (!a->n || v < a->min)
		a->min = v;
	if (!a->n || v > a->max)
		a->max = v;
	a->n++;
	a->sum += v;
	a->sumsq += v * v;
}

void stats_sample(struct job_stats *s, uint32_t rw, uint64_t now)
{
	uint64_t spent_ms = (now - s->last_sample_ns) / 1000000;

	if (!spent_ms)
		return;
	for (int d = 0; d < DDIR_TRIM; d++) {
		struct ddir_stats *ds = &s->dir[d];

		if (!(rw & (d == DDIR_READ ? RW_BIT_READ : RW_BIT_WRITE)))
			continue;
		/* fio: KiB/s = delta bytes * 1000 / ms / 1024, in integers. */
		sample_add(&ds->bw, (double)((ds->io_bytes - ds->last_bytes) * 1000 / spent_ms / 1024));
		sample_add(&ds->iops, (double)((ds->ios - ds->last_ios) * 1000 / spent_ms));
		ds->last_bytes = ds->io_bytes;
		ds->last_ios = ds->ios;
	}
	s->last_sample_ns = now;
}

unsigned stats_percentiles(const uint64_t *hist, uint64_t n, const double *keys, unsigned nkeys,
			   uint64_t *out)
{
	uint64_t sum = 0;
	unsigned j = 0;

	if (!n || !nkeys)
		return 0;
	for (unsigned i = 0; i < LAT_HIST_NR && j < nkeys; i++) {
		sum += hist[i];
		while (j < nkeys && (long double)sum >= (long double)keys[j] / 100.0L * n)
			out[j++] = lat_hist_value(i);
	}
	while (j < nkeys)
		out[j++] = lat_hist_value(LAT_HIST_NR - 1);
	return nkeys;
}

static void lat_merge(struct lat_acc *dst, const struct lat_acc *src)
{
	if (!src->n)
		return;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->n += src->n;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
}

static void lat_final(const struct lat_acc *a, struct jr_lat *out)
{
	memset(out, 0, sizeof(*out));
	if (!a->n)
		return;
	out->min = a->min;
	out->max = a->max;
	out->n = a->n;
	out->mean = (double)a->sum / (double)a->n;
	if (a->n > 1) {
		/* Exact integer moments: n*sumsq - sum^2 has no cancellation error. */
		long double n = (long double)a->n, s = (long double)a->sum;
		long double var = ((long double)a->sumsq - s * s / n) / (n - 1);

		out->stddev = var > 0 ? (double)sqrtl(var) : 0;
	}
}

static int hist_final(const uint64_t *hist, uint64_t n, const struct job_options *o, int plus,
		      struct jr_lat *out)
{
	out->npct = stats_percentiles(hist, n, o->percentile_list, o->percentile_n, out->pct_val);
	if (!plus || !n)
		return 0;
	size_t nb = 0;

	for (unsigned i = 0; i < LAT_HIST_NR; i++)
		nb += hist[i] != 0;
	out->bins = calloc(nb ? nb : 1, sizeof(*out->bins));
	if (!out->bins)
		return -1;
	for (unsigned i = 0; i < LAT_HIST_NR; i++)
		if (hist[i]) {
			out->bins[out->nbins].value = lat_hist_value(i);
			out->bins[out->nbins++].count = hist[i];
		}
	return 0;
}

/*
 * fio sums the bw/iops sample statistics of jobs reported together (its
 * sum_stat with pure_sum): min, max and mean add up, and so do variances.
 */
struct sample_sum {
	double min, max, mean, var;
	uint64_t n;
};

static void sample_sum_add(struct sample_sum *t, const struct sample_acc *a)
{
	double mean, var = 0;

	if (!a->n)
		return;
	mean = a->sum / a->n;
	if (a->n > 1) {
		var = (a->sumsq - a->sum * a->sum / a->n) / (a->n - 1);
		if (var < 0)
			var = 0;
	}
	t->min += a->min;
	t->max += a->max;
	t->mean += mean;
	t->var += var;
	t->n += a->n;
}

/* Counts to percentages, fio's stat_calc_dist (0.1 % floor for non-zero). */
static void dist_final(const uint64_t *map, uint64_t total, double *out)
{
	for (int i = 0; i < JR_DEPTH_NR; i++) {
		out[i] = total ? 100.0 * (double)map[i] / (double)total : 0;
		if (total && map[i] && out[i] < 0.1)
			out[i] = 0.1;
	}
}

/* fio's latency buckets (nsec, usec, msec), from the completion latency histograms. */
static void lat_buckets(const uint64_t *hist, uint64_t *n_b, uint64_t *u_b, uint64_t *m_b)
{
	static const uint64_t edges[] = { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000 };

	for (unsigned i = 0; i < LAT_HIST_NR; i++) {
		uint64_t v, c = hist[i];
		uint64_t *b;
		unsigned k;

		if (!c)
			continue;
		v = lat_hist_value(i);
		if (v < 1000) {
			b = n_b;
		} else if (v < 1000000) {
			b = u_b;
			v /= 1000;
		} else {
			v /= 1000000;
			if (v >= 2000) {
				m_b[11] += c;
				continue;
			}
			if (v >= 1000) {
				m_b[10] += c;
				continue;
			}
			b = m_b;
		}
		for (k = 0; k < 9 && v >= edges[k]; k++)
			;
		b[k] += c;
	}
}

static void pct_final(const uint64_t *b, uint64_t total, double *out, int nr)
{
	for (int i = 0; i < nr; i++) {
		out[i] = total ? 100.0 * (double)b[i] / (double)total : 0;
		if (total && b[i] && out[i] < 0.01)
			out[i] = 0.01;
	}
}

static int ddir_final(struct job_stats *const *m, unsigned n, int d, const struct job_options *o,
		      int plus, uint64_t runtime_ms, struct jr_ddir *out, uint64_t *hist_sum)
{
	struct lat_acc slat, clat, lat;
	struct sample_sum bw = { 0 }, iops = { 0 };
	uint64_t *clat_hist = calloc(LAT_HIST_NR, sizeof(uint64_t));
	uint64_t *lat_hist = calloc(LAT_HIST_NR, sizeof(uint64_t));
	int rc = -1, sync_engine = m[0]->sync_engine;

	memset(out, 0, sizeof(*out));
	if (!clat_hist || !lat_hist)
		goto out;
	lat_reset(&slat);
	lat_reset(&clat);
	lat_reset(&lat);
	for (unsigned i = 0; i < n; i++) {
		const struct ddir_stats *ds = &m[i]->dir[d];

		out->io_bytes += ds->io_bytes;
		out->total_ios += ds->ios;
		out->short_ios += ds->short_ios;
		out->drop_ios += ds->drop_ios;
		lat_merge(&slat, &ds->slat);
		lat_merge(&clat, &ds->clat);
		lat_merge(&lat, sync_engine ? &ds->clat : &ds->lat);
		for (unsigned k = 0; k < LAT_HIST_NR; k++) {
			clat_hist[k] += ds->clat_hist[k];
			lat_hist[k] += sync_engine ? ds->clat_hist[k] : ds->lat_hist[k];
		}
		sample_sum_add(&bw, &ds->bw);
		sample_sum_add(&iops, &ds->iops);
	}
	for (unsigned k = 0; k < LAT_HIST_NR; k++)
		hist_sum[k] += clat_hist[k];
	if (out->total_ios)
		out->runtime_ms = runtime_ms ? runtime_ms : 1;
	if (out->runtime_ms) {
		out->bw_bytes = out->io_bytes * 1000 / out->runtime_ms;
		out->bw = out->bw_bytes / 1024;
		out->iops = 1000.0 * (double)out->total_ios / (double)out->runtime_ms;
	}
	lat_final(&slat, &out->slat);
	lat_final(&clat, &out->clat);
	lat_final(&lat, &out->lat);
	if (o->clat_percentiles && clat.n && hist_final(clat_hist, clat.n, o, plus, &out->clat))
		goto out;
	if (o->lat_percentiles && lat.n && hist_final(lat_hist, lat.n, o, plus, &out->lat))
		goto out;
	if (bw.n) {
		out->bw_min = (uint64_t)bw.min;
		out->bw_max = (uint64_t)bw.max;
		out->bw_mean = bw.mean;
		out->bw_dev = sqrt(bw.var);
		out->bw_samples = bw.n;
	}
	if (iops.n) {
		out->iops_min = (uint64_t)iops.min;
		out->iops_max = (uint64_t)iops.max;
		out->iops_mean = iops.mean;
		out->iops_stddev = sqrt(iops.var);
		out->iops_samples = iops.n;
	}
	rc = 0;
out:
	free(clat_hist);
	free(lat_hist);
	return rc;
}

int stats_finalize(struct job_stats *const *m, unsigned n, const struct job_options *o,
		   int plus, struct jr_job *jr)
{
	uint64_t *hist_sum = calloc(LAT_HIST_NR, sizeof(uint64_t));
	uint64_t runtime_ms = 0, run_sum_ms = 0, usr = 0, sys = 0, total_ios = 0;
	uint64_t depth[JR_DEPTH_NR] = { 0 }, sub[JR_DEPTH_NR] = { 0 }, comp[JR_DEPTH_NR] = { 0 };
	uint64_t nb[JR_LAT_N_NR] = { 0 }, ub[JR_LAT_U_NR] = { 0 }, mb[JR_LAT_M_NR] = { 0 };
	uint64_t tsub = 0, tcomp = 0;
	struct lat_acc sync;

	if (!hist_sum)
		return -1;
	lat_reset(&sync);
	jr->members = n;
	jr->pid = m[0]->pid;
	jr->kb_base = o->kb_base;
	snprintf(jr->rw, sizeof(jr->rw), "%s", option_choice_name("rw", o->rw));
	snprintf(jr->ioengine, sizeof(jr->ioengine), "%s",
		 option_choice_name("ioengine", o->ioengine));
	jr->iodepth = o->iodepth;
	jr->latency_depth = o->iodepth;
	jr->thread = (int)o->thread;
	for (int d = 0; d < DDIR_NR; d++) {
		jr->bs_min[d] = o->bs_min[d];
		jr->bs_max[d] = o->bs_max[d];
	}
	jr->npct = o->percentile_n;
	memcpy(jr->pct_keys, o->percentile_list, sizeof(jr->pct_keys));
	jr->clat_percentiles = (int)o->clat_percentiles;
	jr->lat_percentiles = (int)o->lat_percentiles;

	for (unsigned i = 0; i < n; i++) {
		const struct job_stats *s = m[i];
		uint64_t ms = s->end_ns > s->start_ns ? (s->end_ns - s->start_ns) / 1000000 : 0;

		if (ms > runtime_ms)
			runtime_ms = ms;
		run_sum_ms += ms;
		usr += s->usr_us;
		sys += s->sys_us;
		jr->ctx += s->ctx;
		jr->majf += s->majf;
		jr->minf += s->minf;
		for (int k = 0; k < JR_DEPTH_NR; k++) {
			depth[k] += s->depth_map[k];
			sub[k] += s->submit_map[k];
			comp[k] += s->complete_map[k];
		}
		tsub += s->total_submit;
		tcomp += s->total_complete;
		lat_merge(&sync, &s->sync_lat);
		jr->verify_blocks += s->verify_blocks;
		jr->verify_errors += s->verify_errors;
		jr->loops_done += s->loops_done;
		jr->bytes_per_loop = s->bytes_per_loop;
		if (s->error && !jr->error) {
			jr->error = s->error;
			jr->errmsg = strdup(s->errmsg);
			if (!jr->errmsg)
				goto fail;
		}
		if (s->end_ns > s->launch_ns && (s->end_ns - s->launch_ns) / 1000000000 + 1 > jr->elapsed_s)
			jr->elapsed_s = (s->end_ns - s->launch_ns) / 1000000000 + 1;
	}
	for (int d = 0; d < DDIR_NR; d++) {
		if (ddir_final(m, n, d, o, plus, runtime_ms, &jr->dir[d], hist_sum))
			goto fail;
		total_ios += jr->dir[d].total_ios;
	}
	jr->job_runtime_ms = run_sum_ms;
	if (run_sum_ms) {
		/* fio: CPU time over the summed runtimes of the jobs, in ms. */
		jr->usr_cpu = (double)(usr / 1000) * 100.0 / (double)run_sum_ms;
		jr->sys_cpu = (double)(sys / 1000) * 100.0 / (double)run_sum_ms;
	}
	dist_final(depth, total_ios, jr->iodepth_level);
	dist_final(sub, tsub, jr->iodepth_submit);
	dist_final(comp, tcomp, jr->iodepth_complete);
	lat_buckets(hist_sum, nb, ub, mb);
	pct_final(nb, total_ios, jr->latency_ns, JR_LAT_N_NR);
	pct_final(ub, total_ios, jr->latency_us, JR_LAT_U_NR);
	pct_final(mb, total_ios, jr->latency_ms, JR_LAT_M_NR);

	jr->sync_total_ios = sync.n;
	lat_final(&sync, &jr->sync_lat);
	if (sync.n && (o->clat_percentiles || o->lat_percentiles)) {
		uint64_t *sh = calloc(LAT_HIST_NR, sizeof(uint64_t));

		if (!sh)
			goto fail;
		for (unsigned i = 0; i < n; i++)
			for (unsigned k = 0; k < LAT_HIST_NR; k++)
				sh[k] += m[i]->sync_hist[k];
		int rc = hist_final(sh, sync.n, o, plus, &jr->sync_lat);

		free(sh);
		if (rc)
			goto fail;
	}
	free(hist_sum);
	return 0;
fail:
	free(hist_sum);
	return -1;
}
