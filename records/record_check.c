// SPDX-License-Identifier: GPL-2.0
/* Checking one record against docs/records.md; see record_check.h. */
#include "records/record_check.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

const char *const record_status_names[RECORD_NSTATUS] = {"ok", "failed", "timeout", "skipped",
							 "crashed"};

/* obj at a dotted path ("cell.index"), or NULL. */
json_object *record_get(json_object *obj, const char *path)
{
	char key[64];

	while (obj && *path) {
		size_t n = strcspn(path, ".");

		if (n >= sizeof(key))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		if (!json_object_is_type(obj, json_type_object) ||
		    !json_object_object_get_ex(obj, key, &obj))
			return NULL;
		path += n + (path[n] == '.');
	}
	return obj;
}

/* The keys the manifest needs, with their types (docs/records.md, "A record"). */
static const struct {
	const char *path;
	json_type type;
} required[] = {
	{"iomatrix_record", json_type_int},
	{"run_id", json_type_string},
	{"seq", json_type_int},
	{"matrix", json_type_string},
	{"cell.index", json_type_int},
	{"cell.count", json_type_int},
	{"repeat", json_type_int},
	{"status", json_type_string},
	{"kernel", json_type_object},
};

int record_status_index(const char *s)
{
	for (int i = 0; i < RECORD_NSTATUS; i++)
		if (!strcmp(s, record_status_names[i]))
			return i;
	return -1;
}

int64_t record_get_int(json_object *obj, const char *path)
{
	return json_object_get_int64(record_get(obj, path));
}

json_object *record_check(const void *data, size_t len, uint32_t seq, char *why, size_t whylen)
{
	struct json_tokener *tok = json_tokener_new();
	const unsigned char *text = data;
	enum json_tokener_error jerr;
	json_object *obj;
	size_t end;

	why[0] = '\0';
	if (!tok) {
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	obj = json_tokener_parse_ex(tok, data, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!obj || jerr != json_tokener_success) {
		snprintf(why, whylen, "not JSON: %s at byte %zu", json_tokener_error_desc(jerr),
			 end);
		json_object_put(obj);
		return NULL;
	}
	while (end < len && isspace(text[end]))
		end++;
	if (end < len)
		snprintf(why, whylen, "text after the JSON value at byte %zu", end);
	else if (!json_object_is_type(obj, json_type_object))
		snprintf(why, whylen, "not a JSON object");
	for (size_t i = 0; !*why && i < sizeof(required) / sizeof(required[0]); i++)
		if (!json_object_is_type(record_get(obj, required[i].path), required[i].type))
			snprintf(why, whylen, "key %s missing or not a %s", required[i].path,
				 json_type_to_name(required[i].type));
	if (*why)
		;
	else if (record_get_int(obj, "iomatrix_record") != 1)
		snprintf(why, whylen, "iomatrix_record %lld, this reader knows 1",
			 (long long)record_get_int(obj, "iomatrix_record"));
	else if (record_get_int(obj, "seq") != seq)
		snprintf(why, whylen, "record says seq %lld, its frame says %u",
			 (long long)record_get_int(obj, "seq"), seq);
	else if (!*json_object_get_string(record_get(obj, "run_id")))
		snprintf(why, whylen, "run_id empty");
	else if (record_get_int(obj, "cell.count") < 1 ||
		 record_get_int(obj, "cell.count") > UINT32_MAX ||
		 record_get_int(obj, "cell.index") < 1 ||
		 record_get_int(obj, "cell.index") > record_get_int(obj, "cell.count"))
		snprintf(why, whylen, "cell.index %lld not within 1..cell.count %lld",
			 (long long)record_get_int(obj, "cell.index"),
			 (long long)record_get_int(obj, "cell.count"));
	else if (record_get_int(obj, "repeat") < 0 || record_get_int(obj, "repeat") > UINT32_MAX)
		snprintf(why, whylen, "repeat %lld", (long long)record_get_int(obj, "repeat"));
	else if (record_status_index(json_object_get_string(record_get(obj, "status"))) < 0)
		snprintf(why, whylen, "status \"%s\" unknown",
			 json_object_get_string(record_get(obj, "status")));
	if (*why) {
		json_object_put(obj);
		return NULL;
	}
	return obj;
}
