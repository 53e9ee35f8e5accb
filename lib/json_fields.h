/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading typed members of a json-c object into a C struct by table: one
 * entry per key (name, type, offsetof), as the loaders of fio's and dd's
 * JSON need dozens of them (records/jr_load.c, records/dd_load.c).
 *
 * A member that is absent or null leaves its field alone (zero, for a
 * struct that starts zeroed). A member of the wrong type, a negative count
 * or a value out of the field's range is an error naming its path:
 * "jobs[1].read.io_bytes: not a number".
 */
#ifndef IOMATRIX_LIB_JSON_FIELDS_H
#define IOMATRIX_LIB_JSON_FIELDS_H

#include <stddef.h>

#include <json-c/json.h>

enum jf_kind {
	JF_U64,	 /* uint64_t: a non-negative number */
	JF_U32,	 /* uint32_t */
	JF_INT,	 /* int: an integer, may be negative */
	JF_DBL,	 /* double: any finite number */
	JF_TIME, /* time_t: seconds since 1970, up to the year 9999 */
	JF_BOOL, /* int: true or false */
};

struct jf_field {
	const char *key;
	enum jf_kind kind;
	size_t off;
};

/* The member key of o, or NULL when it is absent or null. */
json_object *jf_member(json_object *o, const char *key);

/* Each field of the table from o into base. 0, or -1 with err set. */
int jf_load(json_object *o, const char *at, const struct jf_field *f, size_t n, void *base,
	    char *err, size_t errlen);

/* One value (not null) as kind into out; at.key names it in errors. */
int jf_value(json_object *v, const char *at, const char *key, enum jf_kind kind, void *out,
	     char *err, size_t errlen);

/* A string member, strdup'd into *out (left alone when absent). */
int jf_string(json_object *o, const char *at, const char *key, char **out, char *err,
	      size_t errlen);

/* "at.key: why" into err; returns -1. key may be NULL (the place is at). */
int jf_bad(char *err, size_t errlen, const char *at, const char *key, const char *why);

#endif
