// SPDX-License-Identifier: GPL-2.0
/* Merging sources into a result set: agreement, damage, gaps, runs, cells, writing. */
#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "records/rs_builder.h"
#include "records/rs_builder_impl.h"
#include "synth_record.h"

static char err[RSB_ERR_LEN];
static struct synth_run run = {"run-a", "quick", "6.1.0", 4};

static void add(struct rs_builder *rs, int src, uint32_t seq, const struct synth_run *r)
{
	size_t len;
	char *rec = synth_record(r, seq, seq == 3 ? "failed" : "ok", 500, &len);

	CHECK_EQ_INT(rsb_add_record(rs, src, seq, rec, len), 0);
	free(rec);
}

/* A result set from two sources holding records first..last (both). */
static struct rs_builder *two_sources(uint32_t last)
{
	struct rs_builder *rs = rsb_new();
	int a = rsb_add_source(rs, "serial.log", RSB_SERIAL);
	int b = rsb_add_source(rs, "results.img", RSB_LOG);

	CHECK_EQ_INT(rsb_source_set_log(rs, b, "run-a", 1700000000), 0);
	for (uint32_t s = 1; s <= last; s++) {
		add(rs, a, s, &run);
		add(rs, b, s, &run);
	}
	return rs;
}

static void test_sources_agree(void)
{
	struct rs_builder *rs = two_sources(8);

	CHECK_EQ_INT(rsb_build(rs, NULL, err, sizeof(err)), 0);
	CHECK_EQ_INT(rs->nrecords, 8);
	CHECK_EQ_INT(rs->disagree.n, 0);
	CHECK_EQ_INT(rs->cell_count, 4);
	CHECK_EQ_INT(rs->repeats, 2);
	CHECK_EQ_INT(rs->nmissing, 0);
	CHECK_EQ_INT(rs->counts[RECORD_OK], 7);
	CHECK_EQ_INT(rs->counts[RECORD_FAILED], 1);
	CHECK(!rsb_incomplete(rs));
	CHECK_EQ_STR(rs->matrix, "quick");
	rsb_free(rs);
}

/* Damaged in one source, intact in the other: recovered, not damaged. */
static void test_damage_covered_by_other_source(void)
{
	struct rs_builder *rs = rsb_new();
	int a = rsb_add_source(rs, "serial.log", RSB_SERIAL);
	int b = rsb_add_source(rs, "results.img", RSB_LOG);

	CHECK_EQ_INT(rsb_source_set_log(rs, b, "run-a", 0), 0);
	for (uint32_t s = 1; s <= 4; s++) {
		if (s == 2)
			CHECK_EQ_INT(rsb_add_damaged(rs, a, s, "cut"), 0);
		else
			add(rs, a, s, &run);
		if (s != 3)
			add(rs, b, s, &run);
	}
	CHECK_EQ_INT(rsb_build(rs, NULL, err, sizeof(err)), 0);
	CHECK_EQ_INT(rs->nrecords, 4);
	CHECK_EQ_INT(rs->damaged.n, 0);
	CHECK(!rsb_incomplete(rs));
	rsb_free(rs);
}

static void test_damaged_lost_missing(void)
{
	struct rs_builder *rs = rsb_new();
	int a = rsb_add_source(rs, "serial.log", RSB_SERIAL);

	/* 8 cells (4 x 2 repeats): 2 damaged, 3-4 never seen, 7-8 never written */
	add(rs, a, 1, &run);
	CHECK_EQ_INT(rsb_add_damaged(rs, a, 2, "lines missing"), 0);
	add(rs, a, 5, &run);
	add(rs, a, 6, &run);
	CHECK_EQ_INT(rsb_build(rs, NULL, err, sizeof(err)), 0);
	CHECK_EQ_INT(rs->damaged.n, 1);
	CHECK_EQ_INT(rs->damaged.v[0], 2);
	CHECK_EQ_INT(rs->lost.n, 2);
	CHECK_EQ_INT(rs->lost.v[0], 3);
	CHECK_EQ_INT(rs->lost.v[1], 4);
	/* repeat 0: cells 1-3 missing; repeat 1: cells 2-3 */
	CHECK_EQ_INT(rs->nmissing, 5);
	CHECK(rsb_incomplete(rs));
	rsb_free(rs);
}

static void test_disagreement(void)
{
	struct rs_builder *rs = two_sources(3);
	size_t len;
	char *other = synth_record(&run, 4, "ok", 500, &len), *changed;

	add(rs, 0, 4, &run);
	changed = strdup(other);
	changed[len / 2] = changed[len / 2] == ' ' ? '\n' : ' ';
	CHECK_EQ_INT(rsb_add_record(rs, 1, 4, changed, len), 0);
	CHECK_EQ_INT(rsb_build(rs, NULL, err, sizeof(err)), 0);
	CHECK_EQ_INT(rs->disagree.n, 1);
	CHECK_EQ_INT(rs->disagree.v[0], 4);
	CHECK(rsb_incomplete(rs));
	/* the first input's copy is kept */
	CHECK(rs->records[3].copy->len == len && !memcmp(rs->records[3].copy->data, other, len));
	free(other);
	free(changed);
	rsb_free(rs);
}

static void test_invalid_records(void)
{
	static const char *const bad[] = {
		"{\"iomatrix_record\":1", /* cut */
		"[1,2]",
		"{\"iomatrix_record\":1,\"run_id\":\"run-a\"}",
		"{\"iomatrix_record\":1,\"run_id\":\"run-a\",\"seq\":99,\"matrix\":\"q\",\"cell\":"
		"{\"index\":1,\"count\":1},\"repeat\":0,\"status\":\"ok\",\"kernel\":{}}",
		"{\"iomatrix_record\":1,\"run_id\":\"run-a\",\"seq\":6,\"matrix\":\"q\",\"cell\":"
		"{\"index\":1,\"count\":1},\"repeat\":0,\"status\":\"great\",\"kernel\":{}}",
		"{\"iomatrix_record\":1,\"run_id\":\"run-a\",\"seq\":7,\"matrix\":\"q\",\"cell\":"
		"{\"index\":2,\"count\":1},\"repeat\":0,\"status\":\"ok\",\"kernel\":{}}",
		/* cells are numbered from 1, as iomatrix plan and iomatrix.cells= do */
		"{\"iomatrix_record\":1,\"run_id\":\"run-a\",\"seq\":8,\"matrix\":\"q\",\"cell\":"
		"{\"index\":0,\"count\":1},\"repeat\":0,\"status\":\"ok\",\"kernel\":{}}",
		"{\"iomatrix_record\":1,\"run_id\":\"run-a\",\"seq\":9,\"matrix\":\"q\",\"cell\":"
		"{\"index\":1,\"count\":1},\"repeat\":0,\"status\":\"ok\",\"kernel\":{}} x",
	};
	struct rs_builder *rs = rsb_new();
	int a = rsb_add_source(rs, "serial.log", RSB_SERIAL);

	add(rs, a, 1, &run);
	for (uint32_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_EQ_INT(rsb_add_record(rs, a, 2 + i, bad[i], strlen(bad[i])), 0);
	add(rs, a, 10, &run);
	CHECK_EQ_INT(rsb_build(rs, NULL, err, sizeof(err)), 0);
	CHECK_EQ_INT(rs->nrecords, 2);
	CHECK_EQ_INT(rs->invalid.n, sizeof(bad) / sizeof(bad[0]));
	CHECK_EQ_INT(rs->lost.n, 0);
	for (size_t i = 0; i < rs->ncopies; i++)
		if (rs->copies[i].seq == 5)
			CHECK(rs->copies[i].invalid &&
			      strstr(rs->copies[i].invalid, "frame says 5"));
		else if (rs->copies[i].seq == 8)
			CHECK(rs->copies[i].invalid &&
			      strstr(rs->copies[i].invalid, "cell.index 0 not within"));
	rsb_free(rs);
}

static void test_several_runs(void)
{
	struct synth_run other = {"run-b", "quick", "6.2.0", 4};
	struct rs_builder *rs = two_sources(2);

	add(rs, 0, 1, &other);
	add(rs, 0, 2, &other);
	add(rs, 0, 3, &other);
	CHECK_EQ_INT(rsb_build(rs, NULL, err, sizeof(err)), -1);
	CHECK(strstr(err, "2 runs") && strstr(err, "run-a (2 records)") &&
	      strstr(err, "run-b (3 records)"));
	rsb_free(rs);

	rs = two_sources(2);
	add(rs, 0, 1, &other);
	add(rs, 0, 3, &other);
	CHECK_EQ_INT(rsb_build(rs, "run-b", err, sizeof(err)), 0);
	CHECK_EQ_INT(rs->nrecords, 2);
	CHECK_EQ_INT(rs->disagree.n, 0); /* run-a's copies are another run, not a disagreement */
	CHECK_EQ_INT(rs->lost.n, 1);	 /* seq 2 of run-b */
	rsb_free(rs);

	rs = two_sources(2);
	CHECK_EQ_INT(rsb_build(rs, "run-z", err, sizeof(err)), -1);
	CHECK(strstr(err, "run-z"));
	rsb_free(rs);
}

static void test_nothing_valid(void)
{
	struct rs_builder *rs = rsb_new();
	int a = rsb_add_source(rs, "serial.log", RSB_SERIAL);

	CHECK_EQ_INT(rsb_add_damaged(rs, a, 1, "cut"), 0);
	CHECK_EQ_INT(rsb_build(rs, NULL, err, sizeof(err)), -1);
	CHECK(strstr(err, "no valid record"));
	rsb_free(rs);
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static void test_write_all_or_nothing(void)
{
	char base[] = "/tmp/iomatrix-test-rs-XXXXXX", out[256], path[512];
	struct rs_builder *rs = two_sources(5);

	CHECK(mkdtemp(base));
	snprintf(out, sizeof(out), "%s/set", base);
	CHECK_EQ_INT(rsb_build(rs, NULL, err, sizeof(err)), 0);
	CHECK_EQ_INT(rsb_write(rs, out, false, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/records", out);
	CHECK_EQ_INT(count_entries(path), 5);
	snprintf(path, sizeof(path), "%s/records/000003.json", out);
	CHECK(!access(path, R_OK));
	/* exists: refused without force, replaced with it */
	CHECK_EQ_INT(rsb_write(rs, out, false, err, sizeof(err)), -1);
	CHECK(strstr(err, "exists"));
	CHECK_EQ_INT(rsb_write(rs, out, true, err, sizeof(err)), 0);
	CHECK_EQ_INT(count_entries(base), 1); /* no temporary left behind */
	/* a directory that is not a result set is never replaced */
	snprintf(path, sizeof(path), "%s/set/notes.txt", base);
	fclose(fopen(path, "w"));
	CHECK_EQ_INT(rsb_write(rs, out, true, err, sizeof(err)), -1);
	CHECK(strstr(err, "not a result set"));
	CHECK(!access(path, F_OK));
	unlink(path);
	/* an unwritable place: nothing half-written stays */
	CHECK_EQ_INT(rsb_write(rs, "/proc/iomatrix-set", false, err, sizeof(err)), -1);
	rsb_free(rs);
	snprintf(path, sizeof(path), "rm -rf '%s'", base);
	CHECK_EQ_INT(system(path), 0);
}

int main(void)
{
	RUN_TEST(test_sources_agree);
	RUN_TEST(test_damage_covered_by_other_source);
	RUN_TEST(test_damaged_lost_missing);
	RUN_TEST(test_disagreement);
	RUN_TEST(test_invalid_records);
	RUN_TEST(test_several_runs);
	RUN_TEST(test_nothing_valid);
	RUN_TEST(test_write_all_or_nothing);
	CHECK_EXIT();
}
