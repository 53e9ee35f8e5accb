// SPDX-License-Identifier: GPL-2.0
/* The comparison model: matching, verdicts, the head lines, outliers, filters. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "compare/compare.h"
#include "compare/rs_side.h"

struct fixture_cell {
	const char *key;
	const char *status;
	int n;
	double bw[6];
};

/* A result set in dir (made here) of one run of kernel release kernel. */
static void write_set_in(const char *dir, const char *matrix, const char *kernel,
			 const struct fixture_cell *cells, size_t nc)
{
	char path[256];
	FILE *f;
	int seq = 1;

	CHECK(mkdir(dir, 0755) == 0 || access(dir, F_OK) == 0);
	snprintf(path, sizeof(path), "%s/records", dir);
	CHECK(mkdir(path, 0755) == 0);
	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	f = fopen(path, "w");
	fprintf(f, "{\"iomatrix_result_set\":1,\"run_id\":\"%s\",\"matrix\":\"%s\","
		   "\"kernel\":{\"release\":\"%s\"}}",
		dir + 5, matrix, kernel);
	fclose(f);
	for (size_t c = 0; c < nc; c++) {
		for (int r = 0; r < cells[c].n; r++) {
			const char *st = cells[c].status ? cells[c].status : "ok";

			snprintf(path, sizeof(path), "%s/records/%06d.json", dir, seq);
			f = fopen(path, "w");
			fprintf(f,
				"{\"iomatrix_record\":1,\"seq\":%d,\"cell\":{\"index\":%zu,"
				"\"count\":%zu,"
				"\"key\":\"%s\"},\"repeat\":%d,\"status\":\"%s\",\"error\":%s,"
				"\"workload\":{\"kind\":\"dd\",\"dd\":{\"bw_bytes\":%.6f}}}",
				seq, c, nc, cells[c].key, r, st,
				strcmp(st, "ok") ? "\"mount: /dev/md0: timed out\"" : "null",
				cells[c].bw[r]);
			fclose(f);
			seq++;
		}
	}
}

/* A result set in a new temporary directory; its kernel's name is unique. */
static void write_set(char *dir, const char *matrix, const struct fixture_cell *cells, size_t nc)
{
	char kernel[64];

	strcpy(dir, "/tmp/iomatrix-test-cmp.XXXXXX");
	CHECK(mkdtemp(dir) != NULL);
	snprintf(kernel, sizeof(kernel), "k-%s", dir + 25);
	write_set_in(dir, matrix, kernel, cells, nc);
}

static void rm_set(const char *dir)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

static const struct fixture_cell base_cells[] = {
	{ "fs=ext4 wl=1dd", NULL, 5, { 100, 101, 99, 100.5, 99.5 } },
	{ "fs=ext4 wl=10dd", NULL, 5, { 200, 202, 198, 201, 199 } },
	{ "fs=xfs wl=1dd", NULL, 1, { 300 } },
	{ "fs=xfs wl=10dd", NULL, 5, { 400, 404, 396, 402, 398 } },
	{ "fs=btrfs wl=1dd", NULL, 5, { 500, 505, 495, 502, 498 } },
};

static const struct fixture_cell new_cells[] = {
	{ "fs=ext4 wl=1dd", NULL, 5, { 100.2, 100.8, 99.1, 100.4, 99.6 } },  /* same */
	{ "fs=ext4 wl=10dd", NULL, 5, { 160, 161.6, 158.4, 160.8, 159.2 } }, /* -20 % */
	{ "fs=xfs wl=1dd", NULL, 3, { 350, 351, 349 } },		      /* n=1 in base */
	{ "fs=btrfs wl=1dd", "timeout", 2, { 0, 0 } },			      /* failed */
	{ "fs=f2fs wl=1dd", NULL, 5, { 1, 1, 1, 1, 1 } },		      /* only in new */
};

struct pair {
	char a[64], b[64];
	struct result_set base, new;
	struct comparison c;
};

static void compare_pair(struct pair *p, const struct cmp_options *o)
{
	char err[256];

	write_set(p->a, "m", base_cells, 5);
	write_set(p->b, "m", new_cells, 5);
	CHECK(rs_load(p->a, &p->base, err, sizeof(err)) == 0);
	CHECK(rs_load(p->b, &p->new, err, sizeof(err)) == 0);
	CHECK(compare_sets(&p->base, &p->new, o, &p->c, err, sizeof(err)) == 0);
}

static void pair_free(struct pair *p)
{
	comparison_free(&p->c);
	rs_free(&p->base);
	rs_free(&p->new);
	rm_set(p->a);
	rm_set(p->b);
}

static const struct cmp_cell *cell(const struct comparison *c, const char *key)
{
	for (size_t i = 0; i < c->ncells; i++)
		if (!strcmp(c->cells[i].key, key))
			return &c->cells[i];
	return NULL;
}

/* The fixtures are one run a side, noise only per repeat: the repeat is their unit. */
static void test_verdicts(void)
{
	struct cmp_options o;
	struct pair p;
	const struct cmp_cell *c;
	char line[1024];

	cmp_options_default(&o);
	o.unit = CMP_UNIT_REPEAT;
	compare_pair(&p, &o);
	CHECK_EQ_INT(p.c.ncells, 6);
	CHECK_EQ_INT(cell(&p.c, "fs=ext4 wl=1dd")->v, CMP_UNCHANGED);
	c = cell(&p.c, "fs=ext4 wl=10dd");
	CHECK_EQ_INT(c->v, CMP_WORSE);
	CHECK(fabs(p.c.rows[c->first_row].change + 20) < 0.01);
	/* dd_bw is a rate: the mean of the repeats is harmonic. */
	CHECK(fabs(p.c.rows[c->first_row].base.st.mean -
		   5 / (1 / 200.0 + 1 / 202.0 + 1 / 198.0 + 1 / 201.0 + 1 / 199.0)) < 1e-9);
	CHECK_EQ_INT(cell(&p.c, "fs=xfs wl=1dd")->v, CMP_CANNOT_JUDGE);
	CHECK_EQ_INT(cell(&p.c, "fs=xfs wl=10dd")->v, CMP_MISSING);
	CHECK_EQ_INT(cell(&p.c, "fs=btrfs wl=1dd")->v, CMP_FAILED);
	CHECK_EQ_INT(cell(&p.c, "fs=f2fs wl=1dd")->v, CMP_MISSING);

	cmp_verdict_line(&p.c, line, sizeof(line));
	CHECK_EQ_STR(line, "verdict: 0 cells better, 1 worse, 1 unchanged, 4 not comparable "
			   "(1 n=1: cannot judge, 1 failed, 2 missing)");
	CHECK(cmp_missing_line(&p.c, true, line, sizeof(line)));
	CHECK(strstr(line, "missing in new k-") &&
	      strstr(line, ": 1 of 5 cells of the base have no record there: fs=xfs wl=10dd"));
	CHECK(cmp_missing_line(&p.c, false, line, sizeof(line)));
	CHECK(strstr(line, "missing in base k-") &&
	      strstr(line, ": 1 of 5 cells of the new have no record there: fs=f2fs wl=1dd"));
	CHECK(cmp_failed_line(&p.c, line, sizeof(line)));
	CHECK(strstr(line, "fs=btrfs wl=1dd (new: timeout: mount: /dev/md0: timed out)"));
	CHECK(cmp_repeats_line(&p.c, line, sizeof(line)));
	CHECK(strstr(line, "base 1-5") && strstr(line, "cannot be judged"));
	/* Same matrix name and size, same dimensions: nothing to say. */
	CHECK(!cmp_mismatch_line(&p.c, line, sizeof(line)));
	pair_free(&p);
}

static void test_filters(void)
{
	struct cmp_options o;
	struct cmp_filter w[] = { { "fs", "ext4" }, { "fs", "xfs" }, { "wl", "1dd" } };
	struct pair p;

	cmp_options_default(&o);
	o.where = w;
	o.nwhere = 3;
	compare_pair(&p, &o);
	/* fs in {ext4, xfs} and wl = 1dd. */
	CHECK_EQ_INT(p.c.ncells, 2);
	CHECK(cell(&p.c, "fs=ext4 wl=1dd") && cell(&p.c, "fs=xfs wl=1dd"));
	pair_free(&p);
}

static void test_min_effect(void)
{
	struct cmp_options o;
	struct pair p;

	cmp_options_default(&o);
	o.unit = CMP_UNIT_REPEAT;
	o.min_effect = 25;
	compare_pair(&p, &o);
	/* -20 % is certain but smaller than the minimum effect asked for. */
	CHECK_EQ_INT(cell(&p.c, "fs=ext4 wl=10dd")->v, CMP_UNCHANGED);
	pair_free(&p);
}

static void test_outliers_reported_and_excluded(void)
{
	static const struct fixture_cell a[] = {
		{ "k=1", NULL, 5, { 100, 101, 99, 100.5, 99.5 } },
	};
	static const struct fixture_cell b[] = {
		{ "k=1", NULL, 5, { 100.3, 100.9, 160, 99.4, 100.1 } },
	};
	char da[64], db[64], err[256], line[512];
	struct result_set ra, rb;
	struct comparison c;
	struct cmp_options o;

	write_set(da, "m", a, 1);
	write_set(db, "m", b, 1);
	CHECK(rs_load(da, &ra, err, sizeof(err)) == 0);
	CHECK(rs_load(db, &rb, err, sizeof(err)) == 0);
	cmp_options_default(&o);
	o.unit = CMP_UNIT_REPEAT;
	CHECK(compare_sets(&ra, &rb, &o, &c, err, sizeof(err)) == 0);
	CHECK_EQ_INT(c.noutliers, 1);
	CHECK(c.rows[0].new.outlier[2]);
	CHECK_EQ_INT(c.rows[0].new.st.n, 5);
	CHECK(cmp_outliers_line(&c, line, sizeof(line)) && strstr(line, "kept"));
	comparison_free(&c);
	o.exclude_outliers = true;
	CHECK(compare_sets(&ra, &rb, &o, &c, err, sizeof(err)) == 0);
	CHECK_EQ_INT(c.nexcluded, 1);
	CHECK_EQ_INT(c.rows[0].new.st.n, 4);
	CHECK(cmp_outliers_line(&c, line, sizeof(line)) && strstr(line, "1 left out"));
	comparison_free(&c);
	rs_free(&ra);
	rs_free(&rb);
	rm_set(da);
	rm_set(db);
}

static void test_mismatch(void)
{
	static const struct fixture_cell a[] = { { "fs=ext4", NULL, 2, { 1, 1 } } };
	static const struct fixture_cell b[] = { { "fs=ext4 disks=3", NULL, 2, { 1, 1 } } };
	char da[64], db[64], err[256], line[512];
	struct result_set ra, rb;
	struct comparison c;
	struct cmp_options o;

	write_set(da, "quick", a, 1);
	write_set(db, "quick-b", b, 1);
	CHECK(rs_load(da, &ra, err, sizeof(err)) == 0);
	CHECK(rs_load(db, &rb, err, sizeof(err)) == 0);
	cmp_options_default(&o);
	CHECK(compare_sets(&ra, &rb, &o, &c, err, sizeof(err)) == 0);
	CHECK(cmp_mismatch_line(&c, line, sizeof(line)));
	CHECK_EQ_STR(line,
		     "matrices differ: base is \"quick\" (1 cells), new is \"quick-b\" (1 cells); "
		     "dimension \"disks\" only in new");
	comparison_free(&c);
	rs_free(&ra);
	rs_free(&rb);
	rm_set(da);
	rm_set(db);
}

static void test_parse_lists(void)
{
	const struct metric **ms;
	struct cmp_filter *w;
	size_t n;

	CHECK(cmp_parse_metrics("t", "dd_bw,read_iops,dd_bw", &ms, &n) == 0);
	CHECK_EQ_INT(n, 2);
	CHECK_EQ_STR(ms[1]->name, "read_iops");
	free(ms);
	CHECK(cmp_parse_metrics("t", "all", &ms, &n) == 0);
	CHECK_EQ_INT(n, metric_count);
	free(ms);
	CHECK(cmp_parse_metrics("t", "bogus", &ms, &n) == -1);
	CHECK(cmp_parse_where("t", "fs=ext4,bs=4k", &w, &n) == 0);
	CHECK_EQ_INT(n, 2);
	CHECK_EQ_STR(w[1].dim, "bs");
	CHECK_EQ_STR(w[1].value, "4k");
	cmp_free_where(w, n);
	CHECK(cmp_parse_where("t", "fs", &w, &n) == -1);
}

/* --- sides of several runs (boots) ----------------------------------------- */

static const struct fixture_cell base_runs[3][2] = {
	{ { "fs=ext4 wl=1dd", NULL, 2, { 100, 104 } }, { "fs=xfs wl=1dd", NULL, 2, { 200, 190 } } },
	{ { "fs=ext4 wl=1dd", NULL, 2, { 92, 95 } }, { "fs=xfs wl=1dd", NULL, 2, { 210, 214 } } },
	{ { "fs=ext4 wl=1dd", NULL, 2, { 108, 110 } }, { "fs=xfs wl=1dd", NULL, 2, { 185, 188 } } },
};

static const struct fixture_cell new_runs[3][2] = {
	{ { "fs=ext4 wl=1dd", NULL, 2, { 97, 99 } }, { "fs=xfs wl=1dd", NULL, 2, { 140, 138 } } },
	{ { "fs=ext4 wl=1dd", NULL, 2, { 105, 103 } }, { "fs=xfs wl=1dd", NULL, 2, { 131, 135 } } },
	{ { "fs=ext4 wl=1dd", NULL, 2, { 94, 100 } }, { "fs=xfs wl=1dd", NULL, 2, { 146, 150 } } },
};

/* DIR/base-1..3 and DIR/new-1..3; *top is DIR. */
static void write_runs(char *top)
{
	char d[128];

	strcpy(top, "/tmp/iomatrix-test-runs.XXXXXX");
	CHECK(mkdtemp(top) != NULL);
	for (int r = 0; r < 3; r++) {
		snprintf(d, sizeof(d), "%s/base-%d", top, r + 1);
		write_set_in(d, "m", "6.1.0-a", base_runs[r], 2);
		snprintf(d, sizeof(d), "%s/new-%d", top, r + 1);
		write_set_in(d, "m", "6.1.0-a", new_runs[r], 2);
	}
}

static void load_side(const char *top, const char *name, int nruns, struct result_set *rs)
{
	char spec[512] = "", err[512];
	size_t len = 0;

	for (int r = 1; r <= nruns; r++)
		len += (size_t)snprintf(spec + len, sizeof(spec) - len, "%s%s/%s-%d", r > 1 ? "," : "",
					top, name, r);
	CHECK(rs_side_load(spec, rs, err, sizeof(err)) == 0);
}

static const struct cmp_row *row_of(const struct comparison *c, const char *key)
{
	const struct cmp_cell *cl = cell(c, key);

	return cl && cl->nrows ? &c->rows[cl->first_row] : NULL;
}

static double hmean2(double a, double b)
{
	return 2 / (1 / a + 1 / b);
}

static void test_run_unit(void)
{
	char top[64], err[256], line[1024];
	struct result_set b, n;
	struct comparison c;
	struct cmp_options o;
	const struct cmp_row *row;
	double ss = 0;

	write_runs(top);
	load_side(top, "base", 3, &b);
	load_side(top, "new", 3, &n);
	CHECK_EQ_INT(b.nruns, 3);
	CHECK_EQ_INT(b.ncells, 2);
	CHECK_EQ_INT(b.cells[0].nrecs, 6);
	CHECK_EQ_INT(b.cells[0].recs[5]->run, 2);
	CHECK_EQ_INT(b.cells[0].recs[5]->repeat, 1);
	cmp_options_default(&o);
	CHECK(compare_sets(&b, &n, &o, &c, err, sizeof(err)) == 0);
	CHECK_EQ_INT(c.unit, CMP_UNIT_RUN);
	row = row_of(&c, "fs=ext4 wl=1dd");
	CHECK(row != NULL);
	if (row) {
		/* One value per run: the harmonic mean of its repeats (dd_bw is a rate). */
		CHECK_EQ_INT(row->base.nall, 3);
		CHECK_EQ_INT(row->base.st.n, 3);
		CHECK_EQ_INT(row->base.nraw, 6);
		CHECK(fabs(row->base.vals[0] - hmean2(100, 104)) < 1e-9);
		CHECK(fabs(row->base.vals[2] - hmean2(108, 110)) < 1e-9);
		CHECK_EQ_INT(row->base.runs[1], 1);
		CHECK_EQ_INT(row->base.repeats[1], -1);
		/* The spread within runs: each run's rsd, pooled with weight n - 1 = 1. */
		for (int r = 0; r < 3; r++) {
			double x = base_runs[r][0].bw[0], y = base_runs[r][0].bw[1], m = (x + y) / 2;
			double sd = sqrt((x - m) * (x - m) + (y - m) * (y - m));

			ss += (sd / m) * (sd / m);
		}
		CHECK(fabs(row->base.within_rsd - sqrt(ss / 3)) < 1e-12);
		CHECK(row->tested && row->t.df == 4);
	}
	CHECK_EQ_INT(cell(&c, "fs=ext4 wl=1dd")->v, CMP_UNCHANGED);
	CHECK_EQ_INT(cell(&c, "fs=xfs wl=1dd")->v, CMP_WORSE);
	CHECK(cmp_unit_line(&c, 0, line, sizeof(line)) &&
	      !strncmp(line, "unit: the run (boot): one value per run", 39));
	CHECK(!cmp_unit_line(&c, 1, line, sizeof(line)));
	CHECK(cmp_repeats_line(&c, line, sizeof(line)));
	CHECK_EQ_STR(line, "runs per cell: base 3, new 3; repeats per run: base 2, new 2");
	CHECK(cmp_has_within(&c));
	comparison_free(&c);

	/* --unit repeat: the six repeats of a side are one sample. */
	o.unit = CMP_UNIT_REPEAT;
	CHECK(compare_sets(&b, &n, &o, &c, err, sizeof(err)) == 0);
	row = row_of(&c, "fs=ext4 wl=1dd");
	CHECK(row && row->base.nall == 6 && row->base.repeats[5] == 1 && row->base.runs[5] == 2);
	CHECK(cmp_repeats_line(&c, line, sizeof(line)));
	CHECK_EQ_STR(line, "repeats per cell: base 6, new 6 (from base 3 runs, new 3 runs)");
	CHECK(cmp_unit_line(&c, 0, line, sizeof(line)) &&
	      !strncmp(line, "unit: the repeat (--unit repeat)", 32));
	comparison_free(&c);
	rs_free(&b);
	rs_free(&n);
	rm_set(top);
}

static void test_one_boot(void)
{
	char top[64], err[256], line[1024];
	struct result_set b, n;
	struct comparison c;
	struct cmp_options o;

	write_runs(top);
	load_side(top, "base", 1, &b);
	load_side(top, "new", 1, &n);
	CHECK_EQ_INT(b.nruns, 1);
	cmp_options_default(&o);
	CHECK(compare_sets(&b, &n, &o, &c, err, sizeof(err)) == 0);
	/* Between boots nothing is measured: nothing is judged, however large the change. */
	CHECK_EQ_INT(c.cells_by_verdict[CMP_CANNOT_JUDGE], 2);
	CHECK_EQ_INT(c.ntests, 0);
	CHECK(cmp_unit_line(&c, 0, line, sizeof(line)));
	CHECK_EQ_STR(line, "one boot a side: the noise between boots is unknown, so no cell is "
			   "judged; boot each kernel 3+ times");
	CHECK(cmp_unit_line(&c, 1, line, sizeof(line)) && strstr(line, "base-1,base-2,base-3"));
	comparison_free(&c);
	rs_free(&n);

	/* Three against one: still nothing, and the line names the side. */
	load_side(top, "new", 3, &n);
	CHECK(compare_sets(&n, &b, &o, &c, err, sizeof(err)) == 0);
	CHECK_EQ_INT(c.cells_by_verdict[CMP_CANNOT_JUDGE], 2);
	CHECK(cmp_unit_line(&c, 0, line, sizeof(line)) &&
	      !strcmp(line, "one boot of new (base: 3 runs): no cell is judged without the noise "
			    "between boots; boot new 3+ times"));
	comparison_free(&c);

	rs_free(&n);

	/* --unit repeat judges the one boot's repeats, with a warning. */
	load_side(top, "new", 1, &n);
	o.unit = CMP_UNIT_REPEAT;
	CHECK(compare_sets(&b, &n, &o, &c, err, sizeof(err)) == 0);
	CHECK_EQ_INT(c.ntests, 2);
	CHECK_EQ_INT(c.cells_by_verdict[CMP_CANNOT_JUDGE], 0);
	CHECK(cmp_unit_line(&c, 0, line, sizeof(line)) &&
	      !strncmp(line, "warning: --unit repeat with one boot a side: ", 45));
	CHECK(cmp_unit_line(&c, 1, line, sizeof(line)));
	comparison_free(&c);
	rs_free(&b);
	rs_free(&n);
	rm_set(top);
}

static void test_side_forms(void)
{
	static const struct fixture_cell other[] = { { "fs=ext4 wl=1dd", NULL, 2, { 1, 2 } } };
	char top[64], spec[512], err[512], *name;
	struct result_set s;

	write_runs(top);
	/* A directory of result sets: its subdirectories, in name order. */
	snprintf(spec, sizeof(spec), "%s", top);
	CHECK(rs_side_load(spec, &s, err, sizeof(err)) == 0);
	CHECK_EQ_INT(s.nruns, 6);
	CHECK(s.nruns == 6 && strstr(s.runs[0].path, "/base-1") && strstr(s.runs[5].path, "/new-3"));
	name = rs_side_name(&s);
	CHECK_EQ_STR(name, top + 5);
	free(name);
	rs_free(&s);

	snprintf(spec, sizeof(spec), "%s/base-1,%s/base-2", top, top);
	CHECK(rs_side_load(spec, &s, err, sizeof(err)) == 0);
	name = rs_side_name(&s);
	CHECK_EQ_STR(name, "base");
	free(name);
	CHECK_EQ_STR(s.label, "6.1.0-a");
	CHECK_EQ_INT(s.nwarnings, 0);
	rs_free(&s);

	/* Runs of another kernel: one warning. Of another matrix: refused. */
	snprintf(spec, sizeof(spec), "%s/k2", top);
	write_set_in(spec, "m", "6.2.0-b", base_runs[0], 2);
	snprintf(spec, sizeof(spec), "%s/base-1,%s/k2", top, top);
	CHECK(rs_side_load(spec, &s, err, sizeof(err)) == 0);
	CHECK(s.nwarnings == 1 && strstr(s.warnings[0], "runs of different kernels, compared as one"));
	rs_free(&s);
	snprintf(spec, sizeof(spec), "%s/m2", top);
	write_set_in(spec, "m2", "6.1.0-a", other, 1);
	snprintf(spec, sizeof(spec), "%s/base-1,%s/m2", top, top);
	CHECK(rs_side_load(spec, &s, err, sizeof(err)) == -1);
	CHECK(strstr(err, "m2 is matrix \"m2\" (1 cells)") &&
	      strstr(err, "the runs of one side must run one matrix"));
	snprintf(spec, sizeof(spec), "%s/base-1,", top);
	CHECK(rs_side_load(spec, &s, err, sizeof(err)) == -1);
	CHECK_EQ_STR(err, "an empty path between commas");
	rm_set(top);
}

int main(void)
{
	RUN_TEST(test_verdicts);
	RUN_TEST(test_filters);
	RUN_TEST(test_min_effect);
	RUN_TEST(test_outliers_reported_and_excluded);
	RUN_TEST(test_mismatch);
	RUN_TEST(test_parse_lists);
	RUN_TEST(test_run_unit);
	RUN_TEST(test_one_boot);
	RUN_TEST(test_side_forms);
	CHECK_EXIT();
}
