// SPDX-License-Identifier: GPL-2.0
/* Cell selections (iomatrix.cells=, plan --cells, exclude=): syntax, meaning, errors. */
#include "matrix/cell_select.h"
#include "check.h"
#include "matrix/matrix.h"

/* 2 x 3 x 2 = 12 cells, numbered in this order (the last dimension fastest). */
static const char text[] = "[dimensions]\n"
			   "array = jbod raid5\n"
			   "fs = ext4 xfs btrfs\n"
			   "workload = a b\n"
			   "[workload.a]\nwriters = 1\nsize = 1m\n"
			   "[workload.b]\nwriters = 2\nsize = 1m\n";

static struct matrix *m;
static struct cell_list cl;

/* The indices a selection picks, as "1 2 3", or the error. */
static void picked(const char *spec, char *out, size_t len)
{
	char err[MATRIX_ERR_LEN];
	struct cell_select *s = cell_select_parse(spec, m, true, err, sizeof(err));
	size_t n = 0;

	out[0] = '\0';
	if (!s) {
		snprintf(out, len, "error: %s", err);
		return;
	}
	for (int i = 0; i < cl.count; i++)
		if (cell_select_match(s, &cl.cells[i]))
			n += snprintf(out + n, len - n, "%s%d", n ? " " : "", cl.cells[i].index);
	cell_select_free(s);
}

static void test_selections(void)
{
	static const struct {
		const char *spec, *cells;
	} cases[] = {
		{"", "1 2 3 4 5 6 7 8 9 10 11 12"},
		{" , ", "1 2 3 4 5 6 7 8 9 10 11 12"},
		{"1-5,9", "1 2 3 4 5 9"},
		{"12", "12"},
		{"3-3", "3"},
		{"fs=ext4", "1 2 7 8"},
		{"fs=ext4,array=raid5", "7 8"},
		{"fs=ext4 array=raid5", "7 8"},
		{"fs=ext4,fs=xfs", "1 2 3 4 7 8 9 10"},
		{"fs!=xfs", "1 2 5 6 7 8 11 12"},
		{"fs!=xfs,fs!=btrfs", "1 2 7 8"},
		{"fs=ext4,fs!=ext4", ""},
		{"1-6,workload=b", "2 4 6"},
		{"10-12,1,array=raid5", "10 11 12"},
	};
	char got[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		picked(cases[i].spec, got, sizeof(got));
		if (strcmp(got, cases[i].cells))
			printf("# '%s'\n", cases[i].spec);
		CHECK_EQ_STR(got, cases[i].cells);
	}
}

static void test_errors(void)
{
	static const struct {
		const char *spec, *error;
	} cases[] = {
		{"13", "error: cell 13 does not exist (matrix t has 12 cells)"},
		{"0", "error: bad cell range '0' (cells count from 1, low to high)"},
		{"5-2", "error: bad cell range '5-2' (cells count from 1, low to high)"},
		{"1-", "error: bad cell range '1-' (want N or N-M)"},
		{"1x", "error: bad cell range '1x' (want N or N-M)"},
		{"9999999999", "error: bad cell range '9999999999' (want N or N-M)"},
		{"ext4",
		 "error: bad term 'ext4' (want N, N-M, dimension=value or dimension!=value)"},
		{"fs=zfs", "error: dimension fs has no value 'zfs' (values: ext4 xfs btrfs)"},
		{"disk=2",
		 "error: no dimension 'disk' in matrix t (dimensions: array fs workload)"},
		{"=ext4", "error: bad filter '=ext4' (want dimension=value or dimension!=value)"},
		{"fs=", "error: bad filter 'fs=' (want dimension=value or dimension!=value)"},
		{"!=x", "error: bad filter '!=x' (want dimension=value or dimension!=value)"},
	};
	char got[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		picked(cases[i].spec, got, sizeof(got));
		CHECK_EQ_STR(got, cases[i].error);
	}
}

static void test_rules_refuse_indices(void)
{
	char err[MATRIX_ERR_LEN];
	struct cell_select *s = cell_select_parse("fs=xfs,2", m, false, err, sizeof(err));

	CHECK(s == NULL);
	CHECK_EQ_STR(err, "'2': a rule takes dimension=value terms, not cell numbers");
	s = cell_select_parse("fs=xfs", m, false, err, sizeof(err));
	CHECK(s != NULL);
	CHECK(!cell_select_all(s));
	cell_select_free(s);
	s = cell_select_parse("", m, false, err, sizeof(err));
	CHECK(s != NULL && cell_select_all(s));
	cell_select_free(s);
}

int main(void)
{
	struct machine mc = {.ndisks = 4, .disk_bytes = {1 << 30, 1 << 30, 1 << 30, 1 << 30}};
	struct matrix_load_opts o = {0};
	char err[MATRIX_ERR_LEN];

	m = matrix_load_buffer("t.matrix", text, strlen(text), &o, err, sizeof(err));
	if (!m || matrix_expand(m, &mc, 1, &cl, err, sizeof(err))) {
		printf("not ok - setup: %s\n", err);
		return 1;
	}
	RUN_TEST(test_selections);
	RUN_TEST(test_errors);
	RUN_TEST(test_rules_refuse_indices);
	cell_list_free(&cl);
	matrix_free(m);
	CHECK_EXIT();
}
