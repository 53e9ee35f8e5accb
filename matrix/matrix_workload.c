// SPDX-License-Identifier: GPL-2.0
/*
 * A cell's workload: the [workload.NAME] definition, then the cell's set=
 * overrides in order, then the scale knob; and the command line that runs
 * it. Scaling follows matrix/README.md: sizes round down to whole MiB (and
 * whole blocks), runtimes to whole seconds; neither goes below its minimum
 * (1 MiB or one block, 1 s) nor above its unscaled value.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix/matrix_estimate.h"
#include "matrix/matrix_internal.h"
#include "matrix/matrix_parse.h"
#include "matrix/matrix_units.h"

/* The fio options the scale knob shrinks (by their canonical names). */
enum scaled_kind { NOT_SCALED, SCALED_SIZE, SCALED_TIME };
static const struct {
	const char *key;
	enum scaled_kind kind;
} scaled_keys[] = {
	{"size", SCALED_SIZE},
	{"io_size", SCALED_SIZE},
	{"runtime", SCALED_TIME},
	{"ramp_time", SCALED_TIME},
};
#define NSCALED (sizeof(scaled_keys) / sizeof(scaled_keys[0]))

static enum scaled_kind scaled_kind(const char *key)
{
	key = fio_canonical_key(key);
	for (size_t i = 0; i < NSCALED; i++)
		if (!strcmp(key, scaled_keys[i].key))
			return scaled_keys[i].kind;
	return NOT_SCALED;
}

/* The scale knob's rounding (matrix/README.md); bs 0 when not known. */
static uint64_t scale_size(uint64_t v, double scale, uint64_t bs)
{
	uint64_t gran = bs > MX_MIB ? bs : MX_MIB;
	uint64_t r;

	if (scale == 1 || !v)
		return v;
	r = (uint64_t)floor((double)v * scale / (double)gran) * gran;
	if (r < gran)
		r = gran;
	if (bs > 1 && r % bs)
		r -= r % bs;
	if (r < bs)
		r = bs;
	return r < v ? r : v;
}

static double scale_runtime(double v, double scale)
{
	double r;

	if (scale == 1 || v < 1)
		return v;
	r = floor(v * scale);
	if (r < 1)
		r = 1;
	return r < v ? r : v;
}

/* A fio option's value at this scale, in a new string. */
static int scale_option(const struct kv *o, double scale, char **out, char *err, size_t errlen)
{
	char buf[64];

	*out = NULL;
	if (scale != 1 && o->value && scaled_kind(o->key) == SCALED_SIZE &&
	    !strchr(o->value, '%')) {
		uint64_t v;

		if (mx_parse_size(o->value, &v))
			return mx_fail_at(err, errlen, o->at,
					  "cannot scale %s=%s: not a plain size "
					  "(give a size, or run at scale 1)",
					  o->key, o->value);
		mx_format_size_exact(scale_size(v, scale, 0), buf, sizeof(buf));
	} else if (scale != 1 && o->value && scaled_kind(o->key) == SCALED_TIME) {
		double v;

		if (mx_parse_duration(o->value, &v))
			return mx_fail_at(err, errlen, o->at, "cannot scale %s=%s: not a duration",
					  o->key, o->value);
		snprintf(buf, sizeof(buf), "%g", scale_runtime(v, scale));
	} else {
		*out = strdup(o->value ? o->value : "");
		return *out ? 0 : mx_fail(err, errlen, "out of memory");
	}
	*out = strdup(buf);
	return *out ? 0 : mx_fail(err, errlen, "out of memory");
}

static int push(char ***list, int *n, const char *key, const char *value)
{
	size_t len = strlen(key) + (value ? strlen(value) + 1 : 0) + 1;
	char **grown = realloc(*list, (*n + 2) * sizeof(*grown));
	char *s;

	if (!grown)
		return -1;
	*list = grown;
	s = malloc(len);
	if (!s)
		return -1;
	snprintf(s, len, value ? "%s=%s" : "%s", key, value ? value : "");
	grown[(*n)++] = s;
	grown[*n] = NULL;
	return 0;
}

/* Appends the options of l to list (and to facts' list), scaled. */
static int push_scaled(char ***list, int *n, struct kv_list *scaled, const struct kv_list *l,
		       double scale, char *err, size_t errlen)
{
	for (int i = 0; i < l->count; i++) {
		const struct kv *o = &l->items[i];
		char *v;

		if (scale_option(o, scale, &v, err, errlen))
			return -1;
		if (push(list, n, o->key, o->value ? v : NULL) ||
		    kv_append(scaled, o->key, o->value ? v : NULL, o->at)) {
			free(v);
			return mx_fail(err, errlen, "out of memory");
		}
		free(v);
	}
	return 0;
}

/* The value a job sees for key: [global], then its section; NULL if none. */
static const struct kv *job_value(const struct jobfile *jf, int job, const char *key)
{
	const struct kv *v = kv_last(&jf->jobs[job], key);

	return v ? v : kv_last(&jf->global, key);
}

/*
 * A job file's own size= or runtime= can only shrink through --set, which
 * applies to every job: so every job must have the same value.
 */
static int scale_jobfile_key(const struct jobfile *jf, const char *key, double scale, char ***set,
			     int *nset, struct kv_list *scaled, char *err, size_t errlen)
{
	const struct kv *first = job_value(jf, 0, key);
	char *v;

	for (int j = 1; j < jf->njobs; j++) {
		const struct kv *o = job_value(jf, j, key);

		if (!o != !first ||
		    (o && strcmp(o->value ? o->value : "", first->value ? first->value : "")))
			return mx_fail(err, errlen,
				       "%s: jobs %s and %s differ in %s=; scale "
				       "applies one value to every job (use scale 1, or give %s= "
				       "in the workload's set=)",
				       jf->path, jf->job_names[0], jf->job_names[j], key, key);
	}
	if (!first || !first->value)
		return 0;
	if (scale_option(first, scale, &v, err, errlen))
		return -1;
	if (push(set, nset, key, v) || kv_append(scaled, key, v, first->at)) {
		free(v);
		return mx_fail(err, errlen, "out of memory");
	}
	free(v);
	return 0;
}

static void join(char *buf, size_t len, const char *prefix, char **words, int n)
{
	size_t used = snprintf(buf, len, "%s", prefix);

	for (int i = 0; i < n && used < len; i++)
		used += snprintf(buf + used, len - used, " %s", words[i]);
}

/* Spreads files round-robin over the filesystems; returns the fullest one's bytes. */
static uint64_t fullest_fs(const struct workload_shape *shape, int filesystems)
{
	uint64_t per_fs[MATRIX_MAX_DISKS] = {0}, max = 0;
	int next = 0;

	if (filesystems < 1 || filesystems > MATRIX_MAX_DISKS)
		return 0;
	for (int j = 0; j < shape->njobs; j++) {
		const struct fio_facts *f = &shape->jobs[j];
		uint64_t files, file_bytes;

		if (!f->size)
			return 0; /* relative or unknown: the rule cannot judge */
		files = f->shared_file ? 1 : (uint64_t)f->numjobs * f->nrfiles;
		file_bytes = f->shared_file ? f->size : f->size / f->nrfiles;
		for (int d = 0; d < filesystems; d++)
			per_fs[(next + d) % filesystems] +=
				(files / filesystems + ((uint64_t)d < files % filesystems)) *
				file_bytes;
		next = (int)((next + files) % filesystems);
	}
	for (int d = 0; d < filesystems; d++)
		if (per_fs[d] > max)
			max = per_fs[d];
	return max;
}

static int resolve_fio(const struct workload_def *def, const struct settings *s, int filesystems,
		       double scale, struct cell_workload *w, struct workload_shape *shape,
		       char *err, size_t errlen)
{
	struct kv_list opts = {0}, sets = {0};
	char summary[1024];
	int rc = -1;

	if (push_scaled(&w->options, &w->noptions, &opts, &def->options, scale, err, errlen) ||
	    push_scaled(&w->set, &w->nset, &sets, &def->set, scale, err, errlen) ||
	    push_scaled(&w->set, &w->nset, &sets, &s->set, scale, err, errlen))
		goto out;
	if (def->has_jf && scale != 1)
		for (size_t k = 0; k < NSCALED; k++)
			if (!kv_last(&sets, scaled_keys[k].key) &&
			    scale_jobfile_key(&def->jf, scaled_keys[k].key, scale, &w->set,
					      &w->nset, &sets, err, errlen))
				goto out;
	if (def->has_jf) {
		w->job_file = strdup(def->job_path);
		if (!w->job_file) {
			mx_fail(err, errlen, "out of memory");
			goto out;
		}
	}

	shape->njobs = def->has_jf ? def->jf.njobs : 1;
	if (shape->njobs > WORKLOAD_SHAPE_JOBS)
		shape->njobs = WORKLOAD_SHAPE_JOBS;
	for (int j = 0; j < shape->njobs; j++) {
		struct fio_facts *f = &shape->jobs[j];

		fio_facts_init(f);
		if (def->has_jf) {
			fio_facts_apply(f, &def->jf.global);
			fio_facts_apply(f, &def->jf.jobs[j]);
		}
		fio_facts_apply(f, &opts);
		fio_facts_apply(f, &sets);
		w->buffer_bytes += (uint64_t)f->numjobs * f->iodepth * f->bs;
	}
	w->bytes_per_fs = fullest_fs(shape, filesystems);

	if (def->has_jf) {
		const char *base = strrchr(def->job, '/');

		snprintf(summary, sizeof(summary), "fio %s", base ? base + 1 : def->job);
	} else {
		join(summary, sizeof(summary), "fio", w->options, w->noptions);
	}
	if (w->nset) {
		size_t n = strlen(summary);

		join(summary + n, sizeof(summary) - n, " set", w->set, w->nset);
	}
	w->summary = strdup(summary);
	rc = w->summary ? 0 : mx_fail(err, errlen, "out of memory");
out:
	kv_list_free(&opts);
	kv_list_free(&sets);
	return rc;
}

static int resolve_dd(const struct workload_def *def, const struct settings *s, int filesystems,
		      double scale, struct cell_workload *w, struct workload_shape *shape,
		      char *err, size_t errlen)
{
	struct workload_def dd = *def; /* only its dd fields are changed */
	const struct kv_list *lists[] = {&def->set, &s->set};
	char summary[256], bs[32], size[32];
	int per_fs;

	for (int l = 0; l < 2; l++)
		for (int i = 0; i < lists[l]->count; i++) {
			const struct kv *o = &lists[l]->items[i];
			char msg[MATRIX_ERR_LEN];

			if (dd_key_parse(&dd, o->key, o->value, msg, sizeof(msg)))
				return mx_fail_at(err, errlen, o->at, "set for dd workload %s: %s",
						  def->name, msg);
		}
	per_fs = dd.writers_per_fs;
	w->writers = per_fs ? per_fs * filesystems : dd.writers;
	w->bs = dd.bs;
	w->size = scale_size(dd.size, scale, dd.bs);
	w->runtime_s = scale_runtime(dd.runtime, scale);
	w->buffer_bytes = (uint64_t)w->writers * w->bs;
	if (w->size)
		w->bytes_per_fs =
			(uint64_t)((w->writers + filesystems - 1) / filesystems) * w->size;
	shape->njobs = 0;

	mx_format_size_exact(w->bs, bs, sizeof(bs));
	if (w->size) {
		mx_format_size_exact(w->size, size, sizeof(size));
		snprintf(summary, sizeof(summary), "dd %d writer%s bs=%s size=%s each", w->writers,
			 w->writers == 1 ? "" : "s", bs, size);
	} else {
		snprintf(summary, sizeof(summary), "dd %d writer%s bs=%s runtime=%gs", w->writers,
			 w->writers == 1 ? "" : "s", bs, w->runtime_s);
	}
	w->summary = strdup(summary);
	return w->summary ? 0 : mx_fail(err, errlen, "out of memory");
}

int workload_resolve(const struct matrix *m, const struct settings *s, int filesystems,
		     double scale, struct cell_workload *w, struct workload_shape *shape, char *err,
		     size_t errlen)
{
	const struct workload_def *def = matrix_workload(m, s->workload);
	struct workload_shape unused;
	int rc;

	memset(w, 0, sizeof(*w));
	if (!shape)
		shape = &unused;
	if (!def)
		return mx_fail(err, errlen, "no [workload.%s]", s->workload);
	w->kind = def->kind;
	w->name = strdup(def->name);
	if (!w->name)
		return mx_fail(err, errlen, "out of memory");
	if (def->kind == WORKLOAD_DD)
		rc = resolve_dd(def, s, filesystems, scale, w, shape, err, errlen);
	else
		rc = resolve_fio(def, s, filesystems, scale, w, shape, err, errlen);
	if (rc)
		cell_workload_free(w);
	return rc;
}

static void free_words(char **words, int n)
{
	for (int i = 0; i < n; i++)
		free(words[i]);
	free(words);
}

void cell_workload_free(struct cell_workload *w)
{
	free(w->name);
	free(w->job_file);
	free_words(w->options, w->noptions);
	free_words(w->set, w->nset);
	free(w->summary);
	memset(w, 0, sizeof(*w));
}

static int argv_add(char ***argv, int *argc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int argv_add(char ***argv, int *argc, const char *fmt, ...)
{
	char **grown = realloc(*argv, (*argc + 2) * sizeof(*grown));
	va_list ap;
	int rc;

	if (!grown)
		return -1;
	*argv = grown;
	va_start(ap, fmt);
	rc = vasprintf(&grown[*argc], fmt, ap);
	va_end(ap);
	if (rc < 0) {
		grown[*argc] = NULL;
		return -1;
	}
	grown[++*argc] = NULL;
	return 0;
}

static int join_dirs(const char *const *dirs, int ndirs, char *buf, size_t len, char *err,
		     size_t errlen)
{
	size_t used = 0;

	if (ndirs < 1)
		return mx_fail(err, errlen, "no directory to run the workload in");
	for (int i = 0; i < ndirs; i++) {
		if (strchr(dirs[i], ':'))
			return mx_fail(err, errlen,
				       "directory %s contains ':', which separates "
				       "directories",
				       dirs[i]);
		used += snprintf(buf + used, len - used, "%s%s", i ? ":" : "", dirs[i]);
		if (used >= len)
			return mx_fail(err, errlen, "directory list too long");
	}
	return 0;
}

int cell_workload_argv(const struct cell *c, const char *const *dirs, int ndirs, char ***argv,
		       char *err, size_t errlen)
{
	const struct cell_workload *w = &c->workload;
	char dirlist[4096], num[32];
	int argc = 0, bad = 0;

	*argv = NULL;
	if (join_dirs(dirs, ndirs, dirlist, sizeof(dirlist), err, errlen))
		return -1;
	if (w->kind == WORKLOAD_DD) {
		bad |= argv_add(argv, &argc, "dd");
		bad |= argv_add(argv, &argc, "--writers");
		bad |= argv_add(argv, &argc, "%d", w->writers);
		mx_format_size_exact(w->bs, num, sizeof(num));
		bad |= argv_add(argv, &argc, "--bs");
		bad |= argv_add(argv, &argc, "%s", num);
		if (w->size) {
			mx_format_size_exact(w->size, num, sizeof(num));
			bad |= argv_add(argv, &argc, "--size");
			bad |= argv_add(argv, &argc, "%s", num);
		} else {
			bad |= argv_add(argv, &argc, "--runtime");
			bad |= argv_add(argv, &argc, "%g", w->runtime_s);
		}
		bad |= argv_add(argv, &argc, "--directory");
		bad |= argv_add(argv, &argc, "%s", dirlist);
	} else {
		if (w->job_file)
			bad |= argv_add(argv, &argc, "%s", w->job_file);
		else
			bad |= argv_add(argv, &argc, "--name=%s", w->name);
		for (int i = 0; i < w->noptions; i++)
			bad |= argv_add(argv, &argc, "--%s", w->options[i]);
		for (int i = 0; i < w->nset; i++) {
			bad |= argv_add(argv, &argc, "--set");
			bad |= argv_add(argv, &argc, "%s", w->set[i]);
		}
		/* last, so the runner decides where files go */
		bad |= argv_add(argv, &argc, "--set");
		bad |= argv_add(argv, &argc, "directory=%s", dirlist);
	}
	if (bad) {
		cell_argv_free(*argv);
		*argv = NULL;
		return mx_fail(err, errlen, "out of memory");
	}
	return argc;
}

void cell_argv_free(char **argv)
{
	if (!argv)
		return;
	for (char **a = argv; *a; a++)
		free(*a);
	free(argv);
}
