// SPDX-License-Identifier: GPL-2.0
/*
 * fio's JSON into a struct jr_run; see jr_load.h. The key names and nesting
 * are report_json.c's, read backwards.
 */
#include "records/jr_load.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/errmsg.h"
#include "matrix/job_options.h"
#include "lib/json_fields.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define AT_LEN 64 /* "jobs[123].write.clat_ns": fixed keys and an index */

static const struct jf_field run_fields[] = {
	{ "timestamp", JF_TIME, offsetof(struct jr_run, timestamp) },
	{ "timestamp_ms", JF_U64, offsetof(struct jr_run, timestamp_ms) },
};

static const struct jf_field job_fields[] = {
	{ "groupid", JF_INT, offsetof(struct jr_job, groupid) },
	{ "error", JF_INT, offsetof(struct jr_job, error) },
	{ "elapsed", JF_U64, offsetof(struct jr_job, elapsed_s) },
	{ "job_runtime", JF_U64, offsetof(struct jr_job, job_runtime_ms) },
	{ "usr_cpu", JF_DBL, offsetof(struct jr_job, usr_cpu) },
	{ "sys_cpu", JF_DBL, offsetof(struct jr_job, sys_cpu) },
	{ "ctx", JF_U64, offsetof(struct jr_job, ctx) },
	{ "majf", JF_U64, offsetof(struct jr_job, majf) },
	{ "minf", JF_U64, offsetof(struct jr_job, minf) },
	{ "latency_depth", JF_U32, offsetof(struct jr_job, latency_depth) },
};

static const struct jf_field sync_fields[] = {
	{ "total_ios", JF_U64, offsetof(struct jr_job, sync_total_ios) },
};

/* iomatrix-runner's own, under the job's "iomatrix" (report_json.c). */
static const struct jf_field iomatrix_job_fields[] = {
	{ "jobs", JF_U32, offsetof(struct jr_job, members) },
	{ "bytes_per_loop", JF_U64, offsetof(struct jr_job, bytes_per_loop) },
	{ "loops_done", JF_U32, offsetof(struct jr_job, loops_done) },
	{ "verify_blocks", JF_U64, offsetof(struct jr_job, verify_blocks) },
	{ "verify_errors", JF_U64, offsetof(struct jr_job, verify_errors) },
	{ "pid", JF_INT, offsetof(struct jr_job, pid) },
	{ "end_time", JF_TIME, offsetof(struct jr_job, end_time) },
	{ "iodepth", JF_U32, offsetof(struct jr_job, iodepth) },
	{ "kb_base", JF_U32, offsetof(struct jr_job, kb_base) },
	{ "thread", JF_BOOL, offsetof(struct jr_job, thread) },
};

static const struct jf_field ddir_fields[] = {
	{ "io_bytes", JF_U64, offsetof(struct jr_ddir, io_bytes) },
	{ "bw_bytes", JF_U64, offsetof(struct jr_ddir, bw_bytes) },
	{ "bw", JF_U64, offsetof(struct jr_ddir, bw) },
	{ "iops", JF_DBL, offsetof(struct jr_ddir, iops) },
	{ "runtime", JF_U64, offsetof(struct jr_ddir, runtime_ms) },
	{ "total_ios", JF_U64, offsetof(struct jr_ddir, total_ios) },
	{ "short_ios", JF_U64, offsetof(struct jr_ddir, short_ios) },
	{ "drop_ios", JF_U64, offsetof(struct jr_ddir, drop_ios) },
	{ "bw_min", JF_U64, offsetof(struct jr_ddir, bw_min) },
	{ "bw_max", JF_U64, offsetof(struct jr_ddir, bw_max) },
	{ "bw_agg", JF_DBL, offsetof(struct jr_ddir, bw_agg) },
	{ "bw_mean", JF_DBL, offsetof(struct jr_ddir, bw_mean) },
	{ "bw_dev", JF_DBL, offsetof(struct jr_ddir, bw_dev) },
	{ "bw_samples", JF_U64, offsetof(struct jr_ddir, bw_samples) },
	{ "iops_min", JF_U64, offsetof(struct jr_ddir, iops_min) },
	{ "iops_max", JF_U64, offsetof(struct jr_ddir, iops_max) },
	{ "iops_mean", JF_DBL, offsetof(struct jr_ddir, iops_mean) },
	{ "iops_stddev", JF_DBL, offsetof(struct jr_ddir, iops_stddev) },
	{ "iops_samples", JF_U64, offsetof(struct jr_ddir, iops_samples) },
};

static const struct jf_field lat_fields[] = {
	{ "min", JF_U64, offsetof(struct jr_lat, min) },
	{ "max", JF_U64, offsetof(struct jr_lat, max) },
	{ "mean", JF_DBL, offsetof(struct jr_lat, mean) },
	{ "stddev", JF_DBL, offsetof(struct jr_lat, stddev) },
	{ "N", JF_U64, offsetof(struct jr_lat, n) },
};

static const struct jf_field disk_fields[] = {
	{ "read_ios", JF_U64, offsetof(struct jr_disk, ios[0]) },
	{ "write_ios", JF_U64, offsetof(struct jr_disk, ios[1]) },
	{ "read_merges", JF_U64, offsetof(struct jr_disk, merges[0]) },
	{ "write_merges", JF_U64, offsetof(struct jr_disk, merges[1]) },
	{ "read_ticks", JF_U64, offsetof(struct jr_disk, ticks[0]) },
	{ "write_ticks", JF_U64, offsetof(struct jr_disk, ticks[1]) },
	{ "in_queue", JF_U64, offsetof(struct jr_disk, in_queue) },
	{ "util", JF_DBL, offsetof(struct jr_disk, util) },
};

/* The job's distributions: percentages keyed by bucket name. */
static const struct {
	const char *key;
	size_t off;
	const char *const *names;
	int n;
} dists[] = {
	{ "iodepth_level", offsetof(struct jr_job, iodepth_level), jr_depth_keys, JR_DEPTH_NR },
	{ "iodepth_submit", offsetof(struct jr_job, iodepth_submit), jr_batch_keys, JR_DEPTH_NR },
	{ "iodepth_complete", offsetof(struct jr_job, iodepth_complete), jr_batch_keys,
	  JR_DEPTH_NR },
	{ "latency_ns", offsetof(struct jr_job, latency_ns), jr_lat_keys, JR_LAT_N_NR },
	{ "latency_us", offsetof(struct jr_job, latency_us), jr_lat_keys, JR_LAT_U_NR },
	{ "latency_ms", offsetof(struct jr_job, latency_ms), jr_lat_keys, JR_LAT_M_NR },
};

struct ld {
	char *err;
	size_t errlen;
	bool pct_known; /* the job's percentile list is set, by its first "percentile" */
};

/* "parent.key": fixed key names and an index, well within AT_LEN. */
static void join(char *at, const char *parent, const char *key)
{
	int n = snprintf(at, AT_LEN, "%s.%s", parent, key);

	if (n < 0 || n >= AT_LEN)
		snprintf(at, AT_LEN, "%s", key);
}

static int oom(struct ld *c)
{
	return errmsg(c->err, c->errlen, "out of memory");
}

static int bad(struct ld *c, const char *at, const char *key, const char *why)
{
	return jf_bad(c->err, c->errlen, at, key, why);
}

/* The member key of o when it is an object (NULL when absent); -1 when it is not one. */
static int object_member(struct ld *c, json_object *o, const char *at, const char *key,
			 json_object **out)
{
	*out = jf_member(o, key);
	if (*out && !json_object_is_type(*out, json_type_object))
		return bad(c, at, key, "not an object");
	return 0;
}

/*
 * Every percentile object of a job has the job's list of percentiles
 * (fio's percentile_list): the first one found sets jr_job.pct_keys.
 */
static int load_percentiles(struct ld *c, json_object *o, const char *lat_at, struct jr_job *j,
			    struct jr_lat *l)
{
	unsigned n = 0;
	char at[AT_LEN];

	join(at, lat_at, "percentile");
	json_object_object_foreach(o, key, val)
	{
		char *end;
		double p;

		if (n == PCT_LIST_MAX)
			return bad(c, at, NULL, "more than 64 percentiles");
		errno = 0;
		p = strtod(key, &end);
		if (end == key || *end || errno || !(p >= 0 && p <= 100))
			return bad(c, at, key, "not a percentile");
		if (!val)
			return bad(c, at, key, "not a number");
		if (c->pct_known && (n >= j->npct || j->pct_keys[n] != p))
			return bad(c, at, key, "not in the job's list of percentiles");
		j->pct_keys[n] = p;
		if (jf_value(val, at, key, JF_U64, &l->pct_val[n], c->err, c->errlen))
			return -1;
		n++;
	}
	if (c->pct_known && n != j->npct)
		return bad(c, at, NULL, "fewer percentiles than the job's list");
	if (n && !c->pct_known) {
		j->npct = n;
		c->pct_known = true;
	}
	l->npct = n;
	return 0;
}

/* json+: bucket midpoint in ns -> count. */
static int load_bins(struct ld *c, json_object *o, const char *lat_at, struct jr_lat *l)
{
	size_t n = (size_t)json_object_object_length(o);
	char at[AT_LEN];

	join(at, lat_at, "bins");
	if (!n)
		return 0;
	l->bins = calloc(n, sizeof(*l->bins));
	if (!l->bins)
		return oom(c);
	json_object_object_foreach(o, key, val)
	{
		struct jr_bin *b = &l->bins[l->nbins];
		char *end;

		errno = 0;
		b->value = strtoull(key, &end, 10);
		if (*key < '0' || *key > '9' || *end || errno)
			return bad(c, at, key, "not a latency in ns");
		if (!val)
			return bad(c, at, key, "not a number");
		if (jf_value(val, at, key, JF_U64, &b->count, c->err, c->errlen))
			return -1;
		l->nbins++;
	}
	return 0;
}

/* One of slat_ns, clat_ns, lat_ns; *with_pct is set when it holds percentiles. */
static int load_lat(struct ld *c, json_object *parent, const char *parent_at, const char *key,
		    struct jr_job *j, struct jr_lat *l, int *with_pct)
{
	json_object *o, *v;
	char at[AT_LEN];

	if (object_member(c, parent, parent_at, key, &o))
		return -1;
	if (!o)
		return 0;
	join(at, parent_at, key);
	if (jf_load(o, at, lat_fields, N(lat_fields), l, c->err, c->errlen))
		return -1;
	if (object_member(c, o, at, "percentile", &v) ||
	    (v && load_percentiles(c, v, at, j, l)))
		return -1;
	if (l->npct && with_pct)
		*with_pct = 1;
	if (object_member(c, o, at, "bins", &v) || (v && load_bins(c, v, at, l)))
		return -1;
	return 0;
}

static int load_ddir(struct ld *c, json_object *job, const char *job_at, int d, struct jr_job *j)
{
	struct jr_ddir *dd = &j->dir[d];
	json_object *o;
	char at[AT_LEN];

	if (object_member(c, job, job_at, jr_ddir_keys[d], &o))
		return -1;
	if (!o)
		return 0;
	join(at, job_at, jr_ddir_keys[d]);
	if (jf_load(o, at, ddir_fields, N(ddir_fields), dd, c->err, c->errlen) ||
	    load_lat(c, o, at, "slat_ns", j, &dd->slat, NULL) ||
	    load_lat(c, o, at, "clat_ns", j, &dd->clat, &j->clat_percentiles) ||
	    load_lat(c, o, at, "lat_ns", j, &dd->lat, &j->lat_percentiles))
		return -1;
	/* Older fio wrote only bw (KiB/s); the group lines need bytes/s. */
	if (!jf_member(o, "bw_bytes") && dd->runtime_ms)
		dd->bw_bytes = dd->io_bytes * 1000 / dd->runtime_ms;
	return 0;
}

static int load_dists(struct ld *c, json_object *job, const char *job_at, struct jr_job *j)
{
	for (size_t i = 0; i < N(dists); i++) {
		double *v = (double *)((char *)j + dists[i].off);
		json_object *o;
		char at[AT_LEN];

		if (object_member(c, job, job_at, dists[i].key, &o))
			return -1;
		if (!o)
			continue;
		join(at, job_at, dists[i].key);
		for (int k = 0; k < dists[i].n; k++) {
			json_object *x = jf_member(o, dists[i].names[k]);

			if (x && jf_value(x, at, dists[i].names[k], JF_DBL, &v[k], c->err,
					  c->errlen))
				return -1;
		}
	}
	return 0;
}

/* "job options" / "global options": option -> value, as written; "" is a bare flag. */
static int load_kvs(struct ld *c, json_object *parent, const char *parent_at, const char *key,
		    struct jr_kv **out, size_t *n)
{
	json_object *o;
	size_t len;

	if (object_member(c, parent, parent_at, key, &o))
		return -1;
	if (!o || !(len = (size_t)json_object_object_length(o)))
		return 0;
	*out = calloc(len, sizeof(**out));
	if (!*out)
		return oom(c);
	json_object_object_foreach(o, name, val)
	{
		struct jr_kv *kv = &(*out)[(*n)++];
		const char *s = val ? json_object_get_string(val) : "";

		if (val && (json_object_is_type(val, json_type_object) ||
			    json_object_is_type(val, json_type_array)))
			return bad(c, parent_at, key, "an option's value is not a string");
		kv->key = strdup(name);
		kv->value = *s ? strdup(s) : NULL;
		if (!kv->key || (*s && !kv->value))
			return oom(c);
	}
	return 0;
}

/*
 * Options as written, in order, onto o. Options iomatrix does not have are
 * skipped (fio has hundreds); a rw or ioengine value it cannot parse is
 * kept as text, so the header names fio's engine rather than a default.
 */
static void apply_options(struct job_options *o, const struct jr_kv *kv, size_t n,
			  const char **rw, const char **engine)
{
	char err[256];

	for (size_t i = 0; i < n; i++) {
		const struct option_def *d = option_find(kv[i].key);
		int failed;

		if (!d)
			continue;
		failed = option_set(o, d, kv[i].value, err, sizeof(err)) != 0;
		if (!strcmp(d->name, "rw"))
			*rw = failed ? kv[i].value : NULL;
		else if (!strcmp(d->name, "ioengine"))
			*engine = failed ? kv[i].value : NULL;
	}
}

/* The header facts from the job's options and their defaults; members is numjobs. */
static int header_from_options(struct ld *c, const struct jr_run *r, struct jr_job *j)
{
	const char *rw = NULL, *engine = NULL;
	struct job_options o;

	if (job_options_init(&o))
		return errmsg(c->err, c->errlen, "the option table's defaults do not parse");
	apply_options(&o, r->global_opts, r->nglobal, &rw, &engine);
	apply_options(&o, j->opts, j->nopts, &rw, &engine);
	/* fio's header drops rw's ":N" offset modifier. */
	if (rw)
		snprintf(j->rw, sizeof(j->rw), "%.*s", (int)strcspn(rw, ":"), rw);
	else
		snprintf(j->rw, sizeof(j->rw), "%s", option_choice_name("rw", o.rw));
	snprintf(j->ioengine, sizeof(j->ioengine), "%s",
		 engine ? engine : option_choice_name("ioengine", o.ioengine));
	j->iodepth = o.iodepth;
	for (int d = 0; d < DDIR_NR; d++) {
		j->bs_min[d] = o.bs_min[d];
		j->bs_max[d] = o.bs_max[d];
	}
	j->kb_base = o.kb_base;
	j->thread = (int)o.thread;
	j->members = o.numjobs;
	j->end_time = r->timestamp; /* fio prints its report's time */
	job_options_free(&o);
	return 0;
}

static int load_text(struct ld *c, json_object *o, const char *at, const char *key, char *buf,
		     size_t len)
{
	json_object *v = jf_member(o, key);

	if (!v)
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return bad(c, at, key, "not a string");
	snprintf(buf, len, "%s", json_object_get_string(v));
	return 0;
}

/* bs_min / bs_max: one number per direction. */
static int load_bs(struct ld *c, json_object *o, const char *at, const char *key, uint32_t *bs)
{
	json_object *a = jf_member(o, key);

	if (!a)
		return 0;
	if (!json_object_is_type(a, json_type_array) || json_object_array_length(a) != DDIR_NR)
		return bad(c, at, key, "not an array of 3 block sizes");
	for (int d = 0; d < DDIR_NR; d++) {
		json_object *v = json_object_array_get_idx(a, (size_t)d);

		if (!v)
			return bad(c, at, key, "not an array of 3 block sizes");
		if (jf_value(v, at, key, JF_U32, &bs[d], c->err, c->errlen))
			return -1;
	}
	return 0;
}

/* What iomatrix-runner wrote beside fio's keys; *has_members when it gave "jobs". */
static int load_iomatrix(struct ld *c, json_object *job, const char *job_at, struct jr_job *j,
			 bool *has_members)
{
	json_object *o;
	char at[AT_LEN];

	if (object_member(c, job, job_at, "iomatrix", &o))
		return -1;
	if (!o)
		return 0;
	join(at, job_at, "iomatrix");
	*has_members = jf_member(o, "jobs") != NULL;
	if (jf_load(o, at, iomatrix_job_fields, N(iomatrix_job_fields), j, c->err, c->errlen) ||
	    jf_string(o, at, "error_message", &j->errmsg, c->err, c->errlen) ||
	    load_text(c, o, at, "rw", j->rw, sizeof(j->rw)) ||
	    load_text(c, o, at, "ioengine", j->ioengine, sizeof(j->ioengine)) ||
	    load_bs(c, o, at, "bs_min", j->bs_min) || load_bs(c, o, at, "bs_max", j->bs_max))
		return -1;
	if (j->kb_base != 1000 && j->kb_base != 1024)
		return bad(c, at, "kb_base", "neither 1000 nor 1024");
	return 0;
}

static int load_job(struct ld *c, const struct jr_run *r, json_object *o, size_t idx,
		    struct jr_job *j, bool *has_members)
{
	json_object *sync;
	char at[AT_LEN], sync_at[AT_LEN];

	snprintf(at, sizeof(at), "jobs[%zu]", idx);
	c->pct_known = false;
	if (!json_object_is_type(o, json_type_object))
		return bad(c, at, NULL, "not an object");
	if (jf_string(o, at, "jobname", &j->name, c->err, c->errlen) ||
	    jf_string(o, at, "desc", &j->description, c->err, c->errlen) ||
	    jf_load(o, at, job_fields, N(job_fields), j, c->err, c->errlen) ||
	    load_kvs(c, o, at, "job options", &j->opts, &j->nopts))
		return -1;
	if (!j->name && !(j->name = strdup("")))
		return oom(c);
	for (int d = 0; d < DDIR_NR; d++)
		if (load_ddir(c, o, at, d, j))
			return -1;
	if (object_member(c, o, at, "sync", &sync))
		return -1;
	join(sync_at, at, "sync");
	if (sync && (jf_load(sync, sync_at, sync_fields, N(sync_fields), j, c->err, c->errlen) ||
		     load_lat(c, sync, sync_at, "lat_ns", j, &j->sync_lat, NULL)))
		return -1;
	if (load_dists(c, o, at, j) || header_from_options(c, r, j) ||
	    load_iomatrix(c, o, at, j, has_members))
		return -1;
	return 0;
}

static int load_disks(struct ld *c, json_object *root, struct jr_run *r)
{
	json_object *a = jf_member(root, "disk_util");
	size_t n;

	if (!a)
		return 0;
	if (!json_object_is_type(a, json_type_array))
		return bad(c, "", "disk_util", "not an array");
	n = json_object_array_length(a);
	if (!n)
		return 0;
	r->disks = calloc(n, sizeof(*r->disks));
	if (!r->disks)
		return oom(c);
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(a, i);
		struct jr_disk *d = &r->disks[r->ndisks++];
		char at[AT_LEN];

		snprintf(at, sizeof(at), "disk_util[%zu]", i);
		if (!json_object_is_type(o, json_type_object))
			return bad(c, at, NULL, "not an object");
		if (load_text(c, o, at, "name", d->name, sizeof(d->name)) ||
		    jf_load(o, at, disk_fields, N(disk_fields), d, c->err, c->errlen))
			return -1;
	}
	return 0;
}

/*
 * fio's JSON does not say how many clones a job entry stands for. numjobs
 * clones reported together (group_reporting) are one entry of that name in
 * its group; reported apart, they are several entries of one each.
 */
static void members_from_entries(struct jr_run *r, const bool *has_members)
{
	for (size_t i = 0; i < r->njobs; i++) {
		struct jr_job *j = &r->jobs[i];

		if (has_members[i])
			continue;
		for (size_t k = 0; k < r->njobs; k++)
			if (k != i && r->jobs[k].groupid == j->groupid &&
			    !strcmp(r->jobs[k].name, j->name))
				j->members = 1;
		if (!j->members)
			j->members = 1;
	}
}

int jr_load(json_object *root, struct jr_run *r, char *err, size_t errlen)
{
	struct ld c = { .err = err, .errlen = errlen };
	json_object *jobs = jf_member(root, "jobs");
	bool *has_members = NULL;
	size_t n;

	memset(r, 0, sizeof(*r));
	if (!json_object_is_type(root, json_type_object))
		return errmsg(err, errlen, "not a JSON object");
	if (!jobs || !json_object_is_type(jobs, json_type_array))
		return errmsg(err, errlen, "no \"jobs\" array: not fio's JSON");
	if (load_text(&c, root, "", "fio version", r->fio_version, sizeof(r->fio_version)))
		goto fail;
	/* fio 2 wrote io_bytes in KiB and latencies in usec under other keys. */
	if (!strncmp(r->fio_version, "fio-2.", 6) || !strncmp(r->fio_version, "fio-1.", 6)) {
		errmsg(err, errlen, "%s's JSON: only fio 3's is read (fio 2's has other units)",
		       r->fio_version);
		goto fail;
	}
	if (jf_load(root, "", run_fields, N(run_fields), r, err, errlen) ||
	    load_kvs(&c, root, "", "global options", &r->global_opts, &r->nglobal))
		goto fail;
	n = json_object_array_length(jobs);
	r->jobs = calloc(n ? n : 1, sizeof(*r->jobs));
	has_members = calloc(n ? n : 1, sizeof(*has_members));
	if (!r->jobs || !has_members) {
		oom(&c);
		goto fail;
	}
	for (size_t i = 0; i < n; i++) {
		r->njobs = i + 1; /* a half-loaded job is freed with the rest */
		if (load_job(&c, r, json_object_array_get_idx(jobs, i), i, &r->jobs[i],
			     &has_members[i]))
			goto fail;
	}
	members_from_entries(r, has_members);
	for (size_t i = 0; i < r->njobs; i++) {
		r->started += r->jobs[i].members;
		r->threads |= r->jobs[i].thread;
	}
	if (load_disks(&c, root, r))
		goto fail;
	free(has_members);
	return 0;
fail:
	free(has_members);
	jr_run_free(r);
	return -1;
}

int jr_parse_output(const char *text, size_t len, json_object **root, size_t *start,
		    size_t *end, char *err, size_t errlen)
{
	struct json_tokener *tok;
	enum json_tokener_error e;
	size_t at = 0;

	*root = NULL;
	while (at < len && text[at] != '{') {
		const char *nl = memchr(text + at, '\n', len - at);

		at = nl ? (size_t)(nl - text) + 1 : len;
	}
	if (at >= len)
		return errmsg(err, errlen, "no JSON object (no line starts with '{')");
	if (len - at > INT_MAX)
		return errmsg(err, errlen, "too large for a JSON output (%zu bytes)", len - at);
	tok = json_tokener_new();
	if (!tok)
		return errmsg(err, errlen, "out of memory");
	*root = json_tokener_parse_ex(tok, text + at, (int)(len - at));
	e = json_tokener_get_error(tok);
	if (!*root || e != json_tokener_success) {
		errmsg(err, errlen, "not JSON (%s at byte %zu)",
		       e == json_tokener_continue ? "cut off" : json_tokener_error_desc(e),
		       at + json_tokener_get_parse_end(tok));
		json_object_put(*root);
		*root = NULL;
		json_tokener_free(tok);
		return -1;
	}
	if (start)
		*start = at;
	if (end) {
		/* The tokener eats the whitespace after the object: give back all of it. */
		*end = at + json_tokener_get_parse_end(tok);
		while (*end > at && strchr(" \t\r\n", text[*end - 1]))
			(*end)--;
	}
	json_tokener_free(tok);
	return 0;
}
