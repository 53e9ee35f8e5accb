// SPDX-License-Identifier: GPL-2.0
/*
 * Loading a matrix: parse (matrix_parse.c), then check what needs the whole
 * file: value sections against dimensions, values against their meaning,
 * workloads and their job files, rules, and finally every combination the
 * rules keep, so a matrix that loads expands on any machine.
 */
#include <dirent.h>
#include <limits.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "matrix/matrix_internal.h"
#include "matrix/matrix_parse.h"

static struct matrix *matrix_new(void)
{
	struct matrix *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->scale = 1;
	m->repeats = 1;
	m->defaults.readahead = -1;
	return m;
}

void matrix_free(struct matrix *m)
{
	if (!m)
		return;
	for (int d = 0; d < m->ndims; d++) {
		for (int v = 0; v < m->dims[d].nvalues; v++) {
			free(m->dims[d].values[v].name);
			settings_free(&m->dims[d].values[v].implied);
		}
		free(m->dims[d].values);
		free(m->dims[d].name);
	}
	settings_free(&m->defaults);
	for (int i = 0; i < m->nsections; i++) {
		free(m->sections[i].dim);
		free(m->sections[i].value);
		settings_free(&m->sections[i].s);
	}
	free(m->sections);
	for (int i = 0; i < m->nworkloads; i++) {
		struct workload_def *w = &m->workloads[i];

		free(w->name);
		free(w->job);
		free(w->job_path);
		if (w->has_jf)
			jobfile_free(&w->jf);
		kv_list_free(&w->options);
		kv_list_free(&w->set);
	}
	free(m->workloads);
	for (int i = 0; i < m->nrules; i++) {
		free(m->rules[i].text);
		cell_select_free(m->rules[i].sel);
	}
	free(m->rules);
	for (int i = 0; i < m->nfiles; i++)
		free(m->files[i]);
	free(m->files);
	free(m->name);
	free(m->description);
	free(m->path);
	free(m->jobs_dir);
	free(m);
}

static void list_values(const struct dimension *d, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < d->nvalues && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s", i ? " " : "", d->values[i].name);
}

static void list_dims(const struct matrix *m, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < m->ndims && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s", i ? " " : "", m->dims[i].name);
}

/* Hang each [DIM.VALUE] section on its value. */
static int attach_sections(struct matrix *m, char *err, size_t errlen)
{
	char list[512];

	for (int i = 0; i < m->nsections; i++) {
		struct value_section *vs = &m->sections[i];
		int d = matrix_dim_find(m, vs->dim), v;

		if (d < 0) {
			list_dims(m, list, sizeof(list));
			return mx_fail_at(err, errlen, vs->s.at,
					  "section [%s.%s]: no dimension %s "
					  "(dimensions: %s)",
					  vs->dim, vs->value, vs->dim, list);
		}
		v = matrix_value_find(m, d, vs->value);
		if (v < 0) {
			list_values(&m->dims[d], list, sizeof(list));
			return mx_fail_at(err, errlen, vs->s.at,
					  "section [%s.%s]: dimension %s has "
					  "no value %s (values: %s)",
					  vs->dim, vs->value, vs->dim, vs->value, list);
		}
		m->dims[d].values[v].section = &vs->s;
	}
	return 0;
}

/*
 * What a value means by itself: a built-in dimension's value is its setting
 * (fs=ext4 sets fs), unless the value's section sets that itself and the
 * value is only a label; any other dimension's value becomes the workload
 * option DIM=VALUE, unless the value has a section saying what it sets.
 */
static int imply_values(struct matrix *m, char *err, size_t errlen)
{
	char msg[MATRIX_ERR_LEN];

	for (int d = 0; d < m->ndims; d++) {
		struct dimension *dim = &m->dims[d];

		for (int v = 0; v < dim->nvalues; v++) {
			struct dim_value *val = &dim->values[v];

			val->implied.at = dim->at;
			if (dim->builtin) {
				if (val->section && (val->section->has & (1u << dim->builtin->id)))
					continue;
				if (setting_parse(&val->implied, dim->builtin, val->name, dim->at,
						  msg, sizeof(msg)))
					return mx_fail_at(err, errlen, dim->at,
							  "dimension %s: %s%s", dim->name, msg,
							  val->section ? ""
								       : " (or give the value a "
									 "section that sets it)");
			} else if (!val->section) {
				if (kv_append(&val->implied.set, dim->name, val->name, dim->at))
					return mx_fail(err, errlen, "out of memory");
				val->implied.has |= 1u << SET_SET;
			}
		}
	}
	return 0;
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, slash - path);
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* ../jobs (the image's /etc/iomatrix/jobs) or ../configs/jobs (the tree). */
static int find_jobs_dir(struct matrix *m, const struct matrix_load_opts *opts, char *err,
			 size_t errlen)
{
	static const char *const candidates[] = {"../jobs", "../configs/jobs"};
	char *dir;

	if (opts && opts->jobs_dir) {
		m->jobs_dir = strdup(opts->jobs_dir);
		return m->jobs_dir ? 0 : mx_fail(err, errlen, "out of memory");
	}
	dir = dir_of(m->path);
	if (!dir)
		return mx_fail(err, errlen, "out of memory");
	for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/%s", dir, candidates[i]);
		if (is_dir(path)) {
			char *real = realpath(path, NULL);

			m->jobs_dir = real ? real : strdup(path);
			free(dir);
			return m->jobs_dir ? 0 : mx_fail(err, errlen, "out of memory");
		}
	}
	free(dir);
	return 0;
}

static int check_workload(struct matrix *m, struct workload_def *w, char *err, size_t errlen)
{
	char path[4096], msg[MATRIX_ERR_LEN];

	if (!w->kind_known)
		return mx_fail_at(err, errlen, w->at,
				  "workload %s: give job= or fio= (fio), or "
				  "writers= with size= or runtime= (dd)",
				  w->name);
	if (w->kind == WORKLOAD_DD) {
		if (!w->writers && !w->writers_per_fs)
			return mx_fail_at(err, errlen, w->at,
					  "workload %s: a dd workload needs "
					  "writers= or writers_per_fs=",
					  w->name);
		if (!w->size && !w->runtime)
			return mx_fail_at(err, errlen, w->at,
					  "workload %s: a dd workload needs "
					  "size= (per writer) or runtime=",
					  w->name);
		if (!w->bs)
			w->bs = 1024 * 1024;
		return 0;
	}
	if (!w->job)
		return 0;
	if (w->job[0] == '/') {
		snprintf(path, sizeof(path), "%s", w->job);
	} else {
		if (!m->jobs_dir)
			return mx_fail_at(
				err, errlen, w->at,
				"workload %s: job file %s: no jobs "
				"directory (none of ../jobs, ../configs/jobs next to the matrix)",
				w->name, w->job);
		snprintf(path, sizeof(path), "%s/%s", m->jobs_dir, w->job);
	}
	if (jobfile_read(&w->jf, path, msg, sizeof(msg)))
		return mx_fail_at(err, errlen, w->at, "workload %s: %s", w->name, msg);
	w->has_jf = true;
	w->job_path = strdup(path);
	return w->job_path ? 0 : mx_fail(err, errlen, "out of memory");
}

static int parse_rules(struct matrix *m, char *err, size_t errlen)
{
	char msg[MATRIX_ERR_LEN];

	for (int i = 0; i < m->nrules; i++) {
		m->rules[i].sel = cell_select_parse(m->rules[i].text, m, false, msg, sizeof(msg));
		if (!m->rules[i].sel)
			return mx_fail_at(err, errlen, m->rules[i].at, "exclude: %s", msg);
		if (cell_select_all(m->rules[i].sel))
			return mx_fail_at(err, errlen, m->rules[i].at,
					  "exclude needs at least one "
					  "dimension=value term");
	}
	return 0;
}

bool matrix_excluded(const struct matrix *m, const int *value_index)
{
	for (int i = 0; i < m->nrules; i++)
		if (cell_select_match_values(m->rules[i].sel, 0, value_index))
			return true;
	return false;
}

const struct workload_def *matrix_workload(const struct matrix *m, const char *name)
{
	for (int i = 0; i < m->nworkloads; i++)
		if (!strcmp(m->workloads[i].name, name))
			return &m->workloads[i];
	return NULL;
}

int matrix_resolve(const struct matrix *m, const int *value_index, struct settings *out, char *err,
		   size_t errlen)
{
	memset(out, 0, sizeof(*out));
	out->fs = FS_EXT4;
	out->array = ARRAY_JBOD;
	out->chunk = 512 * 1024; /* mdadm's default */
	out->resync = RESYNC_ASSUME_CLEAN;
	out->readahead = -1;
	out->repeats = m->repeats;
	out->time_limit = m->time_limit;
	if (settings_apply(out, &m->defaults))
		goto oom;
	for (int d = 0; d < m->ndims; d++) {
		const struct dim_value *v = &m->dims[d].values[value_index[d]];

		if (settings_apply(out, &v->implied))
			goto oom;
		if (v->section && settings_apply(out, v->section))
			goto oom;
	}
	return 0;
oom:
	settings_free(out);
	return mx_fail(err, errlen, "out of memory");
}

/* Advances an odometer over the dimensions, the last one fastest. */
bool matrix_next_combination(const struct matrix *m, int *value_index)
{
	for (int d = m->ndims - 1; d >= 0; d--) {
		if (++value_index[d] < m->dims[d].nvalues)
			return true;
		value_index[d] = 0;
	}
	return false;
}

void matrix_key(const struct matrix *m, const int *value_index, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int d = 0; d < m->ndims && n < len; d++)
		n += snprintf(buf + n, len - n, "%s%s=%s", d ? " " : "", m->dims[d].name,
			      m->dims[d].values[value_index[d]].name);
}

/* Every kept combination must resolve: a workload, and one that fits its settings. */
static int check_combinations(struct matrix *m, char *err, size_t errlen)
{
	int idx[MATRIX_MAX_DIMS] = {0};
	double product = 1;
	char key[1024], msg[MATRIX_ERR_LEN];

	for (int d = 0; d < m->ndims; d++)
		product *= m->dims[d].nvalues;
	if (product > MATRIX_MAX_CELLS)
		return mx_fail(err, errlen,
			       "%s: the dimensions multiply to %.0f cells, more than "
			       "%d",
			       m->path, product, MATRIX_MAX_CELLS);
	m->cell_count = 0;
	do {
		struct settings s;
		struct cell_workload w;

		if (matrix_excluded(m, idx))
			continue;
		m->cell_count++;
		if (matrix_resolve(m, idx, &s, err, errlen))
			return -1;
		matrix_key(m, idx, key, sizeof(key));
		if (!(s.has & (1u << SET_WORKLOAD))) {
			settings_free(&s);
			return mx_fail_at(
				err, errlen, m->dims[0].at,
				"cell '%s' has no workload "
				"(set workload= in [defaults], in a value's section, or make "
				"workload a dimension)",
				key);
		}
		if (!matrix_workload(m, s.workload)) {
			mx_fail_at(err, errlen, m->dims[0].at, "cell '%s': no [workload.%s]", key,
				   s.workload);
			settings_free(&s);
			return -1;
		}
		if (workload_resolve(m, &s, 1, m->scale, &w, NULL, msg, sizeof(msg))) {
			settings_free(&s);
			return mx_fail(err, errlen, "%s (cell '%s')", msg, key);
		}
		cell_workload_free(&w);
		settings_free(&s);
	} while (matrix_next_combination(m, idx));
	if (!m->cell_count)
		return mx_fail(err, errlen, "%s: [rules] exclude every cell", m->path);
	return 0;
}

static char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');
	size_t n;

	b = b ? b + 1 : path;
	n = strlen(b);
	if (n > 7 && !strcmp(b + n - 7, ".matrix"))
		n -= 7;
	return strndup(b, n);
}

static int finish(struct matrix *m, const struct matrix_load_opts *opts, char *err, size_t errlen)
{
	if (!m->have_dimensions || !m->ndims)
		return mx_fail(err, errlen,
			       "%s: no [dimensions] (a matrix needs at least one "
			       "dimension)",
			       m->path);
	if (!m->name) {
		m->name = base_name(m->path);
		if (!m->name)
			return mx_fail(err, errlen, "out of memory");
	}
	if (attach_sections(m, err, errlen) || imply_values(m, err, errlen) ||
	    find_jobs_dir(m, opts, err, errlen))
		return -1;
	for (int i = 0; i < m->nworkloads; i++)
		if (check_workload(m, &m->workloads[i], err, errlen))
			return -1;
	if (parse_rules(m, err, errlen))
		return -1;
	return check_combinations(m, err, errlen);
}

struct matrix *matrix_load(const char *path, const struct matrix_load_opts *opts, char *err,
			   size_t errlen)
{
	struct matrix *m = matrix_new();

	if (!m) {
		mx_fail(err, errlen, "out of memory");
		return NULL;
	}
	m->path = strdup(path);
	if (!m->path || matrix_parse_file(m, path, err, errlen) || finish(m, opts, err, errlen)) {
		if (!m->path)
			mx_fail(err, errlen, "out of memory");
		matrix_free(m);
		return NULL;
	}
	return m;
}

struct matrix *matrix_load_buffer(const char *name, const char *text, size_t len,
				  const struct matrix_load_opts *opts, char *err, size_t errlen)
{
	struct matrix *m = matrix_new();

	if (!m) {
		mx_fail(err, errlen, "out of memory");
		return NULL;
	}
	m->path = strdup(name);
	if (!m->path || matrix_parse_buffer(m, name, text, len, err, errlen) ||
	    finish(m, opts, err, errlen)) {
		if (!m->path)
			mx_fail(err, errlen, "out of memory");
		matrix_free(m);
		return NULL;
	}
	return m;
}

const char *matrix_name(const struct matrix *m)
{
	return m->name;
}

const char *matrix_description(const struct matrix *m)
{
	return m->description ? m->description : "";
}

double matrix_default_scale(const struct matrix *m)
{
	return m->scale;
}

int matrix_cell_count(const struct matrix *m)
{
	return m->cell_count;
}

int matrix_dim_count(const struct matrix *m)
{
	return m->ndims;
}

const char *matrix_dim_name(const struct matrix *m, int dim)
{
	return m->dims[dim].name;
}

int matrix_dim_value_count(const struct matrix *m, int dim)
{
	return m->dims[dim].nvalues;
}

const char *matrix_dim_value(const struct matrix *m, int dim, int value)
{
	return m->dims[dim].values[value].name;
}

int matrix_dim_find(const struct matrix *m, const char *name)
{
	for (int d = 0; d < m->ndims; d++)
		if (!strcmp(m->dims[d].name, name))
			return d;
	return -1;
}

int matrix_value_find(const struct matrix *m, int dim, const char *value)
{
	for (int v = 0; v < m->dims[dim].nvalues; v++)
		if (!strcmp(m->dims[dim].values[v].name, value))
			return v;
	return -1;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool plain_name(const char *s)
{
	return matrix_word_ok(s) && s[0] != '.' && !strchr(s, '/') && strlen(s) < 128;
}

int matrix_path_for_name(const char *dir, const char *name, char *path, size_t pathlen, char *err,
			 size_t errlen)
{
	char names[512] = "", *found[64];
	struct dirent *de;
	int nfound = 0;
	size_t n = 0;
	struct stat st;
	DIR *dh;

	if (!plain_name(name))
		return mx_fail(err, errlen,
			       "bad matrix name '%s' (a name such as quick, without "
			       "directory or .matrix)",
			       name);
	snprintf(path, pathlen, "%s/%s.matrix", dir, name);
	if (!stat(path, &st) && S_ISREG(st.st_mode))
		return 0;
	dh = opendir(dir);
	if (!dh)
		return mx_fail(err, errlen, "no matrix %s: %s: %s", name, dir, strerror(errno));
	while ((de = readdir(dh)) && nfound < 64) {
		size_t l = strlen(de->d_name);

		if (l > 7 && !strcmp(de->d_name + l - 7, ".matrix") &&
		    (found[nfound] = strndup(de->d_name, l - 7)))
			nfound++;
	}
	closedir(dh);
	qsort(found, nfound, sizeof(found[0]), compare_names);
	for (int i = 0; i < nfound; i++) {
		if (n < sizeof(names))
			n += snprintf(names + n, sizeof(names) - n, "%s%s", n ? " " : "", found[i]);
		free(found[i]);
	}
	return mx_fail(err, errlen, "no matrix %s in %s (there: %s)", name, dir,
		       n ? names : "none");
}
