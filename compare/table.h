/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A table of text cells rendered two ways: fixed-width ASCII (for email:
 * columns padded with blanks, a dashed rule under the head) or a Markdown
 * table. Layouts fill a table; the format decides how it is printed.
 * A "line" row is one full-width text line (a cell key above its metrics).
 */
#ifndef IOMATRIX_COMPARE_TABLE_H
#define IOMATRIX_COMPARE_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define TABLE_MAX_COLS 32

enum table_align {
	ALIGN_LEFT,
	ALIGN_RIGHT,
};

struct table_row {
	bool is_line;
	char *cells[TABLE_MAX_COLS]; /* is_line: cells[0] is the line */
};

struct table {
	size_t ncols;
	const char *head[TABLE_MAX_COLS];
	enum table_align align[TABLE_MAX_COLS];
	const char *sep[TABLE_MAX_COLS]; /* before column i in text; default two blanks */
	size_t nrows;
	struct table_row *rows;
	bool oom;
};

void table_init(struct table *t);
void table_col(struct table *t, const char *head, enum table_align align);
/* Starts a row; the cells are then set with table_set in any order. */
void table_row(struct table *t);
void table_set(struct table *t, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void table_line(struct table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Columns the text form needs, rule included. */
size_t table_text_width(const struct table *t);
/* -1 when memory ran out while filling the table. */
int table_print_text(const struct table *t, FILE *f, const char *indent);
int table_print_markdown(const struct table *t, FILE *f);
void table_free(struct table *t);

/* Escapes '|' for a Markdown cell. */
void md_escape(FILE *f, const char *s);

#endif
