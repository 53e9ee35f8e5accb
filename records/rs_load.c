// SPDX-License-Identifier: GPL-2.0
/* Reading a result set: manifest.json and the records directory (docs/records.md). */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/byte_buf.h"
#include "lib/jpath.h"
#include "records/rs_load.h"

/* A record is a few KB; anything this big is not one. */
#define RS_MAX_FILE (64u << 20)

static const char *const status_names[RS_STATUS_COUNT] = {
	[RS_OK] = "ok",		  [RS_FAILED] = "failed",   [RS_TIMEOUT] = "timeout",
	[RS_SKIPPED] = "skipped", [RS_CRASHED] = "crashed",
};

const char *rs_status_name(enum rs_status s)
{
	return s < RS_STATUS_COUNT ? status_names[s] : "?";
}

static int status_parse(const char *s, enum rs_status *out)
{
	for (int i = 0; i < RS_STATUS_COUNT; i++) {
		if (!strcmp(s, status_names[i])) {
			*out = (enum rs_status)i;
			return 0;
		}
	}
	return -1;
}

static char *xstrdup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

void rs_free_dims(struct rs_dim *dims, size_t ndims)
{
	for (size_t i = 0; i < ndims; i++) {
		free(dims[i].name);
		free(dims[i].value);
	}
	free(dims);
}

int rs_parse_key(const char *key, struct rs_dim **dims_out, size_t *ndims_out)
{
	struct rs_dim *dims = NULL;
	size_t n = 0;
	const char *p = key;

	while (*p) {
		size_t len = strcspn(p, " ");
		const char *eq = memchr(p, '=', len);
		struct rs_dim *grown;

		if (len == 0) {
			p++;
			continue;
		}
		if (!eq || eq == p)
			goto fail;
		grown = realloc(dims, (n + 1) * sizeof(*dims));
		if (!grown)
			goto fail;
		dims = grown;
		dims[n].name = strndup(p, (size_t)(eq - p));
		dims[n].value = strndup(eq + 1, len - (size_t)(eq - p) - 1);
		n++;
		if (!dims[n - 1].name || !dims[n - 1].value)
			goto fail;
		p += len;
	}
	*dims_out = dims;
	*ndims_out = n;
	return 0;
fail:
	rs_free_dims(dims, n);
	return -1;
}

int rs_parse_record(const char *text, size_t len, struct rs_record *rec, char *err,
		    size_t errlen)
{
	struct json_tokener *tok = json_tokener_new();
	json_object *root;
	long long version, seq, repeat, index = -1, count = -1;
	const char *status;

	memset(rec, 0, sizeof(*rec));
	if (!tok) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	root = json_tokener_parse_ex(tok, text, (int)len);
	if (!root || json_tokener_get_error(tok) != json_tokener_success) {
		enum json_tokener_error e = json_tokener_get_error(tok);

		snprintf(err, errlen, "not JSON (%s at byte %zu)",
			 e == json_tokener_continue ? "cut off" : json_tokener_error_desc(e),
			 json_tokener_get_parse_end(tok));
		json_object_put(root);
		json_tokener_free(tok);
		return -1;
	}
	json_tokener_free(tok);
	if (!json_object_is_type(root, json_type_object)) {
		snprintf(err, errlen, "not a JSON object");
		goto fail;
	}
	if (!jpath_int(root, "iomatrix_record", &version)) {
		snprintf(err, errlen, "no \"iomatrix_record\" version: not a record");
		goto fail;
	}
	if (version != RS_RECORD_VERSION) {
		snprintf(err, errlen, "record version %lld, this reader knows %d", version,
			 RS_RECORD_VERSION);
		goto fail;
	}
	if (!jpath_str(root, "cell.key", &rec->key)) {
		snprintf(err, errlen, "no string \"cell.key\"");
		goto fail;
	}
	if (!jpath_int(root, "repeat", &repeat) || repeat < 0 || repeat > 1000000) {
		snprintf(err, errlen, "no \"repeat\" between 0 and 1000000");
		goto fail;
	}
	if (!jpath_str(root, "status", &status) || status_parse(status, &rec->status)) {
		snprintf(err, errlen,
			 "\"status\" is not one of ok, failed, timeout, skipped, crashed");
		goto fail;
	}
	if (!jpath_int(root, "seq", &seq))
		seq = -1;
	if (jpath_int(root, "cell.index", &index) && (index < 0 || index > 100000000))
		index = -1;
	if (jpath_int(root, "cell.count", &count) && (count < 0 || count > 100000000))
		count = -1;
	if (!jpath_str(root, "error", &rec->error))
		rec->error = NULL;
	if (!jpath_str(root, "workload.kind", &rec->kind))
		rec->kind = NULL;
	rec->seq = (long)seq;
	rec->repeat = (int)repeat;
	rec->cell_index = (int)index;
	rec->cell_count = (int)count;
	rec->root = root;
	return 0;
fail:
	json_object_put(root);
	memset(rec, 0, sizeof(*rec));
	return -1;
}

void rs_warn(struct result_set *rs, const char *fmt, ...)
{
	char line[512];
	char **grown;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	grown = realloc(rs->warnings, (rs->nwarnings + 1) * sizeof(*grown));
	if (!grown)
		return;
	rs->warnings = grown;
	rs->warnings[rs->nwarnings] = strdup(line);
	if (rs->warnings[rs->nwarnings])
		rs->nwarnings++;
}

int rs_parse_manifest(const char *text, size_t len, struct result_set *rs, char *err,
		      size_t errlen)
{
	struct json_tokener *tok = json_tokener_new();
	json_object *root, *damaged;
	long long version, v;
	const char *s;
	struct {
		const char *key;
		long *dst;
	} counts[] = {
		{ "counts.ok", &rs->counts.ok },
		{ "counts.failed", &rs->counts.failed },
		{ "counts.timeout", &rs->counts.timeout },
		{ "counts.skipped", &rs->counts.skipped },
		{ "counts.crashed", &rs->counts.crashed },
		{ "counts.missing", &rs->counts.missing },
	};

	if (!tok) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	root = json_tokener_parse_ex(tok, text, (int)len);
	if (!root || json_tokener_get_error(tok) != json_tokener_success ||
	    !json_object_is_type(root, json_type_object)) {
		snprintf(err, errlen, "not a JSON object");
		json_object_put(root);
		json_tokener_free(tok);
		return -1;
	}
	json_tokener_free(tok);
	if (!jpath_int(root, "iomatrix_result_set", &version) || version != RS_SET_VERSION) {
		snprintf(err, errlen,
			 "\"iomatrix_result_set\" is not %d: not a result set this reader knows",
			 RS_SET_VERSION);
		json_object_put(root);
		return -1;
	}
	if (jpath_str(root, "run_id", &s))
		rs->run_id = strdup(s);
	if (jpath_str(root, "matrix", &s))
		rs->matrix = strdup(s);
	if (jpath_str(root, "kernel.release", &s))
		rs->kernel_release = strdup(s);
	if (jpath_str(root, "kernel.version", &s))
		rs->kernel_version = strdup(s);
	if (jpath_str(root, "created", &s))
		rs->created = strdup(s);
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		*counts[i].dst = jpath_int(root, counts[i].key, &v) ? (long)v : -1;
	damaged = jpath(root, "damaged");
	if (damaged && json_object_is_type(damaged, json_type_array)) {
		size_t n = json_object_array_length(damaged);

		rs->damaged = calloc(n ? n : 1, sizeof(*rs->damaged));
		for (size_t i = 0; rs->damaged && i < n; i++) {
			json_object *e = json_object_array_get_idx(damaged, i);

			if (json_object_is_type(e, json_type_int))
				rs->damaged[rs->ndamaged++] = (long)json_object_get_int64(e);
		}
	}
	json_object_put(root);
	return 0;
}

static int load_manifest(const char *dir, struct result_set *rs, char *err, size_t errlen)
{
	char path[4096], why[256];
	struct byte_buf text = { 0 };
	int rc;

	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	if (byte_buf_read_file(&text, path, RS_MAX_FILE, err, errlen))
		return -1;
	rc = rs_parse_manifest((const char *)text.data, text.len, rs, why, sizeof(why));
	byte_buf_free(&text);
	if (rc)
		snprintf(err, errlen, "%s: %s", path, why);
	return rc;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_records(const char *dir, char ***names_out, size_t *n_out, char *err, size_t errlen)
{
	char path[4096];
	DIR *d;
	struct dirent *e;
	char **names = NULL;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/records", dir);
	d = opendir(path);
	if (!d) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char **grown;

		if (len < 6 || strcmp(e->d_name + len - 5, ".json") || e->d_name[0] == '.')
			continue;
		grown = realloc(names, (n + 1) * sizeof(*names));
		if (!grown || !(grown[n] = strdup(e->d_name))) {
			free(grown ? grown : names);
			closedir(d);
			snprintf(err, errlen, "%s: out of memory", path);
			return -1;
		}
		names = grown;
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), name_cmp);
	*names_out = names;
	*n_out = n;
	return 0;
}

static int rec_by_repeat(const void *a, const void *b)
{
	const struct rs_record *x = *(struct rs_record *const *)a;
	const struct rs_record *y = *(struct rs_record *const *)b;

	return (x->repeat > y->repeat) - (x->repeat < y->repeat);
}

static int cell_order(const void *a, const void *b)
{
	const struct rs_cell *x = a, *y = b;

	if (x->index != y->index)
		return (x->index > y->index) - (x->index < y->index);
	return strcmp(x->key, y->key);
}

void rs_sort_cells(struct result_set *rs)
{
	if (rs->ncells)
		qsort(rs->cells, rs->ncells, sizeof(*rs->cells), cell_order);
}

const struct rs_cell *rs_find_cell(const struct result_set *rs, const char *key)
{
	for (size_t i = 0; i < rs->ncells; i++)
		if (!strcmp(rs->cells[i].key, key))
			return &rs->cells[i];
	return NULL;
}

const char *rs_cell_dim(const struct rs_cell *c, const char *name)
{
	for (size_t i = 0; i < c->ndims; i++)
		if (!strcmp(c->dims[i].name, name))
			return c->dims[i].value;
	return NULL;
}

struct rs_cell *rs_cell_for(struct result_set *rs, const char *key, int index)
{
	struct rs_cell *grown, *c;

	for (size_t i = 0; i < rs->ncells; i++)
		if (!strcmp(rs->cells[i].key, key))
			return &rs->cells[i];
	grown = realloc(rs->cells, (rs->ncells + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	rs->cells = grown;
	c = &rs->cells[rs->ncells];
	memset(c, 0, sizeof(*c));
	c->key = strdup(key);
	c->index = index;
	if (!c->key || rs_parse_key(key, &c->dims, &c->ndims)) {
		free(c->key);
		return NULL;
	}
	rs->ncells++;
	return c;
}

int rs_cell_add(struct rs_cell *c, struct rs_record *r)
{
	struct rs_record **grown = realloc(c->recs, (c->nrecs + 1) * sizeof(*grown));

	if (!grown)
		return -1;
	c->recs = grown;
	c->recs[c->nrecs++] = r;
	return 0;
}

/* Groups records into cells; a repeated (key, repeat) pair keeps the first. */
static int group_cells(struct result_set *rs, struct rs_record **recs, size_t n, char *err,
		       size_t errlen)
{
	for (size_t i = 0; i < n; i++) {
		struct rs_record *r = recs[i];
		struct rs_cell *c;
		bool dup = false;

		for (size_t k = 0; k < rs->ncells && !dup; k++) {
			if (strcmp(rs->cells[k].key, r->key))
				continue;
			for (size_t j = 0; j < rs->cells[k].nrecs; j++)
				dup |= rs->cells[k].recs[j]->repeat == r->repeat;
		}
		if (dup) {
			rs_warn(rs, "record seq %ld: cell \"%s\" repeat %d seen twice: kept the first",
			     r->seq, r->key, r->repeat);
			continue;
		}
		c = rs_cell_for(rs, r->key, r->cell_index);
		if (!c) {
			snprintf(err, errlen,
				 "record seq %ld: cell key \"%s\" is not name=value pairs", r->seq,
				 r->key);
			return -1;
		}
		if (rs_cell_add(c, r)) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		if (r->cell_count >= 0)
			rs->cell_count = r->cell_count;
	}
	for (size_t k = 0; k < rs->ncells; k++)
		qsort(rs->cells[k].recs, rs->cells[k].nrecs, sizeof(*rs->cells[k].recs),
		      rec_by_repeat);
	rs_sort_cells(rs);
	return 0;
}

static void set_label(struct result_set *rs, const char *dir)
{
	size_t len = strlen(dir);
	const char *base;

	/* A trailing slash would leave an empty name. */
	while (len > 1 && dir[len - 1] == '/')
		len--;
	base = memrchr(dir, '/', len);
	base = base ? base + 1 : dir;
	if (rs->kernel_release)
		rs->label = strdup(rs->kernel_release);
	else
		rs->label = strndup(base, len - (size_t)(base - dir));
}

int rs_load(const char *dir, struct result_set *rs, char *err, size_t errlen)
{
	char **names = NULL;
	size_t nnames = 0;
	struct rs_record **ptrs = NULL;

	memset(rs, 0, sizeof(*rs));
	rs->cell_count = -1;
	rs->owns_recs = true;
	rs->nruns = 1;
	rs->path = strdup(dir);
	if (!rs->path || load_manifest(dir, rs, err, errlen) ||
	    list_records(dir, &names, &nnames, err, errlen))
		goto fail;
	rs->recs = calloc(nnames ? nnames : 1, sizeof(*rs->recs));
	ptrs = calloc(nnames ? nnames : 1, sizeof(*ptrs));
	if (!rs->recs || !ptrs) {
		snprintf(err, errlen, "%s: out of memory", dir);
		goto fail;
	}
	for (size_t i = 0; i < nnames; i++) {
		char path[4096], why[256];
		struct byte_buf text = { 0 };

		snprintf(path, sizeof(path), "%s/records/%s", dir, names[i]);
		if (byte_buf_read_file(&text, path, RS_MAX_FILE, why, sizeof(why))) {
			rs_warn(rs, "%s", why);
			continue;
		}
		if (rs_parse_record((const char *)text.data, text.len, &rs->recs[rs->nrecs], why,
				    sizeof(why))) {
			rs_warn(rs, "records/%s: %s", names[i], why);
		} else {
			ptrs[rs->nrecs] = &rs->recs[rs->nrecs];
			rs->nrecs++;
		}
		byte_buf_free(&text);
	}
	if (group_cells(rs, ptrs, rs->nrecs, err, errlen))
		goto fail;
	set_label(rs, dir);
	for (size_t i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	free(ptrs);
	return 0;
fail:
	for (size_t i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	free(ptrs);
	rs_free(rs);
	return -1;
}

void rs_free(struct result_set *rs)
{
	if (rs->owns_recs)
		for (size_t i = 0; i < rs->nrecs; i++)
			json_object_put(rs->recs[i].root);
	if (rs->owns_recs)
		free(rs->recs);
	for (size_t i = 0; rs->owns_runs && i < rs->nruns; i++)
		rs_free(&rs->runs[i]);
	if (rs->owns_runs)
		free(rs->runs);
	for (size_t i = 0; i < rs->ncells; i++) {
		free(rs->cells[i].key);
		rs_free_dims(rs->cells[i].dims, rs->cells[i].ndims);
		free(rs->cells[i].recs);
	}
	free(rs->cells);
	for (size_t i = 0; i < rs->nwarnings; i++)
		free(rs->warnings[i]);
	free(rs->warnings);
	free(rs->damaged);
	free(rs->path);
	free(rs->label);
	free(rs->run_id);
	free(rs->matrix);
	free(rs->kernel_release);
	free(rs->kernel_version);
	free(rs->created);
	memset(rs, 0, sizeof(*rs));
}

/* The key without dimension dim, in the same order. */
static char *key_without(const struct rs_cell *c, const char *dim)
{
	size_t cap = strlen(c->key) + 1, len = 0;
	char *out = malloc(cap);

	if (!out)
		return NULL;
	out[0] = '\0';
	for (size_t i = 0; i < c->ndims; i++) {
		if (!strcmp(c->dims[i].name, dim))
			continue;
		len += (size_t)snprintf(out + len, cap - len, "%s%s=%s", len ? " " : "",
					c->dims[i].name, c->dims[i].value);
	}
	return out;
}

int rs_view_by_dim(const struct result_set *src, const char *dim, const char *value,
		   struct result_set *view, char *err, size_t errlen)
{
	char label[256];

	memset(view, 0, sizeof(*view));
	view->owns_recs = false;
	view->recs = src->recs;
	view->nrecs = src->nrecs;
	view->nruns = src->nruns;
	view->runs = src->runs; /* borrowed, as the records */
	view->view_of = src;
	view->cell_count = -1;
	snprintf(label, sizeof(label), "%s=%s", dim, value);
	view->label = strdup(label);
	view->path = xstrdup_or_null(src->path);
	view->run_id = xstrdup_or_null(src->run_id);
	view->matrix = xstrdup_or_null(src->matrix);
	view->kernel_release = xstrdup_or_null(src->kernel_release);
	view->kernel_version = xstrdup_or_null(src->kernel_version);
	view->counts = src->counts;
	view->counts.missing = -1; /* the manifest counts the whole set, not the view */
	for (size_t i = 0; i < src->ncells; i++) {
		const struct rs_cell *c = &src->cells[i];
		const char *v = rs_cell_dim(c, dim);
		struct rs_cell *vc;
		char *key;

		if (!v || strcmp(v, value))
			continue;
		key = key_without(c, dim);
		vc = key ? rs_cell_for(view, key, c->index) : NULL;
		free(key);
		if (!vc)
			goto oom;
		for (size_t j = 0; j < c->nrecs; j++)
			if (rs_cell_add(vc, c->recs[j]))
				goto oom;
	}
	if (view->ncells == 0) {
		snprintf(err, errlen, "%s: no cell has %s=%s", src->path, dim, value);
		rs_free(view);
		return -1;
	}
	rs_sort_cells(view);
	view->cell_count = (int)view->ncells;
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
	rs_free(view);
	return -1;
}
