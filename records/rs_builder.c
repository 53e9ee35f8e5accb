// SPDX-License-Identifier: GPL-2.0
/* Gathering, merging and checking records into a result set; see rs_builder.h. */
#include "records/rs_builder.h"

#include <stdlib.h>
#include <string.h>

#include "records/record_check.h"
#include "records/rs_builder_impl.h"

/* A product of cells and repeats beyond this is no matrix: missing is not worked out. */
#define CELLS_MAX (16u << 20)

struct rs_builder *rsb_new(void)
{
	struct rs_builder *rs = calloc(1, sizeof(*rs));

	if (rs)
		rs->created_unix = -1;
	return rs;
}

static void seqs_free(struct rs_seqs *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

void rsb_free(struct rs_builder *rs)
{
	if (!rs)
		return;
	for (size_t i = 0; i < rs->nsrc; i++) {
		free(rs->src[i].path);
		free(rs->src[i].run_id);
	}
	free(rs->src);
	for (size_t i = 0; i < rs->ncopies; i++) {
		free(rs->copies[i].data);
		free(rs->copies[i].invalid);
		json_object_put(rs->copies[i].obj);
	}
	free(rs->copies);
	for (size_t i = 0; i < rs->ndamages; i++)
		free(rs->damages[i].why);
	free(rs->damages);
	free(rs->run_id);
	free(rs->records);
	seqs_free(&rs->damaged);
	seqs_free(&rs->lost);
	seqs_free(&rs->invalid);
	seqs_free(&rs->disagree);
	free(rs->runs);
	free(rs->missing);
	free(rs);
}

/* Grows *v (n used, *cap allocated) to hold one more element of size sz. */
static int grow(void **v, size_t n, size_t *cap, size_t sz)
{
	void *p;

	if (n < *cap)
		return 0;
	p = realloc(*v, (*cap ? *cap * 2 : 16) * sz);
	if (!p)
		return -1;
	*v = p;
	*cap = *cap ? *cap * 2 : 16;
	return 0;
}

static int seqs_add(struct rs_seqs *s, uint32_t seq)
{
	if (s->n && s->v[s->n - 1] == seq)
		return 0;
	if (grow((void **)&s->v, s->n, &s->cap, sizeof(*s->v)))
		return -1;
	s->v[s->n++] = seq;
	return 0;
}

static bool seqs_has(const struct rs_seqs *s, uint32_t seq)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s->v[mid] == seq)
			return true;
		if (s->v[mid] < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Sorted, without repeats. */
static void seqs_normalise(struct rs_seqs *s)
{
	size_t o = 0;

	if (!s->n)
		return;
	qsort(s->v, s->n, sizeof(*s->v), cmp_u32);
	for (size_t i = 0; i < s->n; i++)
		if (!o || s->v[o - 1] != s->v[i])
			s->v[o++] = s->v[i];
	s->n = o;
}

int rsb_add_source(struct rs_builder *rs, const char *path, enum rsb_source_kind kind)
{
	struct rs_source *p = realloc(rs->src, (rs->nsrc + 1) * sizeof(*p));

	if (!p)
		return -1;
	rs->src = p;
	p = &rs->src[rs->nsrc];
	memset(p, 0, sizeof(*p));
	p->path = strdup(path);
	p->kind = kind;
	if (!p->path)
		return -1;
	return (int)rs->nsrc++;
}

int rsb_source_set_log(struct rs_builder *rs, int src, const char *run_id, uint64_t created_unix)
{
	free(rs->src[src].run_id);
	rs->src[src].run_id = strdup(run_id);
	rs->src[src].created_unix = created_unix;
	return rs->src[src].run_id ? 0 : -1;
}

int rsb_add_record(struct rs_builder *rs, int src, uint32_t seq, const void *data, size_t len)
{
	struct rs_copy *c;

	if (grow((void **)&rs->copies, rs->ncopies, &rs->copies_cap, sizeof(*c)))
		return -1;
	c = &rs->copies[rs->ncopies];
	memset(c, 0, sizeof(*c));
	c->seq = seq;
	c->src = src;
	c->len = len;
	c->data = malloc(len ? len : 1);
	if (!c->data)
		return -1;
	memcpy(c->data, data, len);
	rs->ncopies++;
	rs->src[src].records++;
	return 0;
}

int rsb_add_damaged(struct rs_builder *rs, int src, uint32_t seq, const char *why)
{
	struct rs_damage *d;

	if (grow((void **)&rs->damages, rs->ndamages, &rs->damages_cap, sizeof(*d)))
		return -1;
	d = &rs->damages[rs->ndamages];
	d->seq = seq;
	d->src = src;
	d->why = strdup(why ? why : "damaged");
	if (!d->why)
		return -1;
	rs->ndamages++;
	rs->src[src].damaged++;
	return 0;
}

/* Why the copy is not a record we can keep, or NULL (then c->obj is set). */
static char *check_copy(struct rs_copy *c)
{
	char why[256];

	c->obj = record_check(c->data, c->len, c->seq, why, sizeof(why));
	return c->obj ? NULL : strdup(why);
}

static const char *run_of(const struct rs_copy *c)
{
	return c->obj ? json_object_get_string(record_get(c->obj, "run_id")) : NULL;
}

static int cmp_copy(const void *a, const void *b)
{
	const struct rs_copy *x = a, *y = b;

	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->src - y->src;
}

/* Counts, per run, the seqs that have a valid copy of it. */
static int find_runs(struct rs_builder *rs)
{
	for (size_t i = 0; i < rs->ncopies; i++) {
		const char *run = run_of(&rs->copies[i]);
		bool counted = false;
		size_t r;

		if (!run)
			continue;
		/* once per seq: an earlier copy of the same seq and run counted it */
		for (size_t j = i; j-- > 0 && rs->copies[j].seq == rs->copies[i].seq;)
			if (run_of(&rs->copies[j]) && !strcmp(run_of(&rs->copies[j]), run))
				counted = true;
		if (counted)
			continue;
		for (r = 0; r < rs->nruns && strcmp(rs->runs[r].run_id, run); r++)
			;
		if (r == rs->nruns) {
			struct rs_run *p = realloc(rs->runs, (rs->nruns + 1) * sizeof(*p));

			if (!p)
				return -1;
			rs->runs = p;
			rs->runs[rs->nruns++] = (struct rs_run){run, 0};
		}
		rs->runs[r].records++;
	}
	return 0;
}

static int choose_run(struct rs_builder *rs, const char *want, char *err, size_t errlen)
{
	size_t o;

	if (want) {
		for (size_t r = 0; r < rs->nruns; r++)
			if (!strcmp(rs->runs[r].run_id, want))
				return (rs->run_id = strdup(want)) ? 0 : -1;
		snprintf(err, errlen, "no record of run %s in the input", want);
		return -1;
	}
	if (rs->nruns == 1)
		return (rs->run_id = strdup(rs->runs[0].run_id)) ? 0 : -1;
	o = (size_t)snprintf(err, errlen,
			     "the input holds %zu runs; choose one with --run-id:", rs->nruns);
	for (size_t r = 0; r < rs->nruns && o < errlen; r++)
		o += (size_t)snprintf(err + o, errlen - o, " %s (%u records)", rs->runs[r].run_id,
				      rs->runs[r].records);
	return -1;
}

/* One record per seq of the chosen run; disagreeing and invalid copies noted. */
static int keep_records(struct rs_builder *rs)
{
	rs->records = calloc(rs->ncopies ? rs->ncopies : 1, sizeof(*rs->records));
	if (!rs->records)
		return -1;
	for (size_t i = 0; i < rs->ncopies;) {
		size_t j = i, kept = SIZE_MAX;
		bool invalid = false, differ = false;

		for (; j < rs->ncopies && rs->copies[j].seq == rs->copies[i].seq; j++) {
			const struct rs_copy *c = &rs->copies[j];

			if (!c->obj)
				invalid = true;
			else if (strcmp(run_of(c), rs->run_id))
				continue;
			else if (kept == SIZE_MAX)
				kept = j;
		}
		for (size_t k = i; kept != SIZE_MAX && k < j; k++) {
			const struct rs_copy *c = &rs->copies[k], *K = &rs->copies[kept];

			if (c->obj && strcmp(run_of(c), rs->run_id))
				continue;
			if (c->len != K->len || memcmp(c->data, K->data, c->len))
				differ = true;
		}
		if (kept != SIZE_MAX) {
			const struct rs_copy *c = &rs->copies[kept];
			struct rs_record *r = &rs->records[rs->nrecords++];
			json_object *t = record_get(c->obj, "times.start_unix");

			r->seq = c->seq;
			r->copy = c;
			r->cell_index = (uint32_t)record_get_int(c->obj, "cell.index");
			r->cell_count = (uint32_t)record_get_int(c->obj, "cell.count");
			r->repeat = (uint32_t)record_get_int(c->obj, "repeat");
			r->status = (enum record_status)record_status_index(
				json_object_get_string(record_get(c->obj, "status")));
			r->start_unix = json_object_is_type(t, json_type_int)
						? json_object_get_int64(t)
						: -1;
			if (differ && seqs_add(&rs->disagree, c->seq))
				return -1;
		} else if (invalid && seqs_add(&rs->invalid, rs->copies[i].seq)) {
			return -1;
		}
		i = j;
	}
	return 0;
}

static bool is_kept(const struct rs_builder *rs, uint32_t seq)
{
	size_t lo = 0, hi = rs->nrecords;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (rs->records[mid].seq == seq)
			return true;
		if (rs->records[mid].seq < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* Damaged: seen somewhere, intact nowhere. Lost: below the highest seq, never seen. */
static int damaged_and_lost(struct rs_builder *rs)
{
	uint32_t max = rs->nrecords ? rs->records[rs->nrecords - 1].seq : 0;

	for (size_t i = 0; i < rs->ndamages; i++) {
		const struct rs_damage *d = &rs->damages[i];
		const char *log_run = rs->src[d->src].run_id;

		if (log_run && strcmp(log_run, rs->run_id))
			continue; /* a results log of another run */
		if (is_kept(rs, d->seq))
			continue; /* intact in another source */
		if (seqs_add(&rs->damaged, d->seq))
			return -1;
	}
	seqs_normalise(&rs->damaged);
	seqs_normalise(&rs->invalid);
	seqs_normalise(&rs->disagree);
	for (size_t i = 0; i < rs->invalid.n; i++)
		max = rs->invalid.v[i] > max ? rs->invalid.v[i] : max;
	for (size_t i = 0; i < rs->damaged.n; i++)
		max = rs->damaged.v[i] > max ? rs->damaged.v[i] : max;
	/* seqs start at 1 and go up by one (docs/records.md) */
	for (uint32_t seq = 1; seq < max && seq < (1u << 24); seq++)
		if (!is_kept(rs, seq) && !seqs_has(&rs->damaged, seq) &&
		    !seqs_has(&rs->invalid, seq) && seqs_add(&rs->lost, seq))
			return -1;
	return 0;
}

/*
 * Status counts, and missing = for each repeat 0..R-1 (R = highest repeat + 1),
 * cell.count minus the cells with a record.
 */
static int count_cells(struct rs_builder *rs)
{
	uint8_t *seen;

	for (size_t i = 0; i < rs->nrecords; i++) {
		const struct rs_record *r = &rs->records[i];

		if (rs->cell_count && r->cell_count != rs->cell_count)
			rs->cell_count_varies = true;
		rs->cell_count = r->cell_count > rs->cell_count ? r->cell_count : rs->cell_count;
		rs->repeats = r->repeat + 1 > rs->repeats ? r->repeat + 1 : rs->repeats;
		rs->counts[r->status]++;
	}
	if ((uint64_t)rs->cell_count * rs->repeats > CELLS_MAX)
		return 0;
	seen = calloc((size_t)rs->cell_count * rs->repeats + 1, 1);
	if (!seen)
		return -1;
	for (size_t i = 0; i < rs->nrecords; i++)
		seen[(size_t)rs->records[i].repeat * rs->cell_count + rs->records[i].cell_index -
		     1] = 1;
	for (uint32_t rep = 0; rep < rs->repeats; rep++) {
		for (uint32_t c = 0; c < rs->cell_count; c++) {
			struct rs_cell *p;

			if (seen[(size_t)rep * rs->cell_count + c])
				continue;
			if (grow((void **)&rs->missing, rs->nmissing, &rs->missing_cap,
				 sizeof(*p))) {
				free(seen);
				return -1;
			}
			rs->missing[rs->nmissing++] = (struct rs_cell){c + 1, rep};
		}
	}
	free(seen);
	return 0;
}

int rsb_build(struct rs_builder *rs, const char *run_id, char *err, size_t errlen)
{
	const struct rs_copy *first;
	size_t ninvalid = 0;

	if (rs->ncopies)
		qsort(rs->copies, rs->ncopies, sizeof(*rs->copies), cmp_copy);
	for (size_t i = 0; i < rs->ncopies; i++) {
		rs->copies[i].invalid = check_copy(&rs->copies[i]);
		ninvalid += rs->copies[i].invalid != NULL;
	}
	if (find_runs(rs))
		goto oom;
	if (!rs->nruns) {
		snprintf(err, errlen,
			 "no valid record in the input (%zu records, %zu not valid, "
			 "%zu damaged)",
			 rs->ncopies, ninvalid, rs->ndamages);
		return -1;
	}
	if (choose_run(rs, run_id, err, errlen))
		return -1;
	if (keep_records(rs) || damaged_and_lost(rs) || count_cells(rs))
		goto oom;
	first = rs->records[0].copy;
	rs->matrix = json_object_get_string(record_get(first->obj, "matrix"));
	rs->kernel = record_get(first->obj, "kernel");
	for (size_t i = 0; i < rs->nrecords; i++)
		if (rs->records[i].start_unix >= 0 &&
		    (rs->created_unix < 0 || rs->records[i].start_unix < rs->created_unix))
			rs->created_unix = rs->records[i].start_unix;
	for (size_t i = 0; rs->created_unix < 0 && i < rs->nsrc; i++)
		if (rs->src[i].created_unix && rs->src[i].run_id &&
		    !strcmp(rs->src[i].run_id, rs->run_id))
			rs->created_unix = (int64_t)rs->src[i].created_unix;
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}

uint32_t rsb_record_count(const struct rs_builder *rs)
{
	return (uint32_t)rs->nrecords;
}

bool rsb_incomplete(const struct rs_builder *rs)
{
	return rs->damaged.n || rs->lost.n || rs->invalid.n || rs->disagree.n || rs->nmissing ||
	       rs->cell_count_varies;
}

/* "5, 7-9, 12" */
static void print_seqs(FILE *f, const struct rs_seqs *s)
{
	for (size_t i = 0; i < s->n;) {
		size_t j = i;

		while (j + 1 < s->n && s->v[j + 1] == s->v[j] + 1)
			j++;
		fprintf(f, "%s%u", i ? ", " : "", s->v[i]);
		if (j > i)
			fprintf(f, "-%u", s->v[j]);
		i = j + 1;
	}
	if (!s->n)
		fputs("none", f);
	fputc('\n', f);
}

void rsb_print_summary(const struct rs_builder *rs, FILE *f)
{
	json_object *rel = record_get(rs->kernel, "release");

	fprintf(f, "run %s, matrix %s, kernel %s\n", rs->run_id, rs->matrix,
		rel ? json_object_get_string(rel) : "(unknown)");
	for (size_t i = 0; i < rs->nsrc; i++)
		fprintf(f, "  %s %s: %u intact, %u damaged\n",
			rs->src[i].kind == RSB_SERIAL ? "serial log" : "results log",
			rs->src[i].path, rs->src[i].records, rs->src[i].damaged);
	for (size_t r = 0; r < rs->nruns; r++)
		if (strcmp(rs->runs[r].run_id, rs->run_id))
			fprintf(f, "  left out: %u records of run %s\n", rs->runs[r].records,
				rs->runs[r].run_id);
	fprintf(f, "records: %zu (", rs->nrecords);
	for (int s = 0; s < RECORD_NSTATUS; s++)
		fprintf(f, "%s%s %u", s ? ", " : "", record_status_names[s], rs->counts[s]);
	fprintf(f, ")\ncells: %u x %u repeat%s, %zu missing\n", rs->cell_count, rs->repeats,
		rs->repeats == 1 ? "" : "s", rs->nmissing);
	if (rs->cell_count_varies)
		fprintf(f, "warning: records disagree on cell.count; the largest is used\n");
	fprintf(f, "damaged (seq): ");
	print_seqs(f, &rs->damaged);
	fprintf(f, "lost (seq, no trace): ");
	print_seqs(f, &rs->lost);
	if (rs->invalid.n) {
		fprintf(f, "not valid records (seq): ");
		print_seqs(f, &rs->invalid);
		for (size_t i = 0; i < rs->ncopies; i++)
			if (rs->copies[i].invalid && seqs_has(&rs->invalid, rs->copies[i].seq))
				fprintf(f, "  seq %u in %s: %s\n", rs->copies[i].seq,
					rs->src[rs->copies[i].src].path, rs->copies[i].invalid);
	}
	if (rs->disagree.n) {
		fprintf(f, "sources disagree (seq; the first input's copy is kept): ");
		print_seqs(f, &rs->disagree);
	}
}
