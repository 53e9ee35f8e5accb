// SPDX-License-Identifier: GPL-2.0
/*
 * Seed 000's before/after table: per cell, a line per kernel with READ and
 * WRITE bandwidth (KB/s, as fio's "bw"), IOPS and mean latency (us), and a
 * line with the changes, '*' marking the flagged ones:
 *
 *   6.1.0-base | READ  30898KB/s,  7724, 555.00us | WRITE  30875KB/s,  7718, 479.70us
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp_layouts.h"

struct group {
	const char *label;
	const char *metrics[3];
};

static const struct group groups[] = {
	{ "READ", { "read_bw", "read_iops", "read_lat_mean" } },
	{ "WRITE", { "write_bw", "write_iops", "write_lat_mean" } },
	{ "DD", { "dd_bw", NULL, NULL } },
};

#define NGROUPS (sizeof(groups) / sizeof(groups[0]))
#define FIELD 32

/* fio's old units: KB/s (KiB), plain IOPS, microseconds. */
static void field(char *buf, const struct metric *m, double v)
{
	switch (m->unit) {
	case UNIT_BYTES_PER_S: snprintf(buf, FIELD, "%.0fKB/s", v / 1024); break;
	case UNIT_NS: snprintf(buf, FIELD, "%.2fus", v / 1000); break;
	default: snprintf(buf, FIELD, "%.0f", v); break;
	}
}

/* The three lines of one cell: base, new, change; NULL where a metric is absent. */
struct block {
	size_t cell;
	char f[3][NGROUPS][3][FIELD];
	bool has[NGROUPS][3];
};

static void fill_block(const struct comparison *c, size_t cell, struct block *b)
{
	memset(b, 0, sizeof(*b));
	b->cell = cell;
	for (size_t g = 0; g < NGROUPS; g++) {
		for (size_t k = 0; k < 3 && groups[g].metrics[k]; k++) {
			const struct metric *m = metric_find(groups[g].metrics[k]);
			const struct cmp_row *row = view_cell_row(c, &c->cells[cell], m);

			if (!row)
				continue;
			b->has[g][k] = true;
			if (row->base.st.n)
				field(b->f[0][g][k], m, row->base.st.mean);
			else
				snprintf(b->f[0][g][k], FIELD, "-");
			if (row->new.st.n)
				field(b->f[1][g][k], m, row->new.st.mean);
			else
				snprintf(b->f[1][g][k], FIELD, "-");
			if (isfinite(row->change) && row->base.st.n && row->new.st.n)
				snprintf(b->f[2][g][k], FIELD, "%+.1f%%%c", row->change,
					 view_mark_char(row));
			else
				snprintf(b->f[2][g][k], FIELD, "-");
		}
	}
}

static int print_text(const struct comparison *c, const struct view_dims *d, struct block *bs,
		      size_t n, FILE *f)
{
	size_t w[NGROUPS][3] = { { 0 } }, lw, total = 0;
	bool used[NGROUPS] = { false };
	const char *labels[3] = { c->base->label, c->new->label, "change" };
	char key[512];

	lw = strlen(labels[0]);
	if (strlen(labels[1]) > lw)
		lw = strlen(labels[1]);
	for (size_t i = 0; i < n; i++)
		for (size_t g = 0; g < NGROUPS; g++)
			for (size_t k = 0; k < 3; k++) {
				if (!bs[i].has[g][k])
					continue;
				used[g] = true;
				for (int l = 0; l < 3; l++)
					if (strlen(bs[i].f[l][g][k]) > w[g][k])
						w[g][k] = strlen(bs[i].f[l][g][k]);
			}
	total = lw;
	for (size_t g = 0; g < NGROUPS; g++) {
		if (!used[g])
			continue;
		total += 3 + strlen(groups[g].label) + 1;
		for (size_t k = 0; k < 3; k++)
			total += w[g][k] ? w[g][k] + (k ? 2 : 0) : 0;
	}
	for (size_t i = 0; i < n; i++) {
		view_short_key(d, &c->cells[bs[i].cell], key, sizeof(key));
		fprintf(f, "%s:\n", key);
		for (size_t x = 0; x < total; x++)
			fputc('-', f);
		fputc('\n', f);
		for (int l = 0; l < 3; l++) {
			char *line = NULL;
			size_t llen = 0;
			FILE *out = open_memstream(&line, &llen);

			if (!out)
				return -1;
			fprintf(out, "%-*s", (int)lw, labels[l]);
			for (size_t g = 0; g < NGROUPS; g++) {
				bool any = false;

				if (!used[g])
					continue;
				for (size_t k = 0; k < 3; k++)
					any |= bs[i].has[g][k];
				if (!any) {
					/* Keep the columns of the other groups where they are. */
					size_t gw = 3 + strlen(groups[g].label) + 1;

					for (size_t k = 0; k < 3; k++)
						gw += w[g][k] ? w[g][k] + (k ? 2 : 0) : 0;
					fprintf(out, "%*s", (int)gw, "");
					continue;
				}
				fprintf(out, " | %s ", groups[g].label);
				for (size_t k = 0; k < 3; k++)
					if (w[g][k])
						fprintf(out, "%s%*s", k ? ", " : "", (int)w[g][k],
							bs[i].has[g][k] ? bs[i].f[l][g][k] : "");
			}
			if (fclose(out)) {
				free(line);
				return -1;
			}
			/* Fields keep their columns; the line keeps no trailing blanks. */
			while (llen && line[llen - 1] == ' ')
				line[--llen] = '\0';
			fprintf(f, "%s\n", line);
			free(line);
		}
		for (size_t x = 0; x < total; x++)
			fputc('-', f);
		fputs("\n\n", f);
	}
	return 0;
}

static const char *md_heads[NGROUPS][3] = {
	{ "READ KB/s", "READ IOPS", "READ lat us" },
	{ "WRITE KB/s", "WRITE IOPS", "WRITE lat us" },
	{ "dd KB/s", NULL, NULL },
};

static int print_markdown(const struct cmp_report *r, const struct comparison *c,
			  const struct view_dims *d, struct block *bs, size_t n, FILE *f)
{
	bool used[NGROUPS][3] = { { false } };
	const char *labels[3] = { c->base->label, c->new->label, "change" };
	struct table t;
	char key[512];
	int rc;

	for (size_t i = 0; i < n; i++)
		for (size_t g = 0; g < NGROUPS; g++)
			for (size_t k = 0; k < 3; k++)
				used[g][k] |= bs[i].has[g][k];
	table_init(&t);
	table_col(&t, "cell", ALIGN_LEFT);
	table_col(&t, "kernel", ALIGN_LEFT);
	for (size_t g = 0; g < NGROUPS; g++)
		for (size_t k = 0; k < 3; k++)
			if (used[g][k])
				table_col(&t, md_heads[g][k], ALIGN_RIGHT);
	for (size_t i = 0; i < n; i++) {
		view_short_key(d, &c->cells[bs[i].cell], key, sizeof(key));
		for (int l = 0; l < 3; l++) {
			size_t col = 2;

			table_row(&t);
			table_set(&t, 0, "%s", l ? "" : key);
			table_set(&t, 1, "%s", labels[l]);
			for (size_t g = 0; g < NGROUPS; g++)
				for (size_t k = 0; k < 3; k++)
					if (used[g][k])
						table_set(&t, col++, "%s",
							  bs[i].has[g][k] ? bs[i].f[l][g][k] : "");
		}
	}
	rc = layout_print_table(r, &t, f);
	table_free(&t);
	return rc;
}

int layout_seed000(const struct cmp_report *r, const struct comparison *c,
		   const struct view_dims *d, FILE *f)
{
	size_t *order, n = view_cells(r, c, &order), nb = 0;
	struct block *bs;
	int rc;

	if (!order)
		return -1;
	bs = calloc(n + 1, sizeof(*bs));
	if (!bs) {
		free(order);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		bool any = false;

		fill_block(c, order[i], &bs[nb]);
		for (size_t g = 0; g < NGROUPS; g++)
			for (size_t k = 0; k < 3; k++)
				any |= bs[nb].has[g][k];
		nb += any;
	}
	rc = 0;
	if (nb == 0)
		fprintf(f, "no cell has bandwidth, IOPS or latency to show.\n");
	else if (r->format == FMT_MARKDOWN)
		rc = print_markdown(r, c, d, bs, nb, f);
	else
		rc = print_text(c, d, bs, nb, f);
	fprintf(f, "%s* flagged (q < %g and |change| >= %g%%), ? n=1: cannot judge\n",
		r->format == FMT_MARKDOWN ? "\n" : "", c->opt.alpha, c->opt.min_effect);
	free(bs);
	free(order);
	return rc;
}
