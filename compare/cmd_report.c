// SPDX-License-Identifier: GPL-2.0
/*
 * iomatrix report RESULT_SET: one run rendered. A summary per cell (status,
 * the mean of each metric over the repeats, its relative stddev, n) and,
 * with --full, every record's report as the runner printed it (fio's
 * normal output, or dd's), through report_full.c.
 *
 * iomatrix report FILE: the same report of one output file (fio's or
 * iomatrix-runner's JSON, a dd result, one record), for reading a result
 * made outside a result set beside fio's own text.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/byte_buf.h"
#include "lib/cli.h"
#include "compare/commands.h"
#include "compare/compare.h"
#include "compare/html_report.h"
#include "lib/json_out.h"
#include "compare/report_full.h"
#include "compare/svg.h"
#include "compare/table.h"
#include "compare/metric_format.h"

static const char *const format_names[] = { "text", "markdown", "json", "html", NULL };
enum { R_TEXT, R_MARKDOWN, R_JSON, R_HTML };

struct report_args {
	int format;
	const char *out;
	const char *metric;
	const char *where;
	bool full;
};

#define OFF(f) offsetof(struct report_args, f)

static const struct cli_opt report_opts[] = {
	{ .name = "format", .short_name = 'f', .kind = CLI_CHOICE, .offset = OFF(format),
	  .choices = format_names, .arg = "F",
	  .help = "output format" },
	{ .name = "output", .short_name = 'o', .kind = CLI_STRING, .offset = OFF(out),
	  .arg = "FILE",
	  .help = "write there, not to stdout" },
	{ .name = "metric", .short_name = 'm', .kind = CLI_STRING, .offset = OFF(metric),
	  .arg = "M,...",
	  .help = "metrics to show, or 'all' (default: as iomatrix compare)" },
	{ .name = "where", .short_name = 'w', .kind = CLI_STRING, .offset = OFF(where),
	  .arg = "DIM=V,...",
	  .help = "only cells with these values" },
	{ .name = "full", .kind = CLI_FLAG, .offset = OFF(full),
	  .help = "add every record's report as the runner printed it (text, markdown, html)" },
};

static const struct cli_cmd report_cmd = {
	.name = "report",
	.synopsis = "RESULT_SET|FILE",
	.about = "Renders one result set: per cell its status and, per metric, the mean over\n"
		 "the repeats (harmonic for rates), relative stddev and n. --full adds each\n"
		 "record's report as the runner printed it (fio's normal output, or dd's).\n"
		 "Given a FILE (fio's or iomatrix-runner's JSON output, a dd result, one\n"
		 "record), prints its report the same way.",
	.opts = report_opts,
	.nopts = sizeof(report_opts) / sizeof(report_opts[0]),
	.min_pos = 1,
	.max_pos = 1,
};

/* One metric of one cell over its ok repeats. */
struct cell_metric {
	const struct metric *m;
	size_t n;
	double vals[64];
	struct sample_stats st;
	double min, max;
};

static size_t cell_metrics(const struct rs_cell *c, const struct metric *const *ms, size_t nms,
			   struct cell_metric *out)
{
	size_t k = 0;

	for (size_t i = 0; i < nms; i++) {
		struct cell_metric *cm = &out[k];

		memset(cm, 0, sizeof(*cm));
		cm->m = ms[i];
		cm->min = INFINITY;
		cm->max = -INFINITY;
		for (size_t r = 0; r < c->nrecs && cm->n < 64; r++) {
			double v;

			if (!metric_get(ms[i], c->recs[r]->root, &v))
				continue;
			cm->vals[cm->n++] = v;
			cm->min = fmin(cm->min, v);
			cm->max = fmax(cm->max, v);
		}
		if (!cm->n)
			continue;
		stats_describe(cm->vals, cm->n, ms[i]->mean, &cm->st);
		k++;
	}
	return k;
}

/* "ok", or "3 ok, 2 timeout: <first error>". */
static void cell_status(const struct rs_cell *c, char *buf, size_t len)
{
	size_t counts[RS_STATUS_COUNT] = { 0 }, used = 0;
	const char *err = NULL;

	for (size_t r = 0; r < c->nrecs; r++) {
		counts[c->recs[r]->status]++;
		if (!err && c->recs[r]->error)
			err = c->recs[r]->error;
	}
	buf[0] = '\0';
	if (counts[RS_OK] == c->nrecs) {
		snprintf(buf, len, "ok");
		return;
	}
	for (int s = 0; s < RS_STATUS_COUNT && used < len; s++)
		if (counts[s])
			used += (size_t)snprintf(buf + used, len - used, "%s%zu %s",
						 used ? ", " : "", counts[s], rs_status_name(s));
	if (err && used < len)
		snprintf(buf + used, len - used, ": %s", err);
}

static void head_lines(const struct result_set *rs, char lines[][1024], size_t *n)
{
	const struct rs_manifest_counts *k = &rs->counts;

	*n = 0;
	snprintf(lines[(*n)++], 1024, "report %s: kernel %s, matrix %s, %zu cells, run %s, %s",
		 rs->label, rs->kernel_release ? rs->kernel_release : "?",
		 rs->matrix ? rs->matrix : "?", rs->ncells, rs->run_id ? rs->run_id : "?",
		 rs->path);
	snprintf(
		lines[(*n)++], 1024,
		"manifest: %ld ok, %ld failed, %ld timeout, %ld skipped, %ld crashed, %ld missing; "
		"%zu damaged record%s",
		k->ok, k->failed, k->timeout, k->skipped, k->crashed, k->missing, rs->ndamaged,
		rs->ndamaged == 1 ? "" : "s");
	for (size_t i = 0; i < rs->nwarnings && *n < 8; i++)
		snprintf(lines[(*n)++], 1024, "warning: %s", rs->warnings[i]);
	if (rs->nwarnings > 6)
		snprintf(lines[(*n)++], 1024, "warning: and %zu more unreadable records",
			 rs->nwarnings - 6);
}

struct report {
	const struct result_set *rs;
	const struct metric **ms;
	size_t nms;
	struct cmp_options sel; /* only the --where filters are used */
	bool full;
	int format;
};

static void fill_table(const struct report *r, struct table *t, bool key_column)
{
	struct cell_metric cms[CMP_MAX_METRICS];

	table_init(t);
	if (key_column)
		table_col(t, "cell", ALIGN_LEFT);
	table_col(t, "metric", ALIGN_LEFT);
	table_col(t, "mean", ALIGN_RIGHT);
	table_col(t, "rsd", ALIGN_RIGHT);
	table_col(t, "n", ALIGN_RIGHT);
	table_col(t, "min", ALIGN_RIGHT);
	table_col(t, "max", ALIGN_RIGHT);
	table_col(t, "status", ALIGN_LEFT);
	for (size_t i = 0; i < r->rs->ncells; i++) {
		const struct rs_cell *c = &r->rs->cells[i];
		size_t n;
		char status[512];

		if (!cmp_cell_selected(c, &r->sel))
			continue;
		n = cell_metrics(c, r->ms, r->nms, cms);
		cell_status(c, status, sizeof(status));
		if (!key_column)
			table_line(t, "%s", c->key);
		for (size_t k = 0; k < (n ? n : 1); k++) {
			size_t col = 0;
			char buf[3][32];

			table_row(t);
			if (key_column)
				table_set(t, col++, "%s", k ? "" : c->key);
			if (!n) {
				table_set(t, col, "%s-", key_column ? "" : "  ");
				table_set(t, col + 6, "%s", status);
				continue;
			}
			unit_format(buf[0], sizeof(buf[0]), cms[k].m->unit, cms[k].st.mean,
				    cms[k].st.mean);
			unit_format(buf[1], sizeof(buf[1]), cms[k].m->unit, cms[k].min,
				    cms[k].st.mean);
			unit_format(buf[2], sizeof(buf[2]), cms[k].m->unit, cms[k].max,
				    cms[k].st.mean);
			table_set(t, col++, "%s%s", key_column ? "" : "  ", cms[k].m->name);
			table_set(t, col++, "%s", buf[0]);
			table_set(t, col++, cms[k].n > 1 ? "%.1f%%" : "-", cms[k].st.rsd * 100);
			table_set(t, col++, "%zu", cms[k].n);
			table_set(t, col++, "%s", buf[1]);
			table_set(t, col++, "%s", buf[2]);
			table_set(t, col, "%s", k ? "" : status);
		}
	}
}

static int render_text(const struct report *r, FILE *f)
{
	char lines[10][1024];
	size_t n;
	struct table t;
	bool md = r->format == R_MARKDOWN;
	int rc;

	head_lines(r->rs, lines, &n);
	for (size_t i = 0; i < n; i++) {
		fputs(md ? (i ? "- " : "**") : "", f);
		if (md)
			md_escape(f, lines[i]);
		else
			fputs(lines[i], f);
		fputs(md && !i ? "**\n\n" : "\n", f);
	}
	fputc('\n', f);
	fill_table(r, &t, true);
	if (!md && table_text_width(&t) > 100) {
		table_free(&t);
		fill_table(r, &t, false);
	}
	rc = md ? table_print_markdown(&t, f) : table_print_text(&t, f, "");
	table_free(&t);
	if (!r->full)
		return rc;
	for (size_t i = 0; i < r->rs->ncells; i++) {
		const struct rs_cell *c = &r->rs->cells[i];

		if (!cmp_cell_selected(c, &r->sel))
			continue;
		fprintf(f, "\n%s%s%s\n", md ? "### " : "=== ", c->key, md ? "\n\n```" : "");
		for (size_t k = 0; k < c->nrecs; k++) {
			fputs(k ? "\n" : "", f);
			report_full_record(f, c->recs[k]);
		}
		if (md)
			fputs("```\n", f);
	}
	return rc;
}

static int render_json(const struct report *r, FILE *f)
{
	struct cell_metric cms[CMP_MAX_METRICS];
	struct jw j;

	jw_init(&j, f, true);
	jw_obj_begin(&j, NULL);
	jw_int(&j, "iomatrix_report", 1);
	jw_obj_begin(&j, "set");
	jw_str(&j, "label", r->rs->label);
	jw_str(&j, "path", r->rs->path);
	jw_str(&j, "run_id", r->rs->run_id);
	jw_str(&j, "matrix", r->rs->matrix);
	jw_str(&j, "kernel_release", r->rs->kernel_release);
	jw_obj_end(&j);
	jw_arr_begin(&j, "warnings");
	for (size_t i = 0; i < r->rs->nwarnings; i++)
		jw_str(&j, NULL, r->rs->warnings[i]);
	jw_arr_end(&j);
	jw_arr_begin(&j, "cells");
	for (size_t i = 0; i < r->rs->ncells; i++) {
		const struct rs_cell *c = &r->rs->cells[i];
		size_t n;
		char status[512];

		if (!cmp_cell_selected(c, &r->sel))
			continue;
		n = cell_metrics(c, r->ms, r->nms, cms);
		cell_status(c, status, sizeof(status));
		jw_obj_begin(&j, NULL);
		jw_str(&j, "key", c->key);
		jw_str(&j, "status", status);
		jw_int(&j, "records", (long long)c->nrecs);
		jw_arr_begin(&j, "metrics");
		for (size_t k = 0; k < n; k++) {
			jw_obj_begin(&j, NULL);
			jw_str(&j, "metric", cms[k].m->name);
			jw_str(&j, "unit", unit_base_name(cms[k].m->unit));
			jw_int(&j, "n", (long long)cms[k].n);
			jw_double(&j, "mean", cms[k].st.mean);
			jw_double(&j, "rsd_pct", cms[k].st.rsd * 100);
			jw_double(&j, "min", cms[k].min);
			jw_double(&j, "max", cms[k].max);
			jw_obj_end(&j);
		}
		jw_arr_end(&j);
		jw_obj_end(&j);
	}
	jw_arr_end(&j);
	jw_obj_end(&j);
	if (jw_end(&j))
		return -1;
	fputc('\n', f);
	return 0;
}

static int render_html(const struct report *r, FILE *f)
{
	char lines[10][1024], title[512];
	size_t n;
	struct table t;

	snprintf(title, sizeof(title), "iomatrix report: %s", r->rs->label);
	html_begin(f, title);
	head_lines(r->rs, lines, &n);
	fputs("<ul class=\"notes\">\n", f);
	for (size_t i = 0; i < n; i++)
		html_tag(f, "li", NULL, lines[i]);
	fputs("</ul>\n<table>\n<tr>", f);
	fill_table(r, &t, true);
	for (size_t c = 0; c < t.ncols; c++)
		html_tag(f, "th", NULL, t.head[c]);
	fputs("</tr>\n", f);
	for (size_t i = 0; i < t.nrows; i++) {
		fputs("<tr>", f);
		for (size_t c = 0; c < t.ncols; c++)
			html_tag(f, "td", c >= 2 && c <= 6 ? "n" : NULL,
				 t.rows[i].cells[c] ? t.rows[i].cells[c] : "");
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	table_free(&t);
	for (size_t i = 0; r->full && i < r->rs->ncells; i++) {
		const struct rs_cell *c = &r->rs->cells[i];
		char *buf = NULL;
		size_t len = 0;
		FILE *mem;

		if (!cmp_cell_selected(c, &r->sel))
			continue;
		mem = open_memstream(&buf, &len);
		if (!mem)
			return -1;
		for (size_t k = 0; k < c->nrecs; k++) {
			fputs(k ? "\n" : "", mem);
			report_full_record(mem, c->recs[k]);
		}
		if (fclose(mem)) {
			free(buf);
			return -1;
		}
		html_tag(f, "h3", NULL, c->key);
		html_tag(f, "pre", NULL, buf);
		free(buf);
	}
	html_end(f, "iomatrix report");
	return 0;
}

/* --output, or stdout; NULL (after a message) when it cannot be opened. */
static FILE *open_out(const char *path)
{
	FILE *out = path ? fopen(path, "w") : stdout;

	if (!out)
		perror(path);
	return out;
}

/* Closes what open_out opened; 0, or 2 when rendering (failed) or writing failed. */
static int close_out(FILE *out, const char *path, int failed)
{
	int rc = 0;

	if (failed || fflush(out) || ferror(out)) {
		fprintf(stderr, "iomatrix report: writing %s failed\n", path ? path : "stdout");
		rc = 2;
	}
	if (out != stdout && fclose(out)) {
		perror(path);
		rc = 2;
	}
	return rc;
}

/* fio's JSON output of a long json+ run is a few MB. */
#define MAX_OUTPUT_FILE (256u << 20)

/* iomatrix report FILE: one output file's report, as text. */
static int report_file(const struct report_args *a, const char *path)
{
	struct byte_buf b = { 0 };
	char err[1024];
	FILE *out;
	int rc = 2;

	if (a->format != R_TEXT || a->metric || a->where) {
		fprintf(stderr, "iomatrix report: %s is a file: --format, --metric and --where "
				"apply to result sets only\n",
			path);
		return 2;
	}
	if (byte_buf_read_file(&b, path, MAX_OUTPUT_FILE, err, sizeof(err))) {
		fprintf(stderr, "iomatrix report: %s\n", err);
		return 2;
	}
	out = open_out(a->out);
	if (out) {
		if (report_full_output(out, (const char *)b.data, b.len, err, sizeof(err)))
			fprintf(stderr, "iomatrix report: %s: %s\n", path, err);
		else
			rc = 0;
		rc = close_out(out, a->out, 0) ? 2 : rc;
	}
	byte_buf_free(&b);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = { 0 };
	struct result_set rs;
	struct report r = { 0 };
	struct cmp_filter *where = NULL;
	size_t npos, nwhere = 0;
	char *pos[1], err[1024];
	struct stat st;
	FILE *out;
	int rc = 2, prc = cli_parse(&report_cmd, argc, argv, &a, pos, &npos);

	if (prc)
		return prc > 0 ? 0 : 2;
	if (!stat(pos[0], &st) && !S_ISDIR(st.st_mode))
		return report_file(&a, pos[0]);
	if (a.metric && cmp_parse_metrics("report", a.metric, &r.ms, &r.nms))
		goto out_args;
	if (!a.metric) {
		r.ms = calloc(metric_count + 1, sizeof(*r.ms));
		for (size_t i = 0; r.ms && i < metric_count; i++)
			if (metric_table[i].by_default)
				r.ms[r.nms++] = &metric_table[i];
	}
	if (a.where && cmp_parse_where("report", a.where, &where, &nwhere))
		goto out_args;
	if (rs_load(pos[0], &rs, err, sizeof(err))) {
		fprintf(stderr, "iomatrix report: %s\n", err);
		goto out_args;
	}
	r.rs = &rs;
	r.sel.where = where;
	r.sel.nwhere = nwhere;
	r.full = a.full;
	r.format = a.format;
	out = open_out(a.out);
	if (out)
		rc = close_out(out, a.out,
			       (a.format == R_JSON   ? render_json
				: a.format == R_HTML ? render_html
						     : render_text)(&r, out));
	rs_free(&rs);
out_args:
	cmp_free_where(where, nwhere);
	free(r.ms);
	return rc;
}
