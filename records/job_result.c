// SPDX-License-Identifier: GPL-2.0
/* Group totals and freeing of run results; see job_result.h. */
#include "records/job_result.h"

#include <stdlib.h>
#include <string.h>

const char *const jr_ddir_keys[DDIR_NR] = { "read", "write", "trim" };
const char *const jr_depth_keys[JR_DEPTH_NR] = { "1", "2", "4", "8", "16", "32", ">=64" };
const char *const jr_batch_keys[JR_DEPTH_NR] = { "0", "4", "8", "16", "32", "64", ">=64" };
const char *const jr_lat_keys[JR_LAT_M_NR] = { "2",   "4",   "10",  "20",   "50",   "100",
					       "250", "500", "750", "1000", "2000", ">=2000" };

const struct jr_group *jr_group_of(const struct jr_group *g, size_t n, int groupid)
{
	for (size_t i = 0; i < n; i++)
		if (g[i].groupid == groupid)
			return &g[i];
	return NULL;
}

int jr_groups(const struct jr_run *r, struct jr_group **out, size_t *n)
{
	struct jr_group *g = calloc(r->njobs ? r->njobs : 1, sizeof(*g));
	size_t ng = 0;

	if (!g)
		return -1;
	for (size_t i = 0; i < r->njobs; i++) {
		const struct jr_job *j = &r->jobs[i];
		struct jr_group *grp = (struct jr_group *)jr_group_of(g, ng, j->groupid);

		if (!grp) {
			grp = &g[ng++];
			grp->groupid = j->groupid;
			for (int d = 0; d < DDIR_NR; d++)
				grp->min_bw[d] = grp->min_run[d] = UINT64_MAX;
		}
		grp->kb_base = j->kb_base; /* fio: the group's last job's */
		for (int d = 0; d < DDIR_NR; d++) {
			const struct jr_ddir *dd = &j->dir[d];

			if (!dd->runtime_ms)
				continue;
			grp->io_bytes[d] += dd->io_bytes;
			if (dd->bw_bytes < grp->min_bw[d])
				grp->min_bw[d] = dd->bw_bytes;
			if (dd->bw_bytes > grp->max_bw[d])
				grp->max_bw[d] = dd->bw_bytes;
			if (dd->runtime_ms < grp->min_run[d])
				grp->min_run[d] = dd->runtime_ms;
			if (dd->runtime_ms > grp->max_run[d])
				grp->max_run[d] = dd->runtime_ms;
		}
	}
	for (size_t i = 0; i < ng; i++)
		for (int d = 0; d < DDIR_NR; d++) {
			if (!g[i].max_run[d]) {
				g[i].min_bw[d] = g[i].min_run[d] = 0;
				continue;
			}
			g[i].agg_bw[d] = g[i].io_bytes[d] * 1000 / g[i].max_run[d];
		}
	*out = g;
	*n = ng;
	return 0;
}

double jr_bw_agg_pct(const struct jr_group *g, int dir, double bw_mean_kib)
{
	double p = 100.0;

	if (g && g->agg_bw[dir] > 1024) {
		p = bw_mean_kib * 100.0 / ((double)g->agg_bw[dir] / 1024.0);
		if (p > 100.0)
			p = 100.0;
	}
	return p;
}

static void lat_free(struct jr_lat *l)
{
	free(l->bins);
	l->bins = NULL;
	l->nbins = 0;
}

void jr_job_free(struct jr_job *j)
{
	free(j->name);
	free(j->description);
	free(j->errmsg);
	for (size_t i = 0; i < j->nopts; i++) {
		free(j->opts[i].key);
		free(j->opts[i].value);
	}
	free(j->opts);
	for (int d = 0; d < DDIR_NR; d++) {
		lat_free(&j->dir[d].slat);
		lat_free(&j->dir[d].clat);
		lat_free(&j->dir[d].lat);
	}
	lat_free(&j->sync_lat);
	memset(j, 0, sizeof(*j));
}

void jr_run_free(struct jr_run *r)
{
	for (size_t i = 0; i < r->njobs; i++)
		jr_job_free(&r->jobs[i]);
	free(r->jobs);
	for (size_t i = 0; i < r->nglobal; i++) {
		free(r->global_opts[i].key);
		free(r->global_opts[i].value);
	}
	free(r->global_opts);
	free(r->disks);
	memset(r, 0, sizeof(*r));
}
