// SPDX-License-Identifier: GPL-2.0
/* One side of a comparison: the runs (boots) of one kernel, merged into one set. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compare/rs_side.h"

/* More boots than anyone makes of one kernel; a bound for the path list. */
#define SIDE_MAX_RUNS 1000

struct paths {
	char **p;
	size_t n;
};

static void paths_free(struct paths *ps)
{
	for (size_t i = 0; i < ps->n; i++)
		free(ps->p[i]);
	free(ps->p);
	memset(ps, 0, sizeof(*ps));
}

static int paths_add(struct paths *ps, const char *p, size_t len, char *err, size_t errlen)
{
	char **grown;

	if (ps->n == SIDE_MAX_RUNS) {
		snprintf(err, errlen, "more than %d result sets on one side", SIDE_MAX_RUNS);
		return -1;
	}
	grown = realloc(ps->p, (ps->n + 1) * sizeof(*grown));
	if (!grown || !(grown[ps->n] = strndup(p, len))) {
		if (grown)
			ps->p = grown;
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	ps->p = grown;
	ps->n++;
	return 0;
}

static bool is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* dir/name in buf; false when it does not fit. */
static bool path_join(char *buf, size_t len, const char *dir, const char *name)
{
	int n = snprintf(buf, len, "%s/%s", dir, name);

	return n >= 0 && (size_t)n < len;
}

static bool is_result_set(const char *p)
{
	char m[4096];
	struct stat st;

	return path_join(m, sizeof(m), p, "manifest.json") && stat(m, &st) == 0 &&
	       S_ISREG(st.st_mode);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The result sets directly under dir, in name order: the runs a directory stands for. */
static int sets_under(const char *dir, struct paths *ps, char *err, size_t errlen)
{
	struct paths found = { 0 };
	struct dirent *e;
	DIR *d = opendir(dir);
	int rc = 0;

	if (!d) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	while (rc == 0 && (e = readdir(d))) {
		char sub[4096];

		if (e->d_name[0] == '.' || !path_join(sub, sizeof(sub), dir, e->d_name))
			continue;
		if (is_dir(sub) && is_result_set(sub))
			rc = paths_add(&found, sub, strlen(sub), err, errlen);
	}
	closedir(d);
	if (rc == 0 && found.n == 0) {
		snprintf(err, errlen,
			 "%s: not a result set (no manifest.json), nor a directory of result sets",
			 dir);
		rc = -1;
	}
	if (rc == 0)
		qsort(found.p, found.n, sizeof(*found.p), name_cmp);
	for (size_t i = 0; rc == 0 && i < found.n; i++)
		rc = paths_add(ps, found.p[i], strlen(found.p[i]), err, errlen);
	paths_free(&found);
	return rc;
}

static int add_spec_part(const char *p, size_t len, struct paths *ps, char *err, size_t errlen)
{
	char path[4096];

	if (len == 0) {
		snprintf(err, errlen, "an empty path between commas");
		return -1;
	}
	snprintf(path, sizeof(path), "%.*s", (int)len, p);
	/* Not a directory at all: rs_load says what is wrong with it. */
	if (is_result_set(path) || !is_dir(path))
		return paths_add(ps, p, len, err, errlen);
	return sets_under(path, ps, err, errlen);
}

static int side_paths(const char *spec, struct paths *ps, char *err, size_t errlen)
{
	const char *p = spec;
	struct stat st;

	if (stat(spec, &st) == 0)
		return add_spec_part(spec, strlen(spec), ps, err, errlen);
	for (;;) {
		size_t len = strcspn(p, ",");

		if (add_spec_part(p, len, ps, err, errlen))
			return -1;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* The last component of a path, without trailing slashes. */
static const char *base_name(const char *p, size_t *len)
{
	size_t n = strlen(p);
	const char *b;

	while (n > 1 && p[n - 1] == '/')
		n--;
	b = memrchr(p, '/', n);
	b = b ? b + 1 : p;
	*len = n - (size_t)(b - p);
	return b;
}

static int check_matrix(const struct result_set *first, const struct result_set *r, char *err,
			size_t errlen)
{
	if (same_str(first->matrix, r->matrix) &&
	    (first->cell_count < 0 || r->cell_count < 0 || first->cell_count == r->cell_count))
		return 0;
	snprintf(err, errlen,
		 "%s is matrix \"%s\" (%d cells), %s is \"%s\" (%d cells): the runs of one side "
		 "must run one matrix",
		 r->path, r->matrix ? r->matrix : "?", r->cell_count, first->path,
		 first->matrix ? first->matrix : "?", first->cell_count);
	return -1;
}

/* One line when the runs are not all the same kernel: compared as one all the same. */
static void check_kernels(struct result_set *side)
{
	const struct result_set *a = &side->runs[0];

	for (size_t i = 1; i < side->nruns; i++) {
		const struct result_set *b = &side->runs[i];

		if (same_str(a->kernel_release, b->kernel_release) &&
		    same_str(a->kernel_version, b->kernel_version))
			continue;
		rs_warn(side,
			"runs of different kernels, compared as one: %s is %s %s, %s is %s %s",
			a->path, a->kernel_release ? a->kernel_release : "?",
			a->kernel_version ? a->kernel_version : "", b->path,
			b->kernel_release ? b->kernel_release : "?",
			b->kernel_version ? b->kernel_version : "");
		return;
	}
}

static long sum_count(long a, long b)
{
	return a < 0 || b < 0 ? -1 : a + b;
}

static int merge_run(struct result_set *side, struct result_set *run, int index)
{
	size_t nlen;
	const char *name = base_name(run->path, &nlen);
	long *grown;

	for (size_t i = 0; i < run->ncells; i++) {
		const struct rs_cell *c = &run->cells[i];
		struct rs_cell *mc = rs_cell_for(side, c->key, c->index);

		if (!mc)
			return -1;
		for (size_t j = 0; j < c->nrecs; j++) {
			c->recs[j]->run = index;
			if (rs_cell_add(mc, c->recs[j]))
				return -1;
		}
	}
	for (size_t i = 0; i < run->nwarnings; i++)
		rs_warn(side, "%.*s: %s", (int)nlen, name, run->warnings[i]);
	if (run->ndamaged) {
		grown = realloc(side->damaged, (side->ndamaged + run->ndamaged) * sizeof(*grown));
		if (!grown)
			return -1;
		side->damaged = grown;
		memcpy(side->damaged + side->ndamaged, run->damaged,
		       run->ndamaged * sizeof(*grown));
		side->ndamaged += run->ndamaged;
	}
	side->nrecs += run->nrecs;
	side->counts.ok = sum_count(side->counts.ok, run->counts.ok);
	side->counts.failed = sum_count(side->counts.failed, run->counts.failed);
	side->counts.timeout = sum_count(side->counts.timeout, run->counts.timeout);
	side->counts.skipped = sum_count(side->counts.skipped, run->counts.skipped);
	side->counts.crashed = sum_count(side->counts.crashed, run->counts.crashed);
	side->counts.missing = sum_count(side->counts.missing, run->counts.missing);
	return 0;
}

static int merge(const char *spec, struct result_set *runs, size_t n, struct result_set *side,
		 char *err, size_t errlen)
{
	const struct result_set *first = &runs[0];
	bool one_release = true;

	memset(side, 0, sizeof(*side));
	side->runs = runs;
	side->nruns = n;
	side->owns_runs = true;
	side->cell_count = first->cell_count;
	side->path = strdup(spec);
	side->matrix = dup_or_null(first->matrix);
	side->kernel_release = dup_or_null(first->kernel_release);
	side->kernel_version = dup_or_null(first->kernel_version);
	side->created = dup_or_null(first->created);
	for (size_t i = 1; i < n; i++)
		one_release &= same_str(first->kernel_release, runs[i].kernel_release);
	side->label = strdup(one_release && first->kernel_release ? first->kernel_release
								  : first->label);
	if (!side->path || !side->label)
		goto oom;
	for (size_t i = 0; i < n; i++)
		if (merge_run(side, &runs[i], (int)i))
			goto oom;
	rs_sort_cells(side);
	check_kernels(side);
	return 0;
oom:
	snprintf(err, errlen, "%s: out of memory", spec);
	rs_free(side);
	return -1;
}

int rs_side_load(const char *spec, struct result_set *side, char *err, size_t errlen)
{
	struct paths ps = { 0 };
	struct result_set *runs = NULL;
	size_t nloaded = 0;

	memset(side, 0, sizeof(*side));
	if (side_paths(spec, &ps, err, errlen))
		goto fail;
	if (ps.n == 1) {
		int rc = rs_load(ps.p[0], side, err, errlen);

		paths_free(&ps);
		return rc;
	}
	runs = calloc(ps.n, sizeof(*runs));
	if (!runs) {
		snprintf(err, errlen, "%s: out of memory", spec);
		goto fail;
	}
	for (; nloaded < ps.n; nloaded++) {
		if (rs_load(ps.p[nloaded], &runs[nloaded], err, errlen))
			goto fail;
		if (check_matrix(&runs[0], &runs[nloaded], err, errlen)) {
			nloaded++;
			goto fail;
		}
	}
	paths_free(&ps);
	/* merge() owns the runs from here, and frees them on failure. */
	return merge(spec, runs, nloaded, side, err, errlen);
fail:
	for (size_t i = 0; i < nloaded; i++)
		rs_free(&runs[i]);
	free(runs);
	paths_free(&ps);
	return -1;
}

char *rs_side_name(const struct result_set *rs)
{
	size_t len, plen;
	const char *name = base_name(rs->path ? rs->path : "?", &len), *first;

	if (rs->nruns < 2 || !rs->runs || !strchr(rs->path, ','))
		return strndup(name, len);
	/* What the paths share: "runs/a/" of runs/a/1,runs/a/2; "x/base-" of x/base-1,x/base-2. */
	first = rs->runs[0].path;
	plen = strlen(first);
	for (size_t i = 1; i < rs->nruns; i++) {
		size_t k = 0;

		while (k < plen && rs->runs[i].path[k] == first[k])
			k++;
		plen = k;
	}
	while (plen && strchr("-_./ ", first[plen - 1]))
		plen--;
	if (!plen)
		return strndup(name, len);
	name = memrchr(first, '/', plen);
	name = name ? name + 1 : first;
	return strndup(name, plen - (size_t)(name - first));
}
