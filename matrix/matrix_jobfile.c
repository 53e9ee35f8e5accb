// SPDX-License-Identifier: GPL-2.0
/*
 * What a matrix needs to know of fio jobs: a job file's sections (read with
^ * lib/ini, the same dialect the engine reads) and, per job, the few
 * options that decide how much data it touches and how long it runs. The
 * engine parses and checks every option; this only reads them.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/ini.h"
#include "matrix/matrix_internal.h"
#include "matrix/matrix_units.h"

/* A job file bigger than this is not a job file. */
#define JOBFILE_MAX_BYTES (1024 * 1024)

static const struct {
	const char *alias, *name;
} fio_aliases[] = {
	{"loop", "loops"},   {"timeout", "runtime"},  {"io_limit", "io_size"}, {"blocksize", "bs"},
	{"readwrite", "rw"}, {"nr_files", "nrfiles"}, {"nrfiles", "nrfiles"},
};

const char *fio_canonical_key(const char *key)
{
	for (size_t i = 0; i < sizeof(fio_aliases) / sizeof(fio_aliases[0]); i++)
		if (!strcmp(key, fio_aliases[i].alias))
			return fio_aliases[i].name;
	return key;
}

struct jobfile_ctx {
	struct jobfile *jf;
	struct kv_list *current;
};

static int on_event(void *ctx, const struct ini_event *ev, char *err, size_t errlen)
{
	struct jobfile_ctx *c = ctx;
	struct jobfile *jf = c->jf;
	struct where at = {jf->path, ev->line};

	if (ev->kind == INI_SECTION) {
		if (!strcmp(ev->section, "global")) {
			c->current = &jf->global;
			return 0;
		}
		char **names = realloc(jf->job_names, (jf->njobs + 1) * sizeof(*names));
		if (!names)
			return mx_fail(err, errlen, "out of memory");
		jf->job_names = names;
		struct kv_list *jobs = realloc(jf->jobs, (jf->njobs + 1) * sizeof(*jobs));
		if (!jobs)
			return mx_fail(err, errlen, "out of memory");
		jf->jobs = jobs;
		names[jf->njobs] = strdup(ev->section);
		if (!names[jf->njobs])
			return mx_fail(err, errlen, "out of memory");
		memset(&jobs[jf->njobs], 0, sizeof(jobs[0]));
		c->current = &jobs[jf->njobs++];
		return 0;
	}
	if (!c->current)
		return mx_fail(err, errlen, "option %s before any [section]", ev->key);
	if (kv_append(c->current, ev->key, ev->value, at))
		return mx_fail(err, errlen, "out of memory");
	return 0;
}

int jobfile_read(struct jobfile *jf, const char *path, char *err, size_t errlen)
{
	struct jobfile_ctx c = {.jf = jf};
	struct stat st;

	memset(jf, 0, sizeof(*jf));
	if (stat(path, &st))
		return mx_fail(err, errlen, "%s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode) || st.st_size > JOBFILE_MAX_BYTES)
		return mx_fail(err, errlen, "%s: not a job file (a regular file under 1 MiB)",
			       path);
	jf->path = strdup(path);
	if (!jf->path)
		return mx_fail(err, errlen, "out of memory");
	if (ini_parse_file(path, on_event, &c, err, errlen)) {
		jobfile_free(jf);
		return -1;
	}
	if (!jf->njobs) {
		jobfile_free(jf);
		return mx_fail(err, errlen, "%s: no job section (only [global])", path);
	}
	return 0;
}

void jobfile_free(struct jobfile *jf)
{
	kv_list_free(&jf->global);
	for (int i = 0; i < jf->njobs; i++) {
		free(jf->job_names[i]);
		kv_list_free(&jf->jobs[i]);
	}
	free(jf->job_names);
	free(jf->jobs);
	free(jf->path);
	memset(jf, 0, sizeof(*jf));
}

void fio_facts_init(struct fio_facts *f)
{
	memset(f, 0, sizeof(*f));
	strcpy(f->rw, "read"); /* fio's defaults */
	f->bs = 4096;
	f->numjobs = 1;
	f->iodepth = 1;
	f->loops = 1;
	f->nrfiles = 1;
}

/* A bool option: bare flag, or a number (0 false). */
static bool flag_value(const char *v)
{
	return !v || atoi(v) != 0;
}

static int positive_int(const char *v, int fallback)
{
	long n = v ? strtol(v, NULL, 10) : 0;

	return n >= 1 && n <= 1000000 ? (int)n : fallback;
}

/* bs=4k, bs=4k,64k (read,write), bs=4k-64k is bsrange's form: the first size. */
static uint64_t first_size(const char *v, uint64_t fallback)
{
	char buf[64];
	size_t n = strcspn(v, ",-:");
	uint64_t out;

	if (n >= sizeof(buf))
		return fallback;
	memcpy(buf, v, n);
	buf[n] = '\0';
	return mx_parse_size(buf, &out) || !out ? fallback : out;
}

void fio_facts_apply(struct fio_facts *f, const struct kv_list *l)
{
	for (int i = 0; i < l->count; i++) {
		const char *k = fio_canonical_key(l->items[i].key);
		const char *v = l->items[i].value;
		uint64_t sz;
		double d;

		if (!strcmp(k, "rw") && v && strlen(v) < sizeof(f->rw)) {
			/* rw=randread:8 (an offset modifier) is still randread */
			size_t n = strcspn(v, ":");
			memcpy(f->rw, v, n);
			f->rw[n] = '\0';
		} else if (!strcmp(k, "bs") && v) {
			f->bs = first_size(v, f->bs);
		} else if (!strcmp(k, "size") && v) {
			f->size = mx_parse_size(v, &sz) ? 0 : sz;
		} else if (!strcmp(k, "io_size") && v) {
			f->io_size = mx_parse_size(v, &sz) ? 0 : sz;
		} else if (!strcmp(k, "runtime") && v) {
			f->runtime = mx_parse_duration(v, &d) ? 0 : d;
		} else if (!strcmp(k, "time_based")) {
			f->time_based = flag_value(v);
		} else if (!strcmp(k, "numjobs")) {
			f->numjobs = positive_int(v, f->numjobs);
		} else if (!strcmp(k, "iodepth")) {
			f->iodepth = positive_int(v, f->iodepth);
		} else if (!strcmp(k, "loops")) {
			f->loops = positive_int(v, f->loops);
		} else if (!strcmp(k, "nrfiles")) {
			f->nrfiles = positive_int(v, f->nrfiles);
		} else if (!strcmp(k, "filename")) {
			f->shared_file = v && *v;
		} else if (!strcmp(k, "direct")) {
			f->direct = flag_value(v);
		} else if (!strcmp(k, "buffered")) {
			f->direct = !flag_value(v);
		}
	}
}
