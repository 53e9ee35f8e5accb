// SPDX-License-Identifier: GPL-2.0
/* The engine's reports of stored results; see report_full.h. */
#include "compare/report_full.h"

#include <string.h>

#include "records/dd_load.h"
#include "lib/errmsg.h"
#include "lib/jpath.h"
#include "records/jr_load.h"
#include "records/report.h"

static int print_fio(FILE *f, json_object *o, char *err, size_t errlen)
{
	struct jr_run r;
	int rc;

	if (jr_load(o, &r, err, errlen))
		return -1;
	rc = report_normal(f, &r);
	jr_run_free(&r);
	return rc ? errmsg(err, errlen, "writing the report failed") : 0;
}

static int print_dd(FILE *f, json_object *o, char *err, size_t errlen)
{
	struct dd_result r;
	int rc;

	if (dd_load(o, &r, err, errlen))
		return -1;
	rc = dd_report_normal(f, &r);
	dd_result_free(&r);
	return rc ? errmsg(err, errlen, "writing the report failed") : 0;
}

/* A record's workload.kind, the key its JSON is under, and who prints it. */
static const struct {
	const char *kind;
	const char *path;
	int (*print)(FILE *f, json_object *o, char *err, size_t errlen);
} kinds[] = {
	{ "fio", "workload.fio", print_fio },
	{ "dd", "workload.dd", print_dd },
};

int report_full_record(FILE *f, const struct rs_record *rec)
{
	char err[ERRMSG_LEN];

	fprintf(f, "repeat %d (seq %ld): %s%s%s\n", rec->repeat, rec->seq,
		rs_status_name(rec->status), rec->error ? ": " : "", rec->error ? rec->error : "");
	if (rec->status != RS_OK)
		return -1;
	for (size_t i = 0; rec->kind && i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		json_object *o;

		if (strcmp(rec->kind, kinds[i].kind))
			continue;
		o = jpath(rec->root, kinds[i].path);
		if (!o) {
			fprintf(f, "  no report: the record has no %s\n", kinds[i].path);
			return -1;
		}
		if (kinds[i].print(f, o, err, sizeof(err))) {
			fprintf(f, "  no report: %s: %s\n", kinds[i].path, err);
			return -1;
		}
		return 0;
	}
	fprintf(f, "  no report: workload.kind is %s%s%s, not fio or dd\n", rec->kind ? "\"" : "",
		rec->kind ? rec->kind : "missing", rec->kind ? "\"" : "");
	return -1;
}

int report_full_output(FILE *f, const char *text, size_t len, char *err, size_t errlen)
{
	json_object *root;
	size_t start, end;
	int rc;

	if (jr_parse_output(text, len, &root, &start, &end, err, errlen))
		return -1;
	if (jpath(root, "iomatrix_record")) {
		struct rs_record rec;

		json_object_put(root);
		if (rs_parse_record(text + start, end - start, &rec, err, errlen))
			return -1;
		report_full_record(f, &rec); /* a failed record says so in its first line */
		json_object_put(rec.root);
		return 0;
	}
	if (jpath(root, "jobs"))
		rc = print_fio(f, root, err, errlen);
	else if (jpath(root, "per_writer") || jpath(root, "writers"))
		rc = print_dd(f, root, err, errlen);
	else
		rc = errmsg(err, errlen,
			    "neither fio's JSON (\"jobs\"), a dd result (\"per_writer\") nor an "
			    "iomatrix record (\"iomatrix_record\")");
	json_object_put(root);
	return rc;
}
