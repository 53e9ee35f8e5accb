// SPDX-License-Identifier: GPL-2.0
/* Typed members of json-c objects by table; see json_fields.h. */
#include "lib/json_fields.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/errmsg.h"

/* 9999-12-31 23:59:59 UTC: any later time_t breaks localtime in the reports. */
#define JF_LATEST_TIME 253402300799ULL

int jf_bad(char *err, size_t errlen, const char *at, const char *key, const char *why)
{
	return errmsg(err, errlen, "%s%s%s: %s", at, *at && key ? "." : "", key ? key : "", why);
}

json_object *jf_member(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

static int count_of(json_object *v, const char *at, const char *key, uint64_t *out, char *err,
		    size_t errlen)
{
	double d;

	switch (json_object_get_type(v)) {
	case json_type_int:
		/* json-c holds integers above INT64_MAX as uint64: get_int64 gives INT64_MAX. */
		if (json_object_get_int64(v) < 0)
			return jf_bad(err, errlen, at, key, "negative");
		*out = json_object_get_uint64(v);
		return 0;
	case json_type_double:
		d = json_object_get_double(v);
		if (!(d >= 0 && d < 18446744073709551616.0))
			return jf_bad(err, errlen, at, key, "not a count");
		*out = (uint64_t)d;
		return 0;
	default:
		return jf_bad(err, errlen, at, key, "not a number");
	}
}

int jf_value(json_object *v, const char *at, const char *key, enum jf_kind kind, void *out,
	     char *err, size_t errlen)
{
	uint64_t u = 0;
	int64_t i;
	double d;

	switch (kind) {
	case JF_DBL:
		if (!json_object_is_type(v, json_type_double) &&
		    !json_object_is_type(v, json_type_int))
			return jf_bad(err, errlen, at, key, "not a number");
		d = json_object_get_double(v);
		if (!isfinite(d))
			return jf_bad(err, errlen, at, key, "not a finite number");
		*(double *)out = d;
		return 0;
	case JF_BOOL:
		if (!json_object_is_type(v, json_type_boolean))
			return jf_bad(err, errlen, at, key, "not true or false");
		*(int *)out = json_object_get_boolean(v) ? 1 : 0;
		return 0;
	case JF_INT:
		if (!json_object_is_type(v, json_type_int))
			return jf_bad(err, errlen, at, key, "not an integer");
		i = json_object_get_int64(v);
		if (i < INT_MIN || i > INT_MAX)
			return jf_bad(err, errlen, at, key, "out of range");
		*(int *)out = (int)i;
		return 0;
	case JF_U64:
	case JF_U32:
	case JF_TIME:
		break;
	}
	if (count_of(v, at, key, &u, err, errlen))
		return -1;
	switch (kind) {
	case JF_U32:
		if (u > UINT32_MAX)
			return jf_bad(err, errlen, at, key, "out of range");
		*(uint32_t *)out = (uint32_t)u;
		break;
	case JF_TIME:
		if (u > JF_LATEST_TIME)
			return jf_bad(err, errlen, at, key, "not a time");
		*(time_t *)out = (time_t)u;
		break;
	default:
		*(uint64_t *)out = u;
		break;
	}
	return 0;
}

int jf_load(json_object *o, const char *at, const struct jf_field *f, size_t n, void *base,
	    char *err, size_t errlen)
{
	for (size_t i = 0; i < n; i++) {
		json_object *v = jf_member(o, f[i].key);

		if (v && jf_value(v, at, f[i].key, f[i].kind, (char *)base + f[i].off, err, errlen))
			return -1;
	}
	return 0;
}

int jf_string(json_object *o, const char *at, const char *key, char **out, char *err,
	      size_t errlen)
{
	json_object *v = jf_member(o, key);

	if (!v)
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return jf_bad(err, errlen, at, key, "not a string");
	free(*out);
	*out = strdup(json_object_get_string(v));
	return *out ? 0 : errmsg(err, errlen, "out of memory");
}
