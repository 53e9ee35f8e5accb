// SPDX-License-Identifier: GPL-2.0
/* A streaming JSON writer; see json_out.h. */
#include "lib/json_out.h"

#include <math.h>
#include <string.h>

void jw_init(struct jw *j, FILE *f, bool pretty)
{
	j->f = f;
	j->depth = 0;
	j->pretty = pretty;
	j->overflow = false;
	j->has_items[0] = false;
}

int jw_end(struct jw *j)
{
	if (j->pretty)
		fputc('\n', j->f);
	return (j->depth == 0 && !j->overflow) ? 0 : -1;
}

static void indent(struct jw *j)
{
	if (!j->pretty)
		return;
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* Writes a string's JSON encoding (quotes included) to f. */
static void jw_write_escaped(FILE *f, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";

	fputc('"', f);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (c < 0x20 || c == 0x7f) {
				fputs("\\u00", f);
				fputc(hex[c >> 4], f);
				fputc(hex[c & 15], f);
			} else {
				fputc(c, f);
			}
		}
	}
	fputc('"', f);
}

/* Separator, indentation and key before any value. */
static void member(struct jw *j, const char *key)
{
	if (j->depth > 0) {
		if (j->has_items[j->depth])
			fputc(',', j->f);
		j->has_items[j->depth] = true;
		indent(j);
	}
	if (key) {
		jw_write_escaped(j->f, key, strlen(key));
		fputs(j->pretty ? " : " : ":", j->f);
	}
}

static void open_container(struct jw *j, const char *key, char c)
{
	member(j, key);
	fputc(c, j->f);
	if (j->depth + 1 >= JSON_MAX_DEPTH) {
		j->overflow = true;
		return;
	}
	j->depth++;
	j->has_items[j->depth] = false;
}

static void close_container(struct jw *j, char c)
{
	bool had = j->has_items[j->depth];

	if (j->depth == 0) {
		j->overflow = true;
		return;
	}
	j->depth--;
	if (had)
		indent(j);
	fputc(c, j->f);
}

void jw_obj_begin(struct jw *j, const char *key)
{
	open_container(j, key, '{');
}

void jw_obj_end(struct jw *j)
{
	close_container(j, '}');
}

void jw_arr_begin(struct jw *j, const char *key)
{
	open_container(j, key, '[');
}

void jw_arr_end(struct jw *j)
{
	close_container(j, ']');
}

static void jw_strn(struct jw *j, const char *key, const char *val, size_t len)
{
	member(j, key);
	jw_write_escaped(j->f, val, len);
}

void jw_str(struct jw *j, const char *key, const char *val)
{
	if (!val) {
		jw_null(j, key);
		return;
	}
	jw_strn(j, key, val, strlen(val));
}

void jw_int(struct jw *j, const char *key, long long val)
{
	member(j, key);
	fprintf(j->f, "%lld", val);
}

void jw_uint(struct jw *j, const char *key, unsigned long long val)
{
	member(j, key);
	fprintf(j->f, "%llu", val);
}

void jw_double(struct jw *j, const char *key, double val)
{
	member(j, key);
	if (!isfinite(val))
		fputs("null", j->f);
	else if (val != 0 && fabs(val) < 1e-3)
		fprintf(j->f, "%.6e", val); /* %f would print 0.000000 */
	else
		fprintf(j->f, "%f", val); /* fio's format */
}

void jw_bool(struct jw *j, const char *key, bool val)
{
	member(j, key);
	fputs(val ? "true" : "false", j->f);
}

void jw_null(struct jw *j, const char *key)
{
	member(j, key);
	fputs("null", j->f);
}

void jw_raw(struct jw *j, const char *key, const char *text)
{
	member(j, key);
	fputs(text, j->f);
}
