// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a matrix file: lib/ini tokenises, this handler puts each key
 * where its section says. Meaning that needs the whole file (which values a
 * dimension has, whether a workload exists) is checked afterwards, in
 * matrix.c.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lib/ini.h"
#include "matrix/matrix_internal.h"
#include "matrix/matrix_parse.h"
#include "matrix/matrix_units.h"

enum section_kind {
	SEC_NONE,
	SEC_MATRIX,
	SEC_DIMENSIONS,
	SEC_DEFAULTS,
	SEC_RULES,
	SEC_WORKLOAD,
	SEC_VALUE
};

static const char *const fixed_sections[] = {[SEC_MATRIX] = "matrix",
					     [SEC_DIMENSIONS] = "dimensions",
					     [SEC_DEFAULTS] = "defaults",
					     [SEC_RULES] = "rules"};

struct parse_ctx {
	struct matrix *m;
	enum section_kind kind;
	struct workload_def *workload; /* SEC_WORKLOAD */
	struct settings *values;       /* SEC_VALUE, SEC_DEFAULTS */
	struct where opened[SEC_RULES + 1];
	unsigned matrix_keys; /* [matrix] keys seen, to refuse a second one */
};

static const char *intern_file(struct matrix *m, const char *file)
{
	char **grown;

	for (int i = 0; i < m->nfiles; i++)
		if (!strcmp(m->files[i], file))
			return m->files[i];
	grown = realloc(m->files, (m->nfiles + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	m->files = grown;
	grown[m->nfiles] = strdup(file);
	if (!grown[m->nfiles])
		return NULL;
	return grown[m->nfiles++];
}

static int open_fixed(struct parse_ctx *c, enum section_kind kind, struct where at, char *err,
		      size_t errlen)
{
	if (c->opened[kind].file)
		return mx_fail(err, errlen, "section [%s] given twice (first at %s:%d)",
			       fixed_sections[kind], c->opened[kind].file, c->opened[kind].line);
	c->opened[kind] = at;
	c->kind = kind;
	if (kind == SEC_DEFAULTS) {
		c->values = &c->m->defaults;
		c->values->at = at;
	}
	if (kind == SEC_DIMENSIONS)
		c->m->have_dimensions = true;
	return 0;
}

static int open_workload(struct parse_ctx *c, const char *name, struct where at, char *err,
			 size_t errlen)
{
	struct matrix *m = c->m;
	struct workload_def *grown;

	if (!matrix_word_ok(name))
		return mx_fail(err, errlen, "bad workload name '%s' (letters, digits, ._+:@%%-)",
			       name);
	for (int i = 0; i < m->nworkloads; i++)
		if (!strcmp(m->workloads[i].name, name))
			return mx_fail(err, errlen, "workload %s defined twice (first at %s:%d)",
				       name, m->workloads[i].at.file, m->workloads[i].at.line);
	grown = realloc(m->workloads, (m->nworkloads + 1) * sizeof(*grown));
	if (!grown)
		return mx_fail(err, errlen, "out of memory");
	m->workloads = grown;
	c->workload = &grown[m->nworkloads];
	memset(c->workload, 0, sizeof(*c->workload));
	c->workload->name = strdup(name);
	c->workload->at = at;
	if (!c->workload->name)
		return mx_fail(err, errlen, "out of memory");
	m->nworkloads++;
	c->kind = SEC_WORKLOAD;
	return 0;
}

static int open_value(struct parse_ctx *c, const char *name, const char *dot, struct where at,
		      char *err, size_t errlen)
{
	struct matrix *m = c->m;
	struct value_section *grown, *vs;

	if (dot == name || !dot[1])
		return mx_fail(err, errlen, "section [%s]: want [DIMENSION.VALUE]", name);
	grown = realloc(m->sections, (m->nsections + 1) * sizeof(*grown));
	if (!grown)
		return mx_fail(err, errlen, "out of memory");
	m->sections = grown;
	vs = &grown[m->nsections];
	memset(vs, 0, sizeof(*vs));
	vs->dim = strndup(name, dot - name);
	vs->value = strdup(dot + 1);
	if (!vs->dim || !vs->value) {
		free(vs->dim);
		free(vs->value);
		return mx_fail(err, errlen, "out of memory");
	}
	for (int i = 0; i < m->nsections; i++)
		if (!strcmp(m->sections[i].dim, vs->dim) &&
		    !strcmp(m->sections[i].value, vs->value)) {
			mx_fail(err, errlen, "section [%s] given twice (first at %s:%d)", name,
				m->sections[i].s.at.file, m->sections[i].s.at.line);
			free(vs->dim);
			free(vs->value);
			return -1;
		}
	vs->s.at = at;
	vs->s.readahead = -1;
	m->nsections++;
	c->values = &vs->s;
	c->kind = SEC_VALUE;
	return 0;
}

static int on_section(struct parse_ctx *c, const char *name, struct where at, char *err,
		      size_t errlen)
{
	const char *dot = strchr(name, '.');

	for (int k = SEC_MATRIX; k <= SEC_RULES; k++)
		if (!strcmp(name, fixed_sections[k]))
			return open_fixed(c, (enum section_kind)k, at, err, errlen);
	if (!strncmp(name, "workload.", 9))
		return open_workload(c, name + 9, at, err, errlen);
	if (dot)
		return open_value(c, name, dot, at, err, errlen);
	return mx_fail(err, errlen,
		       "unknown section [%s] (sections: matrix dimensions defaults "
		       "rules workload.NAME DIMENSION.VALUE)",
		       name);
}

static int need_value(const struct ini_event *ev, char *err, size_t errlen)
{
	if (!ev->value || !*ev->value)
		return mx_fail(err, errlen, "%s needs a value", ev->key);
	return 0;
}

enum matrix_key { MK_NAME, MK_DESCRIPTION, MK_SCALE, MK_REPEATS, MK_TIME_LIMIT, MK_COUNT };
static const char *const matrix_keys[MK_COUNT] = {"name", "description", "scale", "repeats",
						  "time_limit"};

static int on_matrix_key(struct parse_ctx *c, const struct ini_event *ev, struct where at,
			 char *err, size_t errlen)
{
	struct matrix *m = c->m;
	struct settings tmp = {0};
	int k;

	for (k = 0; k < MK_COUNT; k++)
		if (!strcmp(ev->key, matrix_keys[k]))
			break;
	if (k == MK_COUNT)
		return mx_fail(err, errlen,
			       "unknown key '%s' in [matrix] (keys: name description "
			       "scale repeats time_limit)",
			       ev->key);
	if (c->matrix_keys & (1u << k))
		return mx_fail(err, errlen, "%s given twice in [matrix]", ev->key);
	c->matrix_keys |= 1u << k;
	if (need_value(ev, err, errlen))
		return -1;
	switch (k) {
	case MK_NAME:
		if (!matrix_word_ok(ev->value))
			return mx_fail(err, errlen, "bad name '%s' (letters, digits, ._+:@%%-)",
				       ev->value);
		free(m->name);
		m->name = strdup(ev->value);
		return m->name ? 0 : mx_fail(err, errlen, "out of memory");
	case MK_DESCRIPTION:
		m->description = strdup(ev->value);
		return m->description ? 0 : mx_fail(err, errlen, "out of memory");
	case MK_SCALE: {
		char *end;
		double v = strtod(ev->value, &end);

		if (end == ev->value || *end || !(v > 0) || v > 1)
			return mx_fail(err, errlen,
				       "bad scale '%s' (a number above 0, at most 1; 1 is the "
				       "study's full size)",
				       ev->value);
		m->scale = v;
		m->scale_at = at;
		return 0;
	}
	case MK_REPEATS:
		if (setting_parse(&tmp, setting_find("repeats"), ev->value, at, err, errlen))
			return -1;
		m->repeats = tmp.repeats;
		return 0;
	default:
		if (setting_parse(&tmp, setting_find("time_limit"), ev->value, at, err, errlen))
			return -1;
		m->time_limit = tmp.time_limit;
		return 0;
	}
}

static bool dim_name_ok(const char *s)
{
	if (!islower((unsigned char)*s))
		return false;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

static int add_dim_value(struct dimension *d, const char *word, size_t n, char *err, size_t errlen)
{
	struct dim_value *grown;
	char *name = strndup(word, n);

	if (!name)
		return mx_fail(err, errlen, "out of memory");
	if (!matrix_word_ok(name)) {
		mx_fail(err, errlen, "dimension %s: bad value '%s' (letters, digits, ._+:@%%-)",
			d->name, name);
		goto fail;
	}
	for (int i = 0; i < d->nvalues; i++)
		if (!strcmp(d->values[i].name, name)) {
			mx_fail(err, errlen, "dimension %s: value %s given twice", d->name, name);
			goto fail;
		}
	if (d->nvalues >= MATRIX_MAX_VALUES) {
		mx_fail(err, errlen, "dimension %s: more than %d values", d->name,
			MATRIX_MAX_VALUES);
		goto fail;
	}
	grown = realloc(d->values, (d->nvalues + 1) * sizeof(*grown));
	if (!grown) {
		mx_fail(err, errlen, "out of memory");
		goto fail;
	}
	d->values = grown;
	memset(&grown[d->nvalues], 0, sizeof(grown[0]));
	grown[d->nvalues].implied.readahead = -1;
	grown[d->nvalues++].name = name;
	return 0;
fail:
	free(name);
	return -1;
}

static int on_dimension(struct parse_ctx *c, const struct ini_event *ev, struct where at, char *err,
			size_t errlen)
{
	struct matrix *m = c->m;
	struct dimension *d;
	const char *p;

	if (!dim_name_ok(ev->key))
		return mx_fail(err, errlen,
			       "bad dimension name '%s' (lower-case letters, digits "
			       "and _, starting with a letter)",
			       ev->key);
	/* a setting no dimension takes would silently become a workload option */
	if (setting_find(ev->key) && !setting_for_dimension(ev->key))
		return mx_fail(err, errlen,
			       "%s is a cell setting, not a dimension: give it in "
			       "[defaults] or in a value's section",
			       ev->key);
	for (int i = 0; i < m->ndims; i++)
		if (!strcmp(m->dims[i].name, ev->key))
			return mx_fail(err, errlen, "dimension %s given twice (first at line %d)",
				       ev->key, m->dims[i].at.line);
	if (m->ndims >= MATRIX_MAX_DIMS)
		return mx_fail(err, errlen, "more than %d dimensions", MATRIX_MAX_DIMS);
	if (!ev->value || !*ev->value)
		return mx_fail(err, errlen, "dimension %s has no values", ev->key);
	d = &m->dims[m->ndims];
	memset(d, 0, sizeof(*d));
	d->name = strdup(ev->key);
	if (!d->name)
		return mx_fail(err, errlen, "out of memory");
	d->at = at;
	d->builtin = setting_for_dimension(ev->key);
	m->ndims++;
	for (p = ev->value; *p;) {
		size_t n;

		p += strspn(p, " \t");
		n = strcspn(p, " \t");
		if (n && add_dim_value(d, p, n, err, errlen))
			return -1;
		p += n;
	}
	return 0;
}

static int on_setting(struct parse_ctx *c, const struct ini_event *ev, struct where at,
		      bool in_defaults, char *err, size_t errlen)
{
	const struct setting_desc *d = setting_find(ev->key);
	char keys[256];

	if (!d || (in_defaults && !setting_allowed_in_defaults(d))) {
		setting_keys(keys, sizeof(keys), in_defaults);
		if (d)
			return mx_fail(err, errlen, "%s belongs in [matrix], not [defaults]",
				       ev->key);
		return mx_fail(err, errlen, "unknown key '%s' (keys: %s)", ev->key, keys);
	}
	if (d->id != SET_SET && (c->values->has & (1u << d->id)))
		return mx_fail(err, errlen, "%s given twice in this section", ev->key);
	return setting_parse(c->values, d, ev->value, at, err, errlen);
}

static int on_rule(struct parse_ctx *c, const struct ini_event *ev, struct where at, char *err,
		   size_t errlen)
{
	struct matrix *m = c->m;
	struct rule *grown;

	if (strcmp(ev->key, "exclude"))
		return mx_fail(err, errlen, "unknown key '%s' in [rules] (keys: exclude)", ev->key);
	if (need_value(ev, err, errlen))
		return -1;
	grown = realloc(m->rules, (m->nrules + 1) * sizeof(*grown));
	if (!grown)
		return mx_fail(err, errlen, "out of memory");
	m->rules = grown;
	grown[m->nrules].text = strdup(ev->value);
	grown[m->nrules].sel = NULL;
	grown[m->nrules].at = at;
	if (!grown[m->nrules].text)
		return mx_fail(err, errlen, "out of memory");
	m->nrules++;
	return 0;
}

enum workload_key {
	WK_JOB,
	WK_FIO,
	WK_WRITERS,
	WK_WRITERS_PER_FS,
	WK_BS,
	WK_SIZE,
	WK_RUNTIME,
	WK_SET,
	WK_COUNT
};
static const char *const workload_keys[WK_COUNT] = {"job", "fio",  "writers", "writers_per_fs",
						    "bs",  "size", "runtime", "set"};

static int set_kind(struct workload_def *w, enum workload_kind kind, const char *key, char *err,
		    size_t errlen)
{
	if (w->kind_known && w->kind != kind)
		return mx_fail(err, errlen,
			       "%s makes workload %s a %s workload, but it is %s "
			       "already (fio: job or fio; dd: writers, bs, size, "
			       "runtime)",
			       key, w->name, kind == WORKLOAD_DD ? "dd" : "fio",
			       w->kind == WORKLOAD_DD ? "dd" : "fio");
	w->kind = kind;
	w->kind_known = true;
	return 0;
}

int dd_key_parse(struct workload_def *w, const char *key, const char *value, char *err,
		 size_t errlen)
{
	bool per_fs = !strcmp(key, "writers_per_fs");

	if (per_fs || !strcmp(key, "writers")) {
		char *end;
		long n = value ? strtol(value, &end, 10) : 0;

		if (!value || !isdigit((unsigned char)*value) || *end || n < 1 || n > 100000)
			return mx_fail(err, errlen, "bad %s '%s' (1-100000)", key,
				       value ? value : "");
		/* the last one given wins, so a set= can switch between them */
		w->writers = per_fs ? 0 : (int)n;
		w->writers_per_fs = per_fs ? (int)n : 0;
		return 0;
	}
	if (!strcmp(key, "bs") || !strcmp(key, "size")) {
		uint64_t v;

		if (!value || mx_parse_size(value, &v) || !v)
			return mx_fail(err, errlen, "bad %s '%s' (a size such as 4k, 1m, 16g)", key,
				       value ? value : "");
		if (key[0] == 'b') {
			w->bs = v;
		} else {
			w->size = v;
			w->runtime = 0;
		}
		return 0;
	}
	if (!strcmp(key, "runtime")) {
		if (!value || mx_parse_duration(value, &w->runtime) || w->runtime <= 0)
			return mx_fail(err, errlen,
				       "bad runtime '%s' (a duration such as 60, 10s, "
				       "5m)",
				       value ? value : "");
		w->size = 0;
		return 0;
	}
	return mx_fail(err, errlen,
		       "a dd workload takes writers, writers_per_fs, bs, size, "
		       "runtime; not '%s'",
		       key);
}

static int on_workload_key(struct parse_ctx *c, const struct ini_event *ev, struct where at,
			   char *err, size_t errlen)
{
	struct workload_def *w = c->workload;
	int k;

	for (k = 0; k < WK_COUNT; k++)
		if (!strcmp(ev->key, workload_keys[k]))
			break;
	if (k == WK_COUNT)
		return mx_fail(err, errlen,
			       "unknown key '%s' in [workload.%s] (keys: job fio "
			       "writers writers_per_fs bs size runtime set)",
			       ev->key, w->name);
	if (need_value(ev, err, errlen))
		return -1;
	switch (k) {
	case WK_JOB:
		if (w->job || w->options.count)
			return mx_fail(err, errlen,
				       "workload %s: give one job= or one fio=, not "
				       "both or twice",
				       w->name);
		if (set_kind(w, WORKLOAD_FIO, ev->key, err, errlen))
			return -1;
		w->job = strdup(ev->value);
		return w->job ? 0 : mx_fail(err, errlen, "out of memory");
	case WK_FIO:
		if (w->job || w->options.count)
			return mx_fail(err, errlen,
				       "workload %s: give one job= or one fio=, not "
				       "both or twice",
				       w->name);
		if (set_kind(w, WORKLOAD_FIO, ev->key, err, errlen))
			return -1;
		return kv_parse_words(&w->options, ev->value, at, err, errlen);
	case WK_SET:
		return kv_parse_words(&w->set, ev->value, at, err, errlen);
	default:
		if (set_kind(w, WORKLOAD_DD, ev->key, err, errlen))
			return -1;
		if ((k == WK_SIZE && w->runtime) || (k == WK_RUNTIME && w->size))
			return mx_fail(err, errlen, "workload %s: give size or runtime, not both",
				       w->name);
		if ((k == WK_WRITERS && w->writers_per_fs) ||
		    (k == WK_WRITERS_PER_FS && w->writers))
			return mx_fail(err, errlen,
				       "workload %s: give writers or writers_per_fs, "
				       "not both",
				       w->name);
		return dd_key_parse(w, ev->key, ev->value, err, errlen);
	}
}

static int on_event(void *ctx, const struct ini_event *ev, char *err, size_t errlen)
{
	struct parse_ctx *c = ctx;
	struct where at = {intern_file(c->m, ev->file), ev->line};

	if (!at.file)
		return mx_fail(err, errlen, "out of memory");
	if (ev->kind == INI_SECTION)
		return on_section(c, ev->section, at, err, errlen);
	switch (c->kind) {
	case SEC_NONE:
		return mx_fail(err, errlen, "%s before any [section]", ev->key);
	case SEC_MATRIX:
		return on_matrix_key(c, ev, at, err, errlen);
	case SEC_DIMENSIONS:
		return on_dimension(c, ev, at, err, errlen);
	case SEC_DEFAULTS:
		return on_setting(c, ev, at, true, err, errlen);
	case SEC_VALUE:
		return on_setting(c, ev, at, false, err, errlen);
	case SEC_RULES:
		return on_rule(c, ev, at, err, errlen);
	case SEC_WORKLOAD:
		return on_workload_key(c, ev, at, err, errlen);
	}
	return mx_fail(err, errlen, "internal: section state %d", c->kind);
}

int matrix_parse_file(struct matrix *m, const char *path, char *err, size_t errlen)
{
	struct parse_ctx c = {.m = m};

	return ini_parse_file(path, on_event, &c, err, errlen);
}

int matrix_parse_buffer(struct matrix *m, const char *name, const char *text, size_t len, char *err,
			size_t errlen)
{
	struct parse_ctx c = {.m = m};

	return ini_parse_buffer(name, text, len, on_event, &c, err, errlen);
}
