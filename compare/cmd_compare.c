// SPDX-License-Identifier: GPL-2.0
/*
 * iomatrix compare BASE NEW [NEW...]: result sets from two or more kernels,
 * cell by cell; what changed and whether the change is bigger than the
 * noise. Each side may be several runs (boots) of its kernel: rs_side.c
 * loads them. The statistics are in compare.c and cmp_stats.c, the formats
 * in cmp_*.c and html_report.c; this file is the command line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cli.h"
#include "compare/cmp_report.h"
#include "compare/commands.h"
#include "compare/metric_format.h"
#include "compare/rs_side.h"

#define MAX_SETS 8

static const char *const format_names[] = { "text", "markdown", "csv", "json", "html", NULL };
static const char *const layout_names[] = { "auto", "rows", "seed000", "seed002", "curve", NULL };
static const char *const sort_names[] = { "key", "change", NULL };
static const char *const adjust_names[] = { "bh", "holm", NULL };
/* In the order of enum cmp_unit. */
static const char *const unit_names[] = { "auto", "run", "repeat", NULL };

struct compare_args {
	int format;
	int layout;
	int sort;
	int adjust;
	int unit;
	const char *out;
	const char *metric;
	const char *where;
	const char *x;
	const char *versus;
	bool only_significant;
	bool exclude_outliers;
	double alpha;
	double min_effect;
};

#define OFF(f) offsetof(struct compare_args, f)

static const struct cli_opt compare_opts[] = {
	{ .name = "format", .short_name = 'f', .kind = CLI_CHOICE, .offset = OFF(format),
	  .choices = format_names, .arg = "F",
	  .help = "output format" },
	{ .name = "output", .short_name = 'o', .kind = CLI_STRING, .offset = OFF(out),
	  .arg = "FILE",
	  .help = "write there, not to stdout" },
	{ .name = "metric", .short_name = 'm', .kind = CLI_STRING, .offset = OFF(metric),
	  .arg = "M,...",
	  .help = "metrics to compare, or 'all' (default: those marked * in the list below)" },
	{ .name = "only-significant", .short_name = 's', .kind = CLI_FLAG,
	  .offset = OFF(only_significant),
	  .help = "show only flagged rows (better or worse)" },
	{ .name = "sort", .kind = CLI_CHOICE, .offset = OFF(sort), .choices = sort_names,
	  .arg = "S",
	  .help = "matrix order, or largest change first" },
	{ .name = "where", .short_name = 'w', .kind = CLI_STRING, .offset = OFF(where),
	  .arg = "DIM=V,...",
	  .help = "only cells with these values (one dimension given twice: either value)" },
	{ .name = "layout", .short_name = 'l', .kind = CLI_CHOICE, .offset = OFF(layout),
	  .choices = layout_names, .arg = "L",
	  .help = "text/markdown shape: auto is seed002 for dd-only sets, else rows" },
	{ .name = "x", .short_name = 'x', .kind = CLI_STRING, .offset = OFF(x), .arg = "DIM",
	  .help = "curve layout and charts: the dimension along x (default: the numeric one "
		  "with most values)" },
	{ .name = "versus", .kind = CLI_STRING, .offset = OFF(versus), .arg = "DIM=A,B[,C]",
	  .help = "one result set: compare its cells with DIM=A against those with DIM=B (seed "
		  "004)" },
	{ .name = "alpha", .short_name = 'a', .kind = CLI_DOUBLE, .offset = OFF(alpha), .min = 1e-9,
	  .max = 0.5, .arg = "A",
	  .help = "the error rate --adjust controls, per comparison (default 0.05)" },
	{ .name = "adjust", .kind = CLI_CHOICE, .offset = OFF(adjust), .choices = adjust_names,
	  .arg = "M",
	  .help = "multiple tests: false discovery rate (bh, default) or family-wise error "
		  "(holm)" },
	{ .name = "min-effect", .short_name = 'e', .kind = CLI_DOUBLE, .offset = OFF(min_effect),
	  .max = 1000, .arg = "PCT",
	  .help = "smallest |change| in % that is flagged (default 3)" },
	{ .name = "exclude-outliers", .kind = CLI_FLAG, .offset = OFF(exclude_outliers),
	  .help = "leave outliers out of means and tests (reported either way)" },
	{ .name = "unit", .short_name = 'u', .kind = CLI_CHOICE, .offset = OFF(unit),
	  .choices = unit_names, .arg = "U",
	  .help = "what one value of a side is: run (a boot: its mean over its repeats), "
		  "repeat, or auto (run; repeat for --versus of one run)" },
};

static const struct cli_cmd compare_cmd = {
	.name = "compare",
	.synopsis = "BASE[,BASE...] NEW[,NEW...] [NEW...]  |  SET[,SET...] --versus DIM=A,B",
	.about = "Compares result sets cell by cell (matched by cell.key). A side is one result\n"
		 "set or several boots of one kernel: paths joined by commas, or a directory\n"
		 "whose subdirectories are result sets (base/1 base/2 ...). A kernel comparison is\n"
		 "between boots, so the unit is the run: a cell's value per run is its mean over\n"
		 "the run's repeats (harmonic for rates), n = runs, and the repeats' spread within\n"
		 "runs is shown (wrsd), not tested. One run on a side: the noise between boots is\n"
		 "unknown and no cell is judged; boot each kernel 3 times or more (qemu/ab-boots\n"
		 "alternates them) and give the runs:\n"
		 "  iomatrix compare base-1,base-2,base-3 new-1,new-2,new-3\n"
		 "--unit repeat tests every repeat as one value instead (the old way); on one\n"
		 "boot a side it warns: repeats in one boot underestimate the noise between boots.\n"
		 "Per cell and metric: mean, relative stddev, n, % change, and a verdict: flagged\n"
		 "only when a t-test on log values (variances moderated across the cells),\n"
		 "adjusted for the number of tests, is below --alpha and |change| is at least\n"
		 "--min-effect. n=1 on a side: 'n=1: cannot judge'.\n"
		 "The first line is the verdict. Exit status: 0, 1 when a cell got worse, 2 on "
		 "errors.\n"
		 "docs/compare.md explains the output and the statistics.",
	.opts = compare_opts,
	.nopts = sizeof(compare_opts) / sizeof(compare_opts[0]),
	.min_pos = 1,
	.max_pos = MAX_SETS,
};

static void list_metrics(FILE *f)
{
	fprintf(f, "\nmetrics (* compared by default):\n");
	for (size_t i = 0; i < metric_count; i++)
		fprintf(f, "  %c %-17s %-6s %s is better; %s\n",
			metric_table[i].by_default ? '*' : ' ', metric_table[i].name,
			unit_base_name(metric_table[i].unit),
			metric_table[i].better == BETTER_HIGHER ? "higher" : "lower",
			metric_table[i].from);
}

static bool labels_clash(const struct result_set *sets, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (!strcmp(sets[i].label, sets[j].label))
				return true;
	return false;
}

static void relabel(struct result_set *rs, char *label)
{
	if (!label)
		return;
	free(rs->label);
	rs->label = label;
}

/*
 * Equal labels (an A/A run on one kernel) would make columns ambiguous: use
 * the directories, and when those agree too, the positions.
 */
static void unique_labels(struct result_set *sets, size_t n)
{
	if (!labels_clash(sets, n))
		return;
	for (size_t i = 0; i < n; i++)
		relabel(&sets[i], rs_side_name(&sets[i]));
	if (!labels_clash(sets, n))
		return;
	for (size_t i = 0; i < n; i++) {
		char name[32];

		if (i < 2)
			snprintf(name, sizeof(name), "%s", i ? "new" : "base");
		else
			snprintf(name, sizeof(name), "new%zu", i);
		relabel(&sets[i], strdup(name));
	}
}

/* --versus DIM=A,B: the views of one set, one per value. */
static int load_versus(const char *spec, struct result_set *whole, struct result_set *sets,
		       size_t *nsets)
{
	char *copy = strdup(spec), *eq = copy ? strchr(copy, '=') : NULL, *save = NULL;
	char err[512];

	*nsets = 0;
	if (!eq || eq == copy) {
		fprintf(stderr, "iomatrix compare: --versus %s: not DIM=A,B\n", spec);
		free(copy);
		return -1;
	}
	*eq = '\0';
	for (char *v = strtok_r(eq + 1, ",", &save); v; v = strtok_r(NULL, ",", &save)) {
		if (*nsets == MAX_SETS ||
		    rs_view_by_dim(whole, copy, v, &sets[*nsets], err, sizeof(err))) {
			fprintf(stderr, "iomatrix compare: --versus: %s\n",
				*nsets == MAX_SETS ? "too many values" : err);
			free(copy);
			return -1;
		}
		(*nsets)++;
	}
	free(copy);
	if (*nsets < 2) {
		fprintf(stderr, "iomatrix compare: --versus %s: needs two values or more\n", spec);
		return -1;
	}
	return 0;
}

static int render(const struct cmp_report *r, FILE *f)
{
	switch (r->format) {
	case FMT_CSV: return cmp_render_csv(r, f);
	case FMT_JSON: return cmp_render_json(r, f);
	case FMT_HTML: return html_report_compare(r, f);
	default: return cmp_render_text(r, f);
	}
}

int cmd_compare(int argc, char **argv)
{
	struct compare_args a = { .alpha = CMP_DEFAULT_ALPHA,
				  .min_effect = CMP_DEFAULT_MIN_EFFECT };
	struct result_set whole, sets[MAX_SETS];
	struct comparison cmps[MAX_SETS];
	struct cmp_options opt;
	struct cmp_filter *where = NULL;
	const struct metric **metrics = NULL;
	size_t npos, nsets = 0, ncmps = 0, nwhere = 0;
	char *pos[MAX_SETS], err[1024];
	bool have_whole = false, worse = false;
	FILE *out = stdout;
	int rc = 2, prc;

	prc = cli_parse(&compare_cmd, argc, argv, &a, pos, &npos);
	if (prc) {
		if (prc > 0)
			list_metrics(stdout);
		return prc > 0 ? 0 : 2;
	}
	if (a.versus ? npos != 1 : npos < 2) {
		fprintf(stderr, "iomatrix compare: %s\n",
			a.versus ? "--versus takes one result set"
				 : "needs BASE and at least one NEW");
		return 2;
	}
	cmp_options_default(&opt);
	opt.alpha = a.alpha;
	opt.adjust = (enum cmp_adjust)a.adjust;
	opt.min_effect = a.min_effect;
	opt.exclude_outliers = a.exclude_outliers;
	opt.unit = (enum cmp_unit)a.unit;
	if (a.metric && cmp_parse_metrics("compare", a.metric, &metrics, &opt.nmetrics))
		return 2;
	opt.metrics = metrics;
	if (a.where && cmp_parse_where("compare", a.where, &where, &nwhere))
		goto out;
	opt.where = where;
	opt.nwhere = nwhere;
	if (a.versus) {
		if (rs_side_load(pos[0], &whole, err, sizeof(err))) {
			fprintf(stderr, "iomatrix compare: %s\n", err);
			goto out;
		}
		have_whole = true;
		if (load_versus(a.versus, &whole, sets, &nsets))
			goto out;
	} else {
		for (; nsets < npos; nsets++) {
			if (rs_side_load(pos[nsets], &sets[nsets], err, sizeof(err))) {
				fprintf(stderr, "iomatrix compare: %s: %s\n",
					nsets ? "new" : "base", err);
				goto out;
			}
		}
		unique_labels(sets, nsets);
	}
	for (; ncmps + 1 < nsets; ncmps++) {
		if (compare_sets(&sets[0], &sets[ncmps + 1], &opt, &cmps[ncmps], err,
				 sizeof(err))) {
			fprintf(stderr, "iomatrix compare: %s\n", err);
			goto out;
		}
		worse |= cmps[ncmps].cells_by_verdict[CMP_WORSE] > 0;
	}
	if (a.out && !(out = fopen(a.out, "w"))) {
		perror(a.out);
		goto out;
	}
	{
		struct cmp_report r = {
			.cmps = cmps, .ncmps = ncmps, .format = (enum out_format)a.format,
			.layout = (enum out_layout)a.layout, .sort = (enum out_sort)a.sort,
			.only_significant = a.only_significant, .metrics_chosen = metrics != NULL,
			.xdim = a.x,
		};

		if (render(&r, out)) {
			fprintf(stderr, "iomatrix compare: writing %s failed\n",
				a.out ? a.out : "stdout");
			goto out;
		}
	}
	rc = worse ? 1 : 0;
out:
	if (out != stdout && fclose(out)) {
		perror(a.out);
		rc = 2;
	}
	for (size_t i = 0; i < ncmps; i++)
		comparison_free(&cmps[i]);
	for (size_t i = 0; i < nsets; i++)
		rs_free(&sets[i]);
	if (have_whole)
		rs_free(&whole);
	cmp_free_where(where, nwhere);
	free(metrics);
	return rc;
}
