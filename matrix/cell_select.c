// SPDX-License-Identifier: GPL-2.0
/* Cell selections; the syntax is in cell_select.h and matrix/README.md. */
#include "matrix/cell_select.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix/matrix_internal.h"

struct index_range {
	int lo, hi;
};

struct dim_filter {
	int npos;			/* values wanted; 0: any */
	uint8_t pos[MATRIX_MAX_VALUES]; /* 1 where dim=value was given */
	uint8_t neg[MATRIX_MAX_VALUES]; /* 1 where dim!=value was given */
	bool used;
};

struct cell_select {
	struct index_range *ranges;
	int nranges;
	struct dim_filter filters[MATRIX_MAX_DIMS];
};

void cell_select_free(struct cell_select *s)
{
	if (!s)
		return;
	free(s->ranges);
	free(s);
}

static int parse_index(const char *s, size_t n, int *out)
{
	long v = 0;

	if (!n || n > 9)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = (int)v;
	return 0;
}

static int add_range(struct cell_select *s, const char *term, size_t n, const struct matrix *m,
		     char *err, size_t errlen)
{
	const char *dash = memchr(term, '-', n);
	struct index_range r, *grown;
	int count = matrix_cell_count(m);

	if (dash ? parse_index(term, dash - term, &r.lo) ||
			    parse_index(dash + 1, n - (dash - term) - 1, &r.hi)
		 : parse_index(term, n, &r.lo))
		return mx_fail(err, errlen, "bad cell range '%.*s' (want N or N-M)", (int)n, term);
	if (!dash)
		r.hi = r.lo;
	if (r.lo < 1 || r.hi < r.lo)
		return mx_fail(err, errlen,
			       "bad cell range '%.*s' (cells count from 1, low to "
			       "high)",
			       (int)n, term);
	if (r.hi > count)
		return mx_fail(err, errlen, "cell %d does not exist (matrix %s has %d cells)", r.hi,
			       matrix_name(m), count);
	grown = realloc(s->ranges, (s->nranges + 1) * sizeof(*grown));
	if (!grown)
		return mx_fail(err, errlen, "out of memory");
	s->ranges = grown;
	grown[s->nranges++] = r;
	return 0;
}

static int add_filter(struct cell_select *s, const char *term, size_t n, const char *eq,
		      const struct matrix *m, char *err, size_t errlen)
{
	bool negate = eq > term && eq[-1] == '!';
	size_t nlen = (size_t)(eq - term) - (negate ? 1 : 0);
	size_t vlen = n - (size_t)(eq - term) - 1;
	char name[128], value[256], list[512];
	struct dim_filter *f;
	int d, v;

	if (!nlen || nlen >= sizeof(name) || !vlen || vlen >= sizeof(value))
		return mx_fail(err, errlen,
			       "bad filter '%.*s' (want dimension=value or "
			       "dimension!=value)",
			       (int)n, term);
	memcpy(name, term, nlen);
	name[nlen] = '\0';
	memcpy(value, eq + 1, vlen);
	value[vlen] = '\0';
	d = matrix_dim_find(m, name);
	if (d < 0) {
		size_t l = 0;

		list[0] = '\0';
		for (int i = 0; i < matrix_dim_count(m) && l < sizeof(list); i++)
			l += snprintf(list + l, sizeof(list) - l, "%s%s", i ? " " : "",
				      matrix_dim_name(m, i));
		return mx_fail(err, errlen, "no dimension '%s' in matrix %s (dimensions: %s)", name,
			       matrix_name(m), list);
	}
	v = matrix_value_find(m, d, value);
	if (v < 0) {
		size_t l = 0;

		list[0] = '\0';
		for (int i = 0; i < matrix_dim_value_count(m, d) && l < sizeof(list); i++)
			l += snprintf(list + l, sizeof(list) - l, "%s%s", i ? " " : "",
				      matrix_dim_value(m, d, i));
		return mx_fail(err, errlen, "dimension %s has no value '%s' (values: %s)", name,
			       value, list);
	}
	f = &s->filters[d];
	f->used = true;
	if (negate) {
		f->neg[v] = 1;
	} else if (!f->pos[v]) {
		f->pos[v] = 1;
		f->npos++;
	}
	return 0;
}

struct cell_select *cell_select_parse(const char *spec, const struct matrix *m, bool allow_indices,
				      char *err, size_t errlen)
{
	struct cell_select *s = calloc(1, sizeof(*s));
	const char *p = spec;

	if (!s) {
		mx_fail(err, errlen, "out of memory");
		return NULL;
	}
	while (*p) {
		size_t n;
		const char *eq;

		p += strspn(p, ", \t");
		n = strcspn(p, ", \t");
		if (!n)
			continue;
		eq = memchr(p, '=', n);
		if (eq) {
			if (add_filter(s, p, n, eq, m, err, errlen))
				goto fail;
		} else if (!isdigit((unsigned char)*p)) {
			mx_fail(err, errlen,
				"bad term '%.*s' (want N, N-M, dimension=value or "
				"dimension!=value)",
				(int)n, p);
			goto fail;
		} else if (!allow_indices) {
			mx_fail(err, errlen,
				"'%.*s': a rule takes dimension=value terms, not cell "
				"numbers",
				(int)n, p);
			goto fail;
		} else if (add_range(s, p, n, m, err, errlen)) {
			goto fail;
		}
		p += n;
	}
	return s;
fail:
	cell_select_free(s);
	return NULL;
}

bool cell_select_match_values(const struct cell_select *s, int index, const int *value_index)
{
	if (s->nranges) {
		bool in = false;

		for (int i = 0; i < s->nranges && !in; i++)
			in = index >= s->ranges[i].lo && index <= s->ranges[i].hi;
		if (!in)
			return false;
	}
	for (int d = 0; d < MATRIX_MAX_DIMS; d++) {
		const struct dim_filter *f = &s->filters[d];

		if (!f->used)
			continue;
		if (f->npos && !f->pos[value_index[d]])
			return false;
		if (f->neg[value_index[d]])
			return false;
	}
	return true;
}

bool cell_select_all(const struct cell_select *s)
{
	if (s->nranges)
		return false;
	for (int d = 0; d < MATRIX_MAX_DIMS; d++)
		if (s->filters[d].used)
			return false;
	return true;
}

bool cell_select_match(const struct cell_select *s, const struct cell *c)
{
	return cell_select_match_values(s, c->index, c->value_index);
}
