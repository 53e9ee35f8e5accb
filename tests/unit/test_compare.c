// SPDX-License-Identifier: GPL-2.0
/* The comparison model: matching, verdicts, the head lines, outliers, filters. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "compare.h"

struct fixture_cell {
	const char *key;
	const char *status;
	int n;
	double bw[6];
};

static void write_set(char *dir, const char *matrix, const struct fixture_cell *cells, size_t nc)
{
	char path[256];
	FILE *f;
	int seq = 1;

	strcpy(dir, "/tmp/iomatrix-test-cmp.XXXXXX");
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/records", dir);
	CHECK(mkdir(path, 0755) == 0);
	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	f = fopen(path, "w");
	fprintf(f, "{\"iomatrix_result_set\":1,\"run_id\":\"%s\",\"matrix\":\"%s\","
		   "\"kernel\":{\"release\":\"k-%s\"}}",
		dir + 5, matrix, dir + 25);
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

static void test_verdicts(void)
{
	struct cmp_options o;
	struct pair p;
	const struct cmp_cell *c;
	char line[1024];

	cmp_options_default(&o);
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

int main(void)
{
	RUN_TEST(test_verdicts);
	RUN_TEST(test_filters);
	RUN_TEST(test_min_effect);
	RUN_TEST(test_outliers_reported_and_excluded);
	RUN_TEST(test_mismatch);
	RUN_TEST(test_parse_lists);
	CHECK_EXIT();
}
