// SPDX-License-Identifier: GPL-2.0
/* What a results log says about the run it holds; see resume.h. */
#include "resume.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crc32.h"
#include "ini.h"

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

struct parse_ctx {
	struct run_plan *p;
	unsigned seen;
};

enum { K_MATRIX, K_KERNEL, K_SCALE, K_CELLS, K_PLAN, K_DISKS, K_COUNT };

static const char *const plan_keys[K_COUNT] = {"matrix", "kernel", "scale",
					       "cells",	 "plan",   "disks"};

static int set_string(char *field, size_t size, const char *v, const char *key, char *err,
		      size_t errlen)
{
	if (strlen(v) >= size) {
		snprintf(err, errlen, "%s: longer than %zu characters", key, size - 1);
		return -1;
	}
	memcpy(field, v, strlen(v) + 1);
	return 0;
}

static int plan_option(void *arg, const struct ini_event *ev, char *err, size_t errlen)
{
	struct parse_ctx *c = arg;
	const char *v = ev->value ? ev->value : "";
	char *end;
	int k;

	if (ev->kind == INI_SECTION) {
		if (strcmp(ev->section, "run")) {
			snprintf(err, errlen, "unknown section [%s]", ev->section);
			return -1;
		}
		return 0;
	}
	for (k = 0; k < K_COUNT && strcmp(ev->key, plan_keys[k]); k++)
		;
	if (k == K_COUNT || !ev->section) {
		snprintf(err, errlen, "unknown key %s", ev->key);
		return -1;
	}
	c->seen |= 1u << k;
	errno = 0;
	switch (k) {
	case K_MATRIX:
		return set_string(c->p->matrix, sizeof(c->p->matrix), v, ev->key, err, errlen);
	case K_KERNEL:
		return set_string(c->p->kernel, sizeof(c->p->kernel), v, ev->key, err, errlen);
	case K_DISKS:
		return set_string(c->p->disks, sizeof(c->p->disks), v, ev->key, err, errlen);
	case K_SCALE:
		c->p->scale = strtod(v, &end);
		break;
	case K_CELLS: {
		long n = strtol(v, &end, 10);

		c->p->cells = n >= 0 && n <= 1000000 ? (int)n : -1;
		if (c->p->cells < 0)
			errno = ERANGE;
		break;
	}
	default: {
		unsigned long n = strtoul(v, &end, 16);

		c->p->plan = (uint32_t)n;
		if (n > UINT32_MAX)
			errno = ERANGE;
		break;
	}
	}
	if (errno || end == v || *end) {
		snprintf(err, errlen, "%s = %s: not a number", ev->key, v);
		return -1;
	}
	return 0;
}

int run_plan_parse(const char *text, size_t len, struct run_plan *p, char *err, size_t errlen)
{
	struct parse_ctx c = {p, 0};

	memset(p, 0, sizeof(*p));
	if (ini_parse_buffer("run description", text, len, plan_option, &c, err, errlen))
		return -1;
	for (int k = 0; k < K_COUNT; k++)
		if (!(c.seen & 1u << k)) {
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
	r->items[r->n++] = (struct resume_item){item->seq, item->cell_index, item->repeat};
	return 0;
}

void resume_free(struct resume *r)
{
	free(r->items);
	memset(r, 0, sizeof(*r));
}

size_t resume_mark_done(const struct resume *r, const struct cell_list *cl, int stride,
			bool *done)
{
	size_t foreign = 0;

	for (size_t i = 0; i < r->n; i++) {
		const struct resume_item *it = &r->items[i];

		if (it->cell < 1 || it->cell > (uint32_t)cl->count ||
		    it->repeat >= (uint32_t)cl->cells[it->cell - 1].repeats) {
			foreign++;
			continue;
		}
		done[(size_t)(it->cell - 1) * (size_t)stride + it->repeat] = true;
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
	if (done[(size_t)(p->cell_index - 1) * (size_t)stride + p->repeat])
		return false;
	*cell = (int)p->cell_index;
	*repeat = (int)p->repeat;
	return true;
}
