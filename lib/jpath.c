// SPDX-License-Identifier: GPL-2.0
/* Typed look-ups by dotted path in json-c trees. */
#include <math.h>
#include <string.h>

#include "lib/jpath.h"

json_object *jpath(json_object *o, const char *path)
{
	char step[128];

	while (o && *path) {
		size_t len = strcspn(path, ".");

		if (len >= sizeof(step) || !json_object_is_type(o, json_type_object))
			return NULL;
		memcpy(step, path, len);
		step[len] = '\0';
		if (!json_object_object_get_ex(o, step, &o))
			return NULL;
		path += len;
		if (*path == '.')
			path++;
	}
	return o;
}

bool jpath_str(json_object *o, const char *path, const char **out)
{
	json_object *v = jpath(o, path);

	if (!v || !json_object_is_type(v, json_type_string))
		return false;
	*out = json_object_get_string(v);
	return true;
}

bool jpath_int(json_object *o, const char *path, long long *out)
{
	json_object *v = jpath(o, path);

	if (!v || !json_object_is_type(v, json_type_int))
		return false;
	*out = json_object_get_int64(v);
	return true;
}

bool jpath_double(json_object *o, const char *path, double *out)
{
	json_object *v = jpath(o, path);
	double d;

	if (!v || !(json_object_is_type(v, json_type_double) ||
		    json_object_is_type(v, json_type_int)))
		return false;
	d = json_object_get_double(v);
	if (!isfinite(d))
		return false;
	*out = d;
	return true;
}
