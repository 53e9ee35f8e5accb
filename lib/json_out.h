/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A streaming JSON writer. It keeps only the nesting state, so records and
 * fio-style reports of any size are written without building a tree. The
 * layout follows fio's: two-space indent and "key" : value.
 *
 * Every jw_ value call takes the member's key; pass NULL inside arrays and for
 * the top-level value. Non-finite doubles are written as null, so the
 * output is always valid JSON.
 */
#ifndef IOMATRIX_LIB_JSON_OUT_H
#define IOMATRIX_LIB_JSON_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct jw {
	FILE *f;
	int depth;
	bool pretty;
	bool has_items[JSON_MAX_DEPTH];
	bool overflow; /* nesting deeper than JSON_MAX_DEPTH: a bug, reported by jw_end */
};

void jw_init(struct jw *j, FILE *f, bool pretty);
/* 0 when every container was closed and nothing overflowed, -1 otherwise. */
int jw_end(struct jw *j);

void jw_obj_begin(struct jw *j, const char *key);
void jw_obj_end(struct jw *j);
void jw_arr_begin(struct jw *j, const char *key);
void jw_arr_end(struct jw *j);

void jw_str(struct jw *j, const char *key, const char *val); /* NULL: null */
void jw_int(struct jw *j, const char *key, long long val);
void jw_uint(struct jw *j, const char *key, unsigned long long val);
void jw_double(struct jw *j, const char *key, double val);
void jw_bool(struct jw *j, const char *key, bool val);
void jw_null(struct jw *j, const char *key);

/*
 * A value given as JSON text, written as it is: the caller has checked it
 * is one well-formed JSON value (json_check.h), e.g. a child's report.
 */
void jw_raw(struct jw *j, const char *key, const char *text);

#endif
