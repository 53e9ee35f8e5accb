// SPDX-License-Identifier: GPL-2.0
/* Comparisons as plain text (for email) and Markdown: the head, then a layout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp_layouts.h"
#include "compare/metric_format.h"

/* The layout auto stands for: seed002 when every cell is dd, rows otherwise. */
static enum out_layout cmp_resolve_layout(const struct cmp_report *r)
{
	if (r->layout != LAYOUT_AUTO)
		return r->layout;
	for (size_t k = 0; k < r->ncmps; k++) {
		const struct comparison *c = &r->cmps[k];

		for (size_t i = 0; i < c->nrows; i++)
			if (strcmp(c->rows[i].m->name, "dd_bw"))
				return LAYOUT_ROWS;
	}
	return LAYOUT_SEED002;
}

int layout_print_table(const struct cmp_report *r, const struct table *t, FILE *f)
{
	return r->format == FMT_MARKDOWN ? table_print_markdown(t, f) : table_print_text(t, f, "");
}

static void print_head(const struct cmp_report *r, const struct comparison *c,
		       const struct view_dims *d, FILE *f)
{
	struct head_line lines[VIEW_HEAD_MAX];
	size_t n = view_head_lines(c, lines, VIEW_HEAD_MAX);
	char common[VIEW_LINE];
	bool md = r->format == FMT_MARKDOWN;

	for (size_t i = 0; i < n; i++) {
		if (md && i == 0) {
			fputs("**", f);
			md_escape(f, lines[i].text);
			fputs("**\n\n", f);
		} else if (md) {
			fputs("- ", f);
			md_escape(f, lines[i].text);
			fputc('\n', f);
		} else {
			fprintf(f, "%s\n", lines[i].text);
		}
	}
	view_common_line(d, common, sizeof(common));
	if (*common)
		fprintf(f, "%sall cells: %s\n", md ? "- " : "", common);
	if (c->unit != CMP_UNIT_RUN)
		fprintf(f, "%smarks: WORSE/better flagged; o an outlier among the values; "
			   "rsd: relative stddev base/new\n\n",
			md ? "- " : "");
	else
		fprintf(f, "%smarks: WORSE/better flagged; o an outlier; rsd b/n: relative stddev of "
			   "the run means%s\n\n",
			md ? "- " : "", view_wrsd_shown(c) ? "; wrsd: of repeats within runs" : "");
}

void layout_stat_cols(struct table *t, size_t col, const struct comparison *c,
		      const struct cmp_row *row)
{
	char buf[64];

	view_change(row, buf, sizeof(buf));
	table_set(t, col++, "%s", buf);
	view_rsd(row, buf, sizeof(buf));
	table_set(t, col++, "%s", buf);
	if (view_wrsd_shown(c)) {
		view_wrsd(row, buf, sizeof(buf));
		table_set(t, col++, "%s", buf);
	}
	view_n(row, buf, sizeof(buf));
	table_set(t, col++, "%s", buf);
	view_mark(c, row, buf, sizeof(buf));
	table_set(t, col, "%s", buf);
}

/* --- the rows layout ------------------------------------------------------- */

static void fill_row(struct table *t, size_t col, const struct comparison *c,
		     const struct cmp_row *row, const char *indent)
{
	const struct cmp_side *ref = row->base.st.n ? &row->base : &row->new;
	char b[32] = "-", n[32] = "-";

	if (row->base.st.n)
		unit_format(b, sizeof(b), row->m->unit, row->base.st.mean, ref->st.mean);
	if (row->new.st.n)
		unit_format(n, sizeof(n), row->m->unit, row->new.st.mean, ref->st.mean);
	table_set(t, col++, "%s%s", indent, row->m->name);
	table_set(t, col++, "%s", b);
	table_set(t, col++, "%s", n);
	layout_stat_cols(t, col, c, row);
}

static void rows_table(struct table *t, const struct comparison *c, const struct view_dims *d,
		       const size_t *order, size_t n, bool key_column)
{
	size_t last_cell = (size_t)-1;
	char key[512];

	table_init(t);
	if (key_column)
		table_col(t, "cell", ALIGN_LEFT);
	table_col(t, "metric", ALIGN_LEFT);
	table_col(t, c->base->label, ALIGN_RIGHT);
	table_col(t, c->new->label, ALIGN_RIGHT);
	table_col(t, "change", ALIGN_RIGHT);
	table_col(t, "rsd b/n", ALIGN_RIGHT);
	if (view_wrsd_shown(c))
		table_col(t, "wrsd b/n", ALIGN_RIGHT);
	table_col(t, "n", ALIGN_RIGHT);
	table_col(t, "mark", ALIGN_LEFT);
	for (size_t i = 0; i < n; i++) {
		const struct cmp_row *row = &c->rows[order[i]];

		view_short_key(d, &c->cells[row->cell], key, sizeof(key));
		if (!key_column && row->cell != last_cell)
			table_line(t, "%s", key);
		table_row(t);
		if (key_column)
			table_set(t, 0, "%s", row->cell != last_cell ? key : "");
		fill_row(t, key_column ? 1 : 0, c, row, key_column ? "" : "  ");
		last_cell = row->cell;
	}
}

static int layout_rows(const struct cmp_report *r, const struct comparison *c, const struct view_dims *d,
		FILE *f)
{
	struct table t;
	size_t *order, n = view_rows(r, c, &order);
	int rc;

	if (!order)
		return -1;
	if (n == 0) {
		fprintf(f, "%s\n", r->only_significant ? "no significant change." : "no rows.");
		free(order);
		return 0;
	}
	rows_table(&t, c, d, order, n, true);
	/* Long keys go on a line of their own so the table stays email-wide. */
	if (r->format == FMT_TEXT && table_text_width(&t) > TEXT_COLUMNS) {
		table_free(&t);
		rows_table(&t, c, d, order, n, false);
	}
	rc = layout_print_table(r, &t, f);
	table_free(&t);
	free(order);
	return rc;
}

int cmp_render_text(const struct cmp_report *r, FILE *f)
{
	enum out_layout layout = cmp_resolve_layout(r);
	struct view_dims d;
	int rc = 0;

	view_dims(r, &d);
	for (size_t k = 0; k < r->ncmps; k++) {
		const struct comparison *c = &r->cmps[k];

		if (k)
			fputc('\n', f);
		print_head(r, c, &d, f);
		switch (layout) {
		case LAYOUT_SEED000: rc |= layout_seed000(r, c, &d, f); break;
		case LAYOUT_SEED002: rc |= layout_seed002(r, c, &d, f); break;
		case LAYOUT_CURVE: break;
		default: rc |= layout_rows(r, c, &d, f); break;
		}
	}
	if (layout == LAYOUT_CURVE)
		rc |= layout_curve(r, &d, f);
	if (fflush(f) || ferror(f))
		rc = -1;
	return rc;
}
