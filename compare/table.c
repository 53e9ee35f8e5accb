// SPDX-License-Identifier: GPL-2.0
/* Text tables for email (fixed width, ASCII) and Markdown. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compare/table.h"

void table_init(struct table *t)
{
	memset(t, 0, sizeof(*t));
}

void table_col(struct table *t, const char *head, enum table_align align)
{
	if (t->ncols == TABLE_MAX_COLS) {
		t->oom = true;
		return;
	}
	t->head[t->ncols] = head;
	t->align[t->ncols] = align;
	t->ncols++;
}

static struct table_row *new_row(struct table *t)
{
	struct table_row *grown = realloc(t->rows, (t->nrows + 1) * sizeof(*grown));

	if (!grown) {
		t->oom = true;
		return NULL;
	}
	t->rows = grown;
	memset(&t->rows[t->nrows], 0, sizeof(*grown));
	return &t->rows[t->nrows++];
}

void table_row(struct table *t)
{
	new_row(t);
}

static char *vformat(const char *fmt, va_list ap)
{
	char *s = NULL;

	return vasprintf(&s, fmt, ap) < 0 ? NULL : s;
}

void table_set(struct table *t, size_t col, const char *fmt, ...)
{
	struct table_row *r;
	va_list ap;

	if (!t->nrows || col >= t->ncols) {
		t->oom = true;
		return;
	}
	r = &t->rows[t->nrows - 1];
	va_start(ap, fmt);
	free(r->cells[col]);
	r->cells[col] = vformat(fmt, ap);
	va_end(ap);
	if (!r->cells[col])
		t->oom = true;
}

void table_line(struct table *t, const char *fmt, ...)
{
	struct table_row *r = new_row(t);
	va_list ap;

	if (!r)
		return;
	r->is_line = true;
	va_start(ap, fmt);
	r->cells[0] = vformat(fmt, ap);
	va_end(ap);
	if (!r->cells[0])
		t->oom = true;
}

static size_t width(const char *s)
{
	return s ? strlen(s) : 0;
}

static void pad(FILE *f, size_t n)
{
	while (n--)
		fputc(' ', f);
}

static void print_cell(FILE *f, const char *s, size_t w, enum table_align a, bool last)
{
	size_t len = width(s);

	if (a == ALIGN_RIGHT)
		pad(f, w - len);
	fputs(s ? s : "", f);
	if (a == ALIGN_LEFT && !last)
		pad(f, w - len);
}

static size_t col_widths(const struct table *t, size_t *w)
{
	size_t total = 0;

	for (size_t c = 0; c < t->ncols; c++) {
		w[c] = width(t->head[c]);
		for (size_t r = 0; r < t->nrows; r++)
			if (!t->rows[r].is_line && width(t->rows[r].cells[c]) > w[c])
				w[c] = width(t->rows[r].cells[c]);
	}
	for (size_t c = 0; c < t->ncols; c++)
		total += w[c] + (c ? strlen(t->sep[c] ? t->sep[c] : "  ") : 0);
	return total;
}

size_t table_text_width(const struct table *t)
{
	size_t w[TABLE_MAX_COLS];

	return col_widths(t, w);
}

int table_print_text(const struct table *t, FILE *f, const char *indent)
{
	size_t w[TABLE_MAX_COLS], total = col_widths(t, w);
	fputs(indent, f);
	for (size_t c = 0; c < t->ncols; c++) {
		if (c)
			fputs(t->sep[c] ? t->sep[c] : "  ", f);
		print_cell(f, t->head[c], w[c], t->align[c], c + 1 == t->ncols);
	}
	fprintf(f, "\n%s", indent);
	for (size_t i = 0; i < total; i++)
		fputc('-', f);
	fputc('\n', f);
	for (size_t r = 0; r < t->nrows; r++) {
		const struct table_row *row = &t->rows[r];

		if (row->is_line) {
			fprintf(f, "%s\n", row->cells[0] ? row->cells[0] : "");
			continue;
		}
		fputs(indent, f);
		for (size_t c = 0; c < t->ncols; c++) {
			/* No trailing blanks: empty cells at the end print nothing. */
			size_t last = t->ncols;

			while (last > c + 1 && !width(row->cells[last - 1]))
				last--;
			if (c >= last || (c + 1 == last && !width(row->cells[c]) && c))
				break;
			if (c)
				fputs(t->sep[c] ? t->sep[c] : "  ", f);
			print_cell(f, row->cells[c], w[c], t->align[c], c + 1 == last);
		}
		fputc('\n', f);
	}
	return t->oom ? -1 : 0;
}

void md_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
}

int table_print_markdown(const struct table *t, FILE *f)
{
	fputc('|', f);
	for (size_t c = 0; c < t->ncols; c++) {
		fputc(' ', f);
		md_escape(f, t->head[c]);
		fputs(" |", f);
	}
	fputs("\n|", f);
	for (size_t c = 0; c < t->ncols; c++)
		fputs(t->align[c] == ALIGN_RIGHT ? "---:|" : "---|", f);
	fputc('\n', f);
	for (size_t r = 0; r < t->nrows; r++) {
		const struct table_row *row = &t->rows[r];

		if (row->is_line) {
			/* A full-width line becomes a row with the text in the first cell. */
			fputs("| **", f);
			md_escape(f, row->cells[0]);
			fputs("** |", f);
			for (size_t c = 1; c < t->ncols; c++)
				fputs(" |", f);
			fputc('\n', f);
			continue;
		}
		fputc('|', f);
		for (size_t c = 0; c < t->ncols; c++) {
			fputc(' ', f);
			md_escape(f, row->cells[c]);
			fputs(" |", f);
		}
		fputc('\n', f);
	}
	return t->oom ? -1 : 0;
}

void table_free(struct table *t)
{
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < TABLE_MAX_COLS; c++)
			free(t->rows[r].cells[c]);
	free(t->rows);
	memset(t, 0, sizeof(*t));
}
