// SPDX-License-Identifier: GPL-2.0
/*
 * The HTML report of a comparison: one self-contained file (inline CSS and
 * SVG, no scripts, nothing fetched) with the verdict and notes, the flagged
 * rows, bars with intervals per cell, curves along one dimension, latency
 * percentile curves, and every row in a collapsed table. The document is
 * also well-formed XML, so a plain XML parser can check it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp_report.h"
#include "compare/html_report.h"
#include "compare/svg.h"
#include "compare/svg_charts.h"
#include "compare/metric_format.h"

#define BARS_MAX_CELLS 40
#define CURVE_MAX_PANELS 24
#define PCTL_MAX_CELLS 6

static const char css[] =
	"body{font-family:sans-serif;margin:24px;color:#222;max-width:1200px}"
	"h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ccc}"
	"h3{font-size:15px}"
	"p.verdict{font-size:16px;font-weight:bold;padding:8px;background:#f3f3f3}"
	"p.verdict.worse{background:#fdecea}p.verdict.better{background:#edf7ed}"
	"ul.notes{font-size:13px}"
	"table{border-collapse:collapse;font-size:12px;margin:8px 0}"
	"th,td{border:1px solid #ddd;padding:2px 6px}td.n{text-align:right;font-family:monospace}"
	"th{background:#f3f3f3}tr.worse td.mark{color:#c62828;font-weight:bold}"
	"tr.better td.mark{color:#2e7d32;font-weight:bold}"
	".charts{display:flex;flex-wrap:wrap;gap:12px}"
	"svg{border:1px solid #eee;margin:4px 0}footer{margin-top:32px;font-size:11px;color:#666}";

void html_begin(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>", f);
	xml_escape(f, title);
	fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", css);
	xml_escape(f, title);
	fputs("</h1>\n", f);
}

void html_end(FILE *f, const char *footer)
{
	fputs("<footer>", f);
	xml_escape(f, footer);
	fputs("</footer>\n</body>\n</html>\n", f);
}

void html_tag(FILE *f, const char *tag, const char *cls, const char *text)
{
	fprintf(f, "<%s%s%s%s>", tag, cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	xml_escape(f, text);
	fprintf(f, "</%s>\n", tag);
}

static void td(FILE *f, const char *cls, const char *text)
{
	html_tag(f, "td", cls, text);
}

static void rows_table(FILE *f, const struct comparison *c, const struct view_dims *d,
		       const size_t *order, size_t n)
{
	static const char *const heads[] = { "cell", "metric", NULL, NULL, "change", "rsd b/n",
					     "n", "mark" };

	fputs("<table>\n<tr>", f);
	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++)
		html_tag(f, "th", NULL,
			 heads[i] ? heads[i]
			 : i == 2 ? c->base->label
				  : c->new->label);
	fputs("</tr>\n", f);
	for (size_t i = 0; i < n; i++) {
		const struct cmp_row *row = &c->rows[order[i]];
		const struct cmp_side *ref = row->base.st.n ? &row->base : &row->new;
		char key[512], buf[64];

		fprintf(f, "<tr class=\"%s\">",
			row->v == CMP_WORSE ? "worse" : row->v == CMP_BETTER ? "better" : "plain");
		view_short_key(d, &c->cells[row->cell], key, sizeof(key));
		td(f, NULL, key);
		td(f, NULL, row->m->name);
		unit_format(buf, sizeof(buf), row->m->unit, row->base.st.mean, ref->st.mean);
		td(f, "n", row->base.st.n ? buf : "-");
		unit_format(buf, sizeof(buf), row->m->unit, row->new.st.mean, ref->st.mean);
		td(f, "n", row->new.st.n ? buf : "-");
		view_change(row, buf, sizeof(buf));
		td(f, "n", buf);
		view_rsd(row, buf, sizeof(buf));
		td(f, "n", buf);
		view_n(row, buf, sizeof(buf));
		td(f, "n", buf);
		view_mark(c, row, buf, sizeof(buf));
		td(f, "mark", buf);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static int comparison_section(const struct cmp_report *r, const struct comparison *c,
			      const struct view_dims *d, FILE *f)
{
	struct head_line lines[VIEW_HEAD_MAX];
	size_t nl = view_head_lines(c, lines, VIEW_HEAD_MAX), *order, n, nflag = 0;
	char common[VIEW_LINE], h[512];

	snprintf(h, sizeof(h), "%s against %s", c->new->label, c->base->label);
	fputs("<section>\n", f);
	html_tag(f, "h2", NULL, h);
	html_tag(f, "p",
		 c->cells_by_verdict[CMP_WORSE]	   ? "verdict worse"
		 : c->cells_by_verdict[CMP_BETTER] ? "verdict better"
						   : "verdict",
		 lines[0].text);
	fputs("<ul class=\"notes\">\n", f);
	for (size_t i = 1; i < nl; i++)
		html_tag(f, "li", lines[i].kind, lines[i].text);
	view_common_line(d, common, sizeof(common));
	if (*common) {
		char line[VIEW_LINE + 16];

		snprintf(line, sizeof(line), "all cells: %s", common);
		html_tag(f, "li", NULL, line);
	}
	fputs("</ul>\n", f);

	n = view_rows(r, c, &order);
	if (!order)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (view_row_flagged(&c->rows[order[i]]))
			order[nflag++] = order[i];
	html_tag(f, "h3", NULL, "Flagged changes");
	if (nflag)
		rows_table(f, c, d, order, nflag);
	else
		html_tag(f, "p", NULL,
			 "No cell changed by more than the noise and the minimum effect.");
	free(order);

	html_tag(f, "h3", NULL,
		 "Each cell against the base (bars: means; whiskers: 95 % intervals)");
	for (size_t k = 0; k < metric_count; k++) {
		bool has = false;

		for (size_t i = 0; i < c->nrows && !has; i++)
			has = c->rows[i].m == &metric_table[k];
		if (has)
			svg_bars(f, c, d, &metric_table[k], BARS_MAX_CELLS);
	}

	n = view_rows(r, c, &order);
	if (!order)
		return -1;
	snprintf(h, sizeof(h), "All %zu rows", n);
	fputs("<details>\n", f);
	html_tag(f, "summary", NULL, h);
	rows_table(f, c, d, order, n);
	fputs("</details>\n</section>\n", f);
	free(order);
	return 0;
}

static int curves_section(const struct cmp_report *r, const struct view_dims *d, FILE *f)
{
	struct curve_set cs;
	char h[256];
	int rc = curve_build(r, d, &cs);

	if (rc)
		return rc < 0 ? -1 : 0;
	snprintf(h, sizeof(h), "Along %s, per kernel", cs.xdim);
	fputs("<section>\n", f);
	html_tag(f, "h2", NULL, h);
	if (cs.npanels > CURVE_MAX_PANELS) {
		snprintf(h, sizeof(h), "The first %d of %zu panels (--where narrows them).",
			 CURVE_MAX_PANELS, cs.npanels);
		html_tag(f, "p", NULL, h);
	}
	fputs("<div class=\"charts\">\n", f);
	for (size_t i = 0; i < cs.npanels && i < CURVE_MAX_PANELS; i++)
		svg_curve(f, &cs, &cs.panels[i]);
	fputs("</div>\n</section>\n", f);
	curve_free(&cs);
	return 0;
}

static int lat_interest(const struct comparison *c, const struct cmp_cell *cell)
{
	int score = 0;

	for (size_t i = cell->first_row; i < cell->first_row + cell->nrows; i++) {
		const struct cmp_row *row = &c->rows[i];

		if (view_row_flagged(row))
			score = strstr(row->m->name, "lat") ? 2 : score > 1 ? score : 1;
	}
	return score;
}

static void pctl_section(const struct cmp_report *r, const struct view_dims *d, FILE *f)
{
	const struct comparison *c0 = &r->cmps[0];
	size_t shown = 0;
	bool opened = false;

	/* Latency changes first, then other flagged cells, then the rest in matrix order. */
	for (int want = 2; want >= 0 && shown < PCTL_MAX_CELLS; want--) {
		for (size_t i = 0; i < c0->ncells && shown < PCTL_MAX_CELLS; i++) {
			const struct cmp_cell *cell = &c0->cells[i];
			const struct rs_cell *cells[8];
			const char *labels[8];
			size_t ns = 0;
			char key[512], title[600];
			bool drew = false;

			if (!cell->base || lat_interest(c0, cell) != want)
				continue;
			cells[ns] = cell->base;
			labels[ns++] = c0->base->label;
			for (size_t k = 0; k < r->ncmps && ns < 8; k++) {
				cells[ns] = rs_find_cell(r->cmps[k].new, cell->key);
				labels[ns++] = r->cmps[k].new->label;
			}
			view_short_key(d, cell, key, sizeof(key));
			for (int dir = 0; dir < 2; dir++) {
				const char *dn = dir ? "write" : "read";

				snprintf(title, sizeof(title), "%s: %s clat percentiles", key, dn);
				if (!opened) {
					fputs("<section>\n", f);
					html_tag(f, "h2", NULL, "Completion latency percentiles");
					fputs("<div class=\"charts\">\n", f);
					opened = true;
				}
				drew |= svg_pctl(f, title, dn, cells, labels, ns) == 0;
			}
			shown += drew;
		}
	}
	if (opened)
		fputs("</div>\n</section>\n", f);
}

int html_report_compare(const struct cmp_report *r, FILE *f)
{
	struct view_dims d;
	char title[512], method[VIEW_LINE];

	view_dims(r, &d);
	snprintf(title, sizeof(title), "iomatrix compare: %s against %s%s", r->cmps[0].new->label,
		 r->cmps[0].base->label, r->ncmps > 1 ? " and more" : "");
	html_begin(f, title);
	for (size_t k = 0; k < r->ncmps; k++)
		if (comparison_section(r, &r->cmps[k], &d, f))
			return -1;
	if (curves_section(r, &d, f))
		return -1;
	pctl_section(r, &d, f);
	cmp_method_line(&r->cmps[0], method, sizeof(method));
	html_end(f, method);
	return fflush(f) || ferror(f) ? -1 : 0;
}
