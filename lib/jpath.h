/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small typed look-ups in json-c trees by dotted path ("workload.dd.bw_bytes").
 * Each returns false (and leaves *out alone) when a step is missing, null or
 * of the wrong type, so callers can tell "absent" from a value.
 */
#ifndef IOMATRIX_LIB_JPATH_H
#define IOMATRIX_LIB_JPATH_H

#include <stdbool.h>

#include <json-c/json.h>

json_object *jpath(json_object *o, const char *path);
bool jpath_str(json_object *o, const char *path, const char **out);
bool jpath_int(json_object *o, const char *path, long long *out);
/* Accepts integers and doubles; rejects non-finite values. */
bool jpath_double(json_object *o, const char *path, double *out);

#endif
