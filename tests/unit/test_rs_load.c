// SPDX-License-Identifier: GPL-2.0
/* Loading result sets: manifest, records, cells, damage reported, views by dimension. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "records/rs_load.h"

static char dir[64];

static void put(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

static void record(int seq, int index, const char *key, int repeat, const char *status)
{
	char name[64], text[1024];

	snprintf(name, sizeof(name), "records/%06d.json", seq);
	snprintf(text, sizeof(text),
		 "{\"iomatrix_record\":1,\"seq\":%d,\"matrix\":\"t\","
		 "\"cell\":{\"index\":%d,\"count\":4,\"key\":\"%s\"},\"repeat\":%d,"
		 "\"status\":\"%s\",\"error\":%s,"
		 "\"workload\":{\"kind\":\"dd\",\"dd\":{\"bw_bytes\":%d}}}",
		 seq, index, key, repeat, status,
		 strcmp(status, "ok") ? "\"mkfs failed on md0\"" : "null", 1000 + seq);
	put(name, text);
}

static void make_set(void)
{
	char path[128];

	snprintf(dir, sizeof(dir), "/tmp/iomatrix-test-rs.XXXXXX");
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/records", dir);
	CHECK(mkdir(path, 0755) == 0);
	put("manifest.json", "{\"iomatrix_result_set\":1,\"run_id\":\"r1\",\"matrix\":\"t\","
			     "\"kernel\":{\"release\":\"6.1.0-test\",\"version\":\"#1\"},"
			     "\"counts\":{\"ok\":5,\"failed\":1,\"timeout\":0,\"skipped\":0,"
			     "\"crashed\":0,\"missing\":1},"
			     "\"damaged\":[9]}");
	/* Written out of order: cells are ordered by cell.index, repeats by repeat. */
	record(1, 1, "fs=xfs mode=b", 1, "ok");
	record(2, 1, "fs=xfs mode=b", 0, "ok");
	record(3, 0, "fs=ext4 mode=a", 0, "ok");
	record(4, 0, "fs=ext4 mode=a", 0, "ok");	/* the same repeat again */
	record(5, 2, "fs=ext4 mode=b", 0, "failed");
	record(6, 3, "fs=xfs mode=a", 0, "ok");
	put("records/000007.json", "{\"iomatrix_record\":1,\"cell\":{\"key\":");
	put("records/000008.json", "{\"iomatrix_record\":2}");
	put("records/notes.txt", "not a record");
}

static void remove_set(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

static bool has_warning(const struct result_set *rs, const char *part)
{
	for (size_t i = 0; i < rs->nwarnings; i++)
		if (strstr(rs->warnings[i], part))
			return true;
	return false;
}

static void test_load(void)
{
	struct result_set rs;
	char err[256];

	make_set();
	CHECK(rs_load(dir, &rs, err, sizeof(err)) == 0);
	CHECK_EQ_STR(rs.label, "6.1.0-test");
	CHECK_EQ_STR(rs.matrix, "t");
	CHECK_EQ_INT(rs.counts.missing, 1);
	CHECK_EQ_INT(rs.ndamaged, 1);
	CHECK_EQ_INT(rs.cell_count, 4);
	CHECK_EQ_INT(rs.ncells, 4);
	CHECK_EQ_STR(rs.cells[0].key, "fs=ext4 mode=a");
	CHECK_EQ_INT(rs.cells[0].nrecs, 1);
	CHECK_EQ_STR(rs.cells[1].key, "fs=xfs mode=b");
	CHECK_EQ_INT(rs.cells[1].nrecs, 2);
	CHECK_EQ_INT(rs.cells[1].recs[0]->repeat, 0);
	CHECK_EQ_INT(rs.cells[1].recs[1]->repeat, 1);
	CHECK_EQ_INT(rs.cells[2].recs[0]->status, RS_FAILED);
	CHECK_EQ_STR(rs.cells[2].recs[0]->error, "mkfs failed on md0");
	CHECK_EQ_STR(rs_cell_dim(&rs.cells[1], "fs"), "xfs");
	CHECK(rs_cell_dim(&rs.cells[1], "bs") == NULL);
	CHECK(rs_find_cell(&rs, "fs=xfs mode=a") == &rs.cells[3]);
	/* Every unreadable record is one warning naming the file and the cause. */
	CHECK_EQ_INT(rs.nwarnings, 3);
	CHECK(has_warning(&rs, "records/000007.json: not JSON"));
	CHECK(has_warning(&rs, "records/000008.json: record version 2"));
	CHECK(has_warning(&rs, "repeat 0 seen twice"));
	rs_free(&rs);
	remove_set();
}

static void test_view(void)
{
	struct result_set rs, a, b, none;
	char err[256];

	make_set();
	CHECK(rs_load(dir, &rs, err, sizeof(err)) == 0);
	CHECK(rs_view_by_dim(&rs, "mode", "a", &a, err, sizeof(err)) == 0);
	CHECK(rs_view_by_dim(&rs, "mode", "b", &b, err, sizeof(err)) == 0);
	CHECK_EQ_STR(a.label, "mode=a");
	CHECK_EQ_INT(a.ncells, 2);
	CHECK_EQ_STR(a.cells[0].key, "fs=ext4");
	CHECK(rs_find_cell(&b, "fs=xfs") != NULL);
	CHECK_EQ_INT(rs_find_cell(&b, "fs=xfs")->nrecs, 2);
	CHECK(rs_view_by_dim(&rs, "mode", "c", &none, err, sizeof(err)) == -1);
	CHECK(strstr(err, "no cell has mode=c") != NULL);
	rs_free(&a);
	rs_free(&b);
	rs_free(&rs);
	remove_set();
}

static void test_not_a_set(void)
{
	struct result_set rs;
	char err[256];

	make_set();
	put("manifest.json", "{\"iomatrix_result_set\":7}");
	CHECK(rs_load(dir, &rs, err, sizeof(err)) == -1);
	CHECK(strstr(err, "manifest.json") && strstr(err, "not a result set"));
	remove_set();
	CHECK(rs_load("/nonexistent/set", &rs, err, sizeof(err)) == -1);
	CHECK(strstr(err, "/nonexistent/set/manifest.json") != NULL);
}

static void test_keys(void)
{
	struct rs_dim *d;
	size_t n;

	CHECK(rs_parse_key("a=1 b=x=y  c=", &d, &n) == 0);
	CHECK_EQ_INT(n, 3);
	CHECK_EQ_STR(d[1].name, "b");
	CHECK_EQ_STR(d[1].value, "x=y");
	CHECK_EQ_STR(d[2].value, "");
	rs_free_dims(d, n);
	CHECK(rs_parse_key("a=1 junk", &d, &n) == -1);
	CHECK(rs_parse_key("=1", &d, &n) == -1);
	CHECK(rs_parse_key("", &d, &n) == 0 && n == 0);
	rs_free_dims(d, n);
}

int main(void)
{
	RUN_TEST(test_load);
	RUN_TEST(test_view);
	RUN_TEST(test_not_a_set);
	RUN_TEST(test_keys);
	CHECK_EXIT();
}
