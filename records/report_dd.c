// SPDX-License-Identifier: GPL-2.0
/* The dd workload's JSON and human report; see dd_result.h. */
#include <stdlib.h>
#include <string.h>

#include "records/dd_result.h"
#include "lib/json_out.h"
#include "records/report.h"

int dd_report_json(FILE *f, const struct dd_result *r)
{
	struct jw j;

	jw_init(&j, f, true);
	jw_obj_begin(&j, NULL);
	jw_uint(&j, "writers", r->writers);
	jw_uint(&j, "bs", r->bs);
	jw_uint(&j, "size_per_writer", r->size_per_writer);
	jw_uint(&j, "runtime_ms", r->runtime_ms);
	jw_uint(&j, "io_bytes", r->io_bytes);
	jw_uint(&j, "elapsed_ns", r->elapsed_ns);
	jw_uint(&j, "write_ns", r->write_ns);
	jw_uint(&j, "sync_ns", r->sync_ns);
	jw_uint(&j, "bw_bytes", r->bw_bytes);
	jw_uint(&j, "bw", r->bw);
	jw_str(&j, "directories", r->directories);
	jw_uint(&j, "filesystems_synced", r->filesystems_synced);
	jw_str(&j, "error", r->error);
	jw_arr_begin(&j, "per_writer");
	for (uint32_t i = 0; i < r->writers; i++) {
		const struct dd_writer_result *w = &r->per_writer[i];

		jw_obj_begin(&j, NULL);
		jw_str(&j, "file", w->file);
		jw_uint(&j, "io_bytes", w->io_bytes);
		jw_uint(&j, "elapsed_ns", w->elapsed_ns);
		jw_uint(&j, "bw_bytes", w->bw_bytes);
		jw_int(&j, "error", w->error);
		jw_obj_end(&j);
	}
	jw_arr_end(&j);
	jw_obj_end(&j);
	return jw_end(&j) || ferror(f) ? -1 : 0;
}

int dd_report_normal(FILE *f, const struct dd_result *r)
{
	char bw[32], bwalt[32], io[32], ioalt[32], bs[32], size[32];

	report_num2str(bs, sizeof(bs), r->bs, 4, 1, 1, 0);
	report_num2str(bw, sizeof(bw), r->bw_bytes, 4, 1, 1, N2S_BYTEPERSEC);
	report_num2str(bwalt, sizeof(bwalt), r->bw_bytes, 4, 1, 0, N2S_BYTEPERSEC);
	report_num2str(io, sizeof(io), r->io_bytes, 4, 1, 1, N2S_BYTE);
	report_num2str(ioalt, sizeof(ioalt), r->io_bytes, 4, 1, 0, N2S_BYTE);
	if (r->size_per_writer)
		report_num2str(size, sizeof(size), r->size_per_writer, 4, 1, 1, N2S_BYTE);
	else
		snprintf(size, sizeof(size), "%llums", (unsigned long long)r->runtime_ms);
	fprintf(f, "dd: writers=%u, bs=%sB, %s=%s each, directory=%s\n", r->writers, bs,
		r->size_per_writer ? "size" : "runtime", size, r->directories);
	fprintf(f, "  WRITE: bw=%s (%s), io=%s (%s), run=%llumsec (writes %llumsec + sync %llumsec)\n",
		bw, bwalt, io, ioalt, (unsigned long long)(r->elapsed_ns / 1000000),
		(unsigned long long)(r->write_ns / 1000000), (unsigned long long)(r->sync_ns / 1000000));
	for (uint32_t i = 0; i < r->writers; i++) {
		const struct dd_writer_result *w = &r->per_writer[i];

		report_num2str(io, sizeof(io), w->io_bytes, 4, 1, 1, N2S_BYTE);
		report_num2str(bw, sizeof(bw), w->bw_bytes, 4, 1, 1, N2S_BYTEPERSEC);
		fprintf(f, "  writer %3u: %s: io=%s, bw=%s, run=%llumsec%s%s\n", i, w->file, io, bw,
			(unsigned long long)(w->elapsed_ns / 1000000), w->error ? ", error: " : "",
			w->error ? strerror(w->error) : "");
	}
	if (r->error)
		fprintf(f, "  error: %s\n", r->error);
	return ferror(f) ? -1 : 0;
}

struct dd_ctx {
	const struct dd_result *r;
	int json;
};

static int emit(FILE *f, const void *arg)
{
	const struct dd_ctx *c = arg;

	return c->json ? dd_report_json(f, c->r) : dd_report_normal(f, c->r);
}

int dd_report_write(const char *path, const struct dd_result *r, int json, char *err,
		    size_t errlen)
{
	struct dd_ctx c = { r, json };

	return report_atomic(path, emit, &c, err, errlen);
}

void dd_result_free(struct dd_result *r)
{
	if (r->per_writer)
		for (uint32_t i = 0; i < r->writers; i++)
			free(r->per_writer[i].file);
	free(r->per_writer);
	free(r->directories);
	free(r->error);
	memset(r, 0, sizeof(*r));
}
