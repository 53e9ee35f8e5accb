// SPDX-License-Identifier: GPL-2.0
/* What a results log says about the run it holds; see resume.h. */
#include "runner/results/resume.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/crc32.h"
#include "matrix/run_order.h"

void run_plan_of(struct run_plan *p, const char *matrix, const char *kernel,
		 const struct cell_list *cl)
{
	uint32_t crc = 0;

	memset(p, 0, sizeof(*p));
	snprintf(p->matrix, sizeof(p->matrix), "%s", matrix);
	snprintf(p->kernel, sizeof(p->kernel), "%s", kernel);
	p->scale = cl->scale;
	p->cells = cl->count;
	for (int i = 0; i < cl->count; i++) {
		char line[64];
		int n = snprintf(line, sizeof(line), "%d %d ", cl->cells[i].index,
				 cl->cells[i].repeats);

		crc = crc32_ieee(crc, line, (size_t)n);
		crc = crc32_ieee(crc, cl->cells[i].key, strlen(cl->cells[i].key) + 1);
	}
	p->plan = crc;
}

size_t run_plan_format(const struct run_plan *p, char *buf, size_t len)
{
	int n = snprintf(buf, len,
			 "[run]\nmatrix = %s\nkernel = %s\nscale = %.17g\ncells = %d\n"
			 "plan = %08x\ndisks = %s\n",
			 p->matrix, p->kernel, p->scale, p->cells, p->plan, p->disks);

	return n > 0 && (size_t)n < len ? (size_t)n : 0;
}

enum { K_MATRIX, K_KERNEL, K_SCALE, K_CELLS, K_PLAN, K_DISKS, K_COUNT };

static const char *const plan_keys[K_COUNT] = {"matrix", "kernel", "scale",
					       "cells",	 "plan",   "disks"};

static int set_string(char *field, size_t size, const char *v, const char *key, char *err,
		      size_t errlen)
{
	if (strlen(v) >= size) {
		snprintf(err, errlen, "%.16s: longer than %zu characters", key, size - 1);
		return -1;
	}
	memcpy(field, v, strlen(v) + 1);
	return 0;
}

static int set_number(struct run_plan *p, int k, const char *v, char *err, size_t errlen)
{
	char *end = NULL;

	errno = 0;
	if (k == K_SCALE) {
		p->scale = strtod(v, &end);
	} else if (k == K_CELLS) {
		long n = strtol(v, &end, 10);

		p->cells = (int)n;
		if (n < 0 || n > 1000000)
			errno = ERANGE;
	} else {
		unsigned long n = strtoul(v, &end, 16);

		p->plan = (uint32_t)n;
		if (n > UINT32_MAX || *v == '-')
			errno = ERANGE;
	}
	if (errno || end == v || *end) {
		snprintf(err, errlen, "%s = %.60s: not a number", plan_keys[k], v);
		return -1;
	}
	return 0;
}

/* "  key = value  " into its two halves, blanks trimmed; false when there is no '='. */
static bool split(char *line, char **key, char **value)
{
	char *eq = strchr(line, '='), *e;

	if (!eq)
		return false;
	*eq = '\0';
	for (*key = line; **key == ' ' || **key == '\t'; (*key)++)
		;
	for (e = eq; e > *key && (e[-1] == ' ' || e[-1] == '\t'); e--)
		;
	*e = '\0';
	for (*value = eq + 1; **value == ' ' || **value == '\t'; (*value)++)
		;
	for (e = *value + strlen(*value); e > *value && (e[-1] == ' ' || e[-1] == '\t'); e--)
		;
	*e = '\0';
	return true;
}

/* One line (no newline, NUL-terminated, may be changed): 0, or -1 with err. */
static int plan_line(struct run_plan *p, char *line, bool *in_run, unsigned *seen, char *err,
		     size_t errlen)
{
	char *key, *value;
	int k;

	if (!line[strspn(line, " \t\r")])
		return 0;
	if (!*in_run) {
		if (strcmp(line, "[run]")) {
			snprintf(err, errlen, "the first line is not [run]");
			return -1;
		}
		*in_run = true;
		return 0;
	}
	if (!split(line, &key, &value)) {
		snprintf(err, errlen, "a line without '='");
		return -1;
	}
	for (k = 0; k < K_COUNT && strcmp(key, plan_keys[k]); k++)
		;
	if (k == K_COUNT) {
		snprintf(err, errlen, "unknown key '%.40s'", key);
		return -1;
	}
	*seen |= 1u << k;
	if (k == K_MATRIX)
		return set_string(p->matrix, sizeof(p->matrix), value, key, err, errlen);
	if (k == K_KERNEL)
		return set_string(p->kernel, sizeof(p->kernel), value, key, err, errlen);
	if (k == K_DISKS)
		return set_string(p->disks, sizeof(p->disks), value, key, err, errlen);
	return set_number(p, k, value, err, errlen);
}

int run_plan_parse(const char *text, size_t len, struct run_plan *p, char *err, size_t errlen)
{
	char line[1200], why[256];
	unsigned seen = 0, lineno = 0;
	bool in_run = false;

	memset(p, 0, sizeof(*p));
	for (size_t pos = 0; pos < len;) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - text - pos) : len - pos;

		lineno++;
		if (n >= sizeof(line) || memchr(text + pos, '\0', n)) {
			snprintf(err, errlen, "run description, line %u: too long or not text",
				 lineno);
			return -1;
		}
		for (size_t i = 0; i < n; i++)
			if ((unsigned char)text[pos + i] < ' ' && text[pos + i] != '\t' &&
			    text[pos + i] != '\r') {
				snprintf(err, errlen, "run description, line %u: not text", lineno);
				return -1;
			}
		memcpy(line, text + pos, n);
		line[n] = '\0';
		line[strcspn(line, "\r")] = '\0';
		if (plan_line(p, line, &in_run, &seen, why, sizeof(why))) {
			snprintf(err, errlen, "run description, line %u: %s", lineno, why);
			return -1;
		}
		pos += n + (nl ? 1 : 0);
	}
	for (int k = 0; k < K_COUNT; k++)
		if (!(seen & 1u << k)) {
			snprintf(err, errlen, "run description: %s missing", plan_keys[k]);
			return -1;
		}
	return 0;
}

const char *run_plan_differs(const struct run_plan *have, const struct run_plan *want,
			     bool plan_too, char *buf, size_t len)
{
	if (strcmp(have->matrix, want->matrix))
		snprintf(buf, len, "matrix %s, this boot runs %s", have->matrix, want->matrix);
	else if (strcmp(have->kernel, want->kernel))
		snprintf(buf, len, "kernel %s, this boot runs %s", have->kernel, want->kernel);
	else if (!plan_too)
		return NULL;
	else if (have->cells != want->cells || have->plan != want->plan)
		snprintf(buf, len, "%d cells (plan %08x), this boot's plan has %d (%08x)",
			 have->cells, have->plan, want->cells, want->plan);
	else if (have->scale != want->scale)
		snprintf(buf, len, "scale %g, this boot's is %g", have->scale, want->scale);
	else
		return NULL;
	return buf;
}

int resume_visit(void *ctx, const struct rlog_item *item)
{
	struct resume *r = ctx;

	if (!item->data) {
		r->damaged++;
		return 0;
	}
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 256;
		struct resume_item *p = realloc(r->items, cap * sizeof(*p));

		if (!p) {
			r->oom = true;
			return 1;
		}
		r->items = p;
		r->cap = cap;
	}
	r->items[r->n++] = (struct resume_item){item->cell_index, item->repeat};
	return 0;
}

void resume_free(struct resume *r)
{
	free(r->items);
	memset(r, 0, sizeof(*r));
}

size_t resume_mark_done(const struct resume *r, const struct cell_list *cl, int stride, bool *done)
{
	size_t foreign = 0;

	for (size_t i = 0; i < r->n; i++) {
		const struct resume_item *it = &r->items[i];

		if (it->cell < 1 || it->cell > (uint32_t)cl->count ||
		    it->repeat >= (uint32_t)cl->cells[it->cell - 1].repeats) {
			foreign++;
			continue;
		}
		done[run_order_slot(stride, (int)it->cell, (int)it->repeat)] = true;
	}
	return foreign;
}

bool resume_crashed_run(const struct rlog_progress *p, bool has_progress,
			const struct cell_list *cl, int stride, const bool *done, int *cell,
			int *repeat)
{
	if (!has_progress || p->state != RLOG_CELL || p->cell_index < 1 ||
	    p->cell_index > (uint32_t)cl->count ||
	    p->repeat >= (uint32_t)cl->cells[p->cell_index - 1].repeats)
		return false;
	if (done[run_order_slot(stride, (int)p->cell_index, (int)p->repeat)])
		return false;
	*cell = (int)p->cell_index;
	*repeat = (int)p->repeat;
	return true;
}
