// SPDX-License-Identifier: GPL-2.0
/* Choosing what a comparison covers: --where filters and --metric lists. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"

bool cmp_cell_selected(const struct rs_cell *c, const struct cmp_options *o)
{
	for (size_t i = 0; i < o->nwhere; i++) {
		const char *dim = o->where[i].dim, *have = rs_cell_dim(c, dim);
		bool any = false;

		/* Filters on one dimension are alternatives: check them together once. */
		for (size_t k = 0; k < i; k++)
			if (!strcmp(o->where[k].dim, dim))
				goto next;
		for (size_t k = i; k < o->nwhere && have; k++)
			if (!strcmp(o->where[k].dim, dim) && !strcmp(o->where[k].value, have))
				any = true;
		if (!any)
			return false;
next:;
	}
	return true;
}

int cmp_parse_metrics(const char *cmd, const char *spec, const struct metric ***out, size_t *n)
{
	char *copy = strdup(spec), *save = NULL;
	const struct metric **ms = calloc(metric_count + 1, sizeof(*ms));

	*n = 0;
	if (!copy || !ms)
		goto fail;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		const struct metric *m = metric_find(t);

		if (!strcmp(t, "all")) {
			for (*n = 0; *n < metric_count; (*n)++)
				ms[*n] = &metric_table[*n];
			break;
		}
		if (!m) {
			fprintf(stderr, "iomatrix %s: --metric %s: unknown metric "
					"(iomatrix compare --help lists them)\n", cmd, t);
			goto fail;
		}
		for (size_t i = 0; i < *n && m; i++)
			if (ms[i] == m)
				m = NULL; /* named twice: compared once */
		if (m && *n < metric_count)
			ms[(*n)++] = m;
	}
	if (!*n) {
		fprintf(stderr, "iomatrix %s: --metric '%s' names no metric\n", cmd, spec);
		goto fail;
	}
	free(copy);
	*out = ms;
	return 0;
fail:
	free(copy);
	free(ms);
	*n = 0;
	return -1;
}

void cmp_free_where(struct cmp_filter *w, size_t n)
{
	for (size_t i = 0; w && i < n; i++) {
		free(w[i].dim);
		free(w[i].value);
	}
	free(w);
}

int cmp_parse_where(const char *cmd, const char *spec, struct cmp_filter **out, size_t *n)
{
	char *copy = strdup(spec), *save = NULL;
	struct cmp_filter *fs = calloc(strlen(spec) + 1, sizeof(*fs));

	*n = 0;
	if (!copy || !fs)
		goto fail;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');

		if (!eq || eq == t) {
			fprintf(stderr, "iomatrix %s: --where %s: '%s' is not DIM=VALUE\n", cmd,
				spec, t);
			goto fail;
		}
		*eq = '\0';
		fs[*n].dim = strdup(t);
		fs[*n].value = strdup(eq + 1);
		(*n)++;
		if (!fs[*n - 1].dim || !fs[*n - 1].value)
			goto fail;
	}
	free(copy);
	*out = fs;
	return 0;
fail:
	cmp_free_where(fs, *n);
	free(copy);
	*n = 0;
	return -1;
}
