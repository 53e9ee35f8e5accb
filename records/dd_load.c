// SPDX-License-Identifier: GPL-2.0
/* The dd workload's JSON into a struct dd_result; see dd_load.h. */
#include "records/dd_load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/errmsg.h"
#include "lib/json_fields.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct jf_field dd_fields[] = {
	{ "bs", JF_U64, offsetof(struct dd_result, bs) },
	{ "size_per_writer", JF_U64, offsetof(struct dd_result, size_per_writer) },
	{ "runtime_ms", JF_U64, offsetof(struct dd_result, runtime_ms) },
	{ "io_bytes", JF_U64, offsetof(struct dd_result, io_bytes) },
	{ "elapsed_ns", JF_U64, offsetof(struct dd_result, elapsed_ns) },
	{ "write_ns", JF_U64, offsetof(struct dd_result, write_ns) },
	{ "sync_ns", JF_U64, offsetof(struct dd_result, sync_ns) },
	{ "bw_bytes", JF_U64, offsetof(struct dd_result, bw_bytes) },
	{ "bw", JF_U64, offsetof(struct dd_result, bw) },
	{ "filesystems_synced", JF_U32, offsetof(struct dd_result, filesystems_synced) },
};

static const struct jf_field writer_fields[] = {
	{ "io_bytes", JF_U64, offsetof(struct dd_writer_result, io_bytes) },
	{ "elapsed_ns", JF_U64, offsetof(struct dd_writer_result, elapsed_ns) },
	{ "bw_bytes", JF_U64, offsetof(struct dd_writer_result, bw_bytes) },
	{ "error", JF_INT, offsetof(struct dd_writer_result, error) },
};

static int load_writers(json_object *o, struct dd_result *r, char *err, size_t errlen)
{
	json_object *a = jf_member(o, "per_writer"), *w = jf_member(o, "writers");
	uint32_t writers = 0;
	size_t n = 0;

	if (a && !json_object_is_type(a, json_type_array))
		return jf_bad(err, errlen, "", "per_writer", "not an array");
	if (a)
		n = json_object_array_length(a);
	if (w && jf_value(w, "", "writers", JF_U32, &writers, err, errlen))
		return -1;
	/* dd_report_normal prints one line per writer: the two must agree. */
	if (w && writers != n)
		return errmsg(err, errlen, "writers is %u, but per_writer lists %zu", writers, n);
	if (!n)
		return 0;
	r->per_writer = calloc(n, sizeof(*r->per_writer));
	if (!r->per_writer)
		return errmsg(err, errlen, "out of memory");
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(a, i);
		struct dd_writer_result *pw = &r->per_writer[i];
		char at[40];

		r->writers = (uint32_t)i + 1; /* a half-loaded writer is freed with the rest */
		snprintf(at, sizeof(at), "per_writer[%zu]", i);
		if (!json_object_is_type(e, json_type_object))
			return jf_bad(err, errlen, at, NULL, "not an object");
		if (jf_string(e, at, "file", &pw->file, err, errlen) ||
		    jf_load(e, at, writer_fields, N(writer_fields), pw, err, errlen))
			return -1;
		if (!pw->file && !(pw->file = strdup("")))
			return errmsg(err, errlen, "out of memory");
	}
	return 0;
}

int dd_load(json_object *o, struct dd_result *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	if (!json_object_is_type(o, json_type_object))
		return errmsg(err, errlen, "not a JSON object");
	if (jf_load(o, "", dd_fields, N(dd_fields), r, err, errlen) ||
	    jf_string(o, "", "directories", &r->directories, err, errlen) ||
	    jf_string(o, "", "error", &r->error, err, errlen) || load_writers(o, r, err, errlen))
		goto fail;
	if (!r->directories && !(r->directories = strdup(""))) {
		errmsg(err, errlen, "out of memory");
		goto fail;
	}
	return 0;
fail:
	dd_result_free(r);
	return -1;
}
