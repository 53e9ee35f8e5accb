// SPDX-License-Identifier: GPL-2.0
/*
 * Comparisons as JSON, for scripts: every row with both sides' samples (a
 * value per run or per repeat), the repeats behind them, outlier marks, the
 * test's p and q, and the verdicts; the head lines as notes. Written with
 * the project's streaming writer (json_out.h).
 */
#include <math.h>
#include <stdlib.h>

#include "compare/cmp_view.h"
#include "lib/json_out.h"
#include "compare/metric_format.h"

static void set_obj(struct jw *j, const char *key, const struct result_set *rs)
{
	jw_obj_begin(j, key);
	jw_str(j, "label", rs->label);
	jw_str(j, "path", rs->path);
	jw_str(j, "run_id", rs->run_id);
	jw_str(j, "matrix", rs->matrix);
	jw_str(j, "kernel_release", rs->kernel_release);
	jw_int(j, "cells", (long long)rs->ncells);
	/* The runs (boots) of the side; rows' "runs" arrays index this list. */
	jw_arr_begin(j, "runs");
	for (size_t i = 0; i < rs->nruns; i++) {
		const struct result_set *run = rs->runs ? &rs->runs[i] : rs;

		jw_obj_begin(j, NULL);
		jw_str(j, "path", run->path);
		jw_str(j, "run_id", run->run_id);
		jw_str(j, "kernel_release", run->kernel_release);
		jw_str(j, "kernel_version", run->kernel_version);
		jw_obj_end(j);
		if (!rs->runs)
			break;
	}
	jw_arr_end(j);
	jw_obj_end(j);
}

static void int_array(struct jw *j, const char *key, const int *v, size_t n)
{
	jw_arr_begin(j, key);
	for (size_t i = 0; i < n; i++) {
		if (v[i] < 0)
			jw_null(j, NULL);
		else
			jw_int(j, NULL, v[i]);
	}
	jw_arr_end(j);
}

static void double_array(struct jw *j, const char *key, const double *v, size_t n)
{
	jw_arr_begin(j, key);
	for (size_t i = 0; i < n; i++)
		jw_double(j, NULL, v[i]);
	jw_arr_end(j);
}

static void side_obj(struct jw *j, const char *key, const struct cmp_side *s)
{
	jw_obj_begin(j, key);
	jw_int(j, "n", (long long)s->st.n);
	if (s->st.n) {
		jw_double(j, "mean", s->st.mean);
		jw_double(j, "rsd_pct", s->st.rsd * 100);
		jw_arr_begin(j, "ci95");
		jw_double(j, NULL, s->st.ci_lo);
		jw_double(j, NULL, s->st.ci_hi);
		jw_arr_end(j);
	} else {
		jw_null(j, "mean");
	}
	if (isfinite(s->within_rsd))
		jw_double(j, "within_run_rsd_pct", s->within_rsd * 100);
	else
		jw_null(j, "within_run_rsd_pct");
	/* The sample: one value per unit; a run's mean has repeat null. */
	double_array(j, "values", s->vals, s->nall);
	int_array(j, "runs", s->runs, s->nall);
	int_array(j, "repeats", s->repeats, s->nall);
	jw_arr_begin(j, "outliers");
	for (size_t i = 0; i < s->nall; i++)
		if (s->outlier[i])
			jw_int(j, NULL, (long long)i);
	jw_arr_end(j);
	/* Every ok repeat behind the sample. */
	jw_obj_begin(j, "repeat_values");
	double_array(j, "values", s->raw, s->nraw);
	int_array(j, "runs", s->raw_runs, s->nraw);
	int_array(j, "repeats", s->raw_repeats, s->nraw);
	jw_obj_end(j);
	jw_obj_end(j);
}

static void row_obj(struct jw *j, const struct comparison *c, const struct cmp_row *row)
{
	const struct cmp_cell *cell = &c->cells[row->cell];
	const struct rs_cell *rc = cell->base ? cell->base : cell->new;

	jw_obj_begin(j, NULL);
	jw_str(j, "key", cell->key);
	jw_obj_begin(j, "dims");
	for (size_t i = 0; rc && i < rc->ndims; i++)
		jw_str(j, rc->dims[i].name, rc->dims[i].value);
	jw_obj_end(j);
	jw_str(j, "metric", row->m->name);
	jw_str(j, "unit", unit_base_name(row->m->unit));
	jw_str(j, "better", row->m->better == BETTER_HIGHER ? "higher" : "lower");
	side_obj(j, "base", &row->base);
	side_obj(j, "new", &row->new);
	if (row->base.st.n && row->new.st.n && isfinite(row->change))
		jw_double(j, "change_pct", row->change);
	else
		jw_null(j, "change_pct");
	if (row->tested) {
		jw_double(j, "p", row->t.p);
		jw_double(j, "q", row->q);
		jw_bool(j, "on_logs", row->t.on_logs);
		jw_double(j, "df", row->t.df);
		/* The smallest |change| this row could have flagged: the resolution line's rows. */
		jw_double(j, "detectable_pct", row->detectable);
	} else {
		jw_null(j, "p");
		jw_null(j, "q");
	}
	jw_str(j, "verdict", cmp_verdict_name(row->v));
	jw_str(j, "cell_verdict", cmp_verdict_name(cell->v));
	jw_obj_end(j);
}

static int comparison_obj(struct jw *j, const struct cmp_report *r, const struct comparison *c)
{
	struct head_line lines[VIEW_HEAD_MAX];
	size_t nl = view_head_lines(c, lines, VIEW_HEAD_MAX), *order, n;
	const size_t *v = c->cells_by_verdict;

	jw_obj_begin(j, NULL);
	set_obj(j, "base", c->base);
	set_obj(j, "new", c->new);
	jw_obj_begin(j, "verdict");
	jw_int(j, "better", (long long)v[CMP_BETTER]);
	jw_int(j, "worse", (long long)v[CMP_WORSE]);
	jw_int(j, "unchanged", (long long)v[CMP_UNCHANGED]);
	jw_int(j, "not_comparable", (long long)(v[CMP_CANNOT_JUDGE] + v[CMP_NO_DATA] +
						 v[CMP_FAILED] + v[CMP_MISSING]));
	jw_int(j, "cannot_judge", (long long)v[CMP_CANNOT_JUDGE]);
	jw_int(j, "one_side_only", (long long)v[CMP_NO_DATA]);
	jw_int(j, "failed", (long long)v[CMP_FAILED]);
	jw_int(j, "missing", (long long)v[CMP_MISSING]);
	jw_obj_end(j);
	jw_str(j, "unit", cmp_unit_name(c->unit));
	jw_int(j, "tests", (long long)c->ntests);
	jw_int(j, "outliers", (long long)c->noutliers);
	jw_int(j, "outliers_excluded", (long long)c->nexcluded);
	jw_arr_begin(j, "notes");
	for (size_t i = 0; i < nl; i++) {
		jw_obj_begin(j, NULL);
		jw_str(j, "kind", lines[i].kind);
		jw_str(j, "text", lines[i].text);
		jw_obj_end(j);
	}
	jw_arr_end(j);
	n = view_rows(r, c, &order);
	if (!order)
		return -1;
	jw_arr_begin(j, "rows");
	for (size_t i = 0; i < n; i++)
		row_obj(j, c, &c->rows[order[i]]);
	jw_arr_end(j);
	jw_obj_end(j);
	free(order);
	return 0;
}

int cmp_render_json(const struct cmp_report *r, FILE *f)
{
	const struct cmp_options *o = &r->cmps[0].opt;
	struct jw j;
	int rc = 0;

	jw_init(&j, f, true);
	jw_obj_begin(&j, NULL);
	jw_int(&j, "iomatrix_compare", 1);
	jw_obj_begin(&j, "method");
	jw_str(&j, "test", "moderated-t-on-logs");
	jw_str(&j, "adjust", o->adjust == ADJUST_HOLM ? "holm" : "benjamini-hochberg");
	jw_str(&j, "unit_asked", cmp_unit_name(o->unit));
	jw_double(&j, "alpha", o->alpha);
	jw_double(&j, "min_effect_pct", o->min_effect);
	jw_bool(&j, "exclude_outliers", o->exclude_outliers);
	jw_double(&j, "outlier_robust_sd", STATS_OUTLIER_K);
	jw_obj_end(&j);
	jw_arr_begin(&j, "comparisons");
	for (size_t k = 0; k < r->ncmps && rc == 0; k++)
		rc = comparison_obj(&j, r, &r->cmps[k]);
	jw_arr_end(&j);
	jw_obj_end(&j);
	if (jw_end(&j) || rc)
		return -1;
	fputc('\n', f);
	return fflush(f) || ferror(f) ? -1 : 0;
}
