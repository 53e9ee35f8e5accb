// SPDX-License-Identifier: GPL-2.0
/* iomatrix plan --json: valid JSON with every cell, its settings and the estimate. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <json-c/json.h>

#include "check.h"
#include "matrix/commands.h"

/* Runs cmd_plan with stdout into a file; returns its exit status. */
static int run_plan(char **argv, int argc, const char *out)
{
	int saved = dup(1), fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600), rc;

	fflush(stdout);
	dup2(fd, 1);
	close(fd);
	rc = cmd_plan(argc, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	return rc;
}

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

static void test_json_of_seed002_on_two_disks(void)
{
	char out[] = "/tmp/iomatrix-plan-XXXXXX";
	char *argv[] = {"plan", "matrix/seed002-writeback-dd.matrix", "--disks", "2", "--json",
			NULL};
	json_object *root, *cells, *c;
	int fd = mkstemp(out), skipped = 0;

	CHECK(fd >= 0);
	close(fd);
	CHECK_EQ_INT(run_plan(argv, 5, out), 0);
	root = json_object_from_file(out);
	unlink(out);
	CHECK(root != NULL);
	if (!root)
		return;
	CHECK_EQ_STR(json_object_get_string(get(root, "matrix")), "seed002-writeback-dd");
	CHECK_EQ_INT(json_object_get_int(get(root, "cell_count")), 45);
	CHECK(json_object_get_double(get(root, "scale")) == 0.005);
	cells = get(root, "cells");
	CHECK_EQ_INT(json_object_array_length(cells), 45);
	for (size_t i = 0; i < json_object_array_length(cells); i++) {
		c = json_object_array_get_idx(cells, i);
		CHECK_EQ_INT(json_object_get_int(get(c, "index")), i + 1);
		if (!strcmp(json_object_get_string(get(c, "status")), "skipped")) {
			skipped++;
			CHECK_EQ_STR(json_object_get_string(get(c, "skip")),
				     "raid5 needs 3 disks, 2 given");
			CHECK(json_object_get_type(get(c, "estimate_s")) == json_type_null);
		}
	}
	CHECK_EQ_INT(skipped, 15); /* every raid5 cell */
	c = json_object_array_get_idx(cells, 0);
	CHECK_EQ_STR(json_object_get_string(get(c, "key")), "workload=1dd fs=ext2 array=jbod");
	CHECK_EQ_STR(json_object_get_string(get(get(c, "dims"), "fs")), "ext2");
	CHECK_EQ_STR(json_object_get_string(get(get(c, "fs"), "mkfs_options")),
		     "-E lazy_itable_init=0,lazy_journal_init=0");
	CHECK_EQ_INT(json_object_get_int(get(get(c, "fs"), "count")), 2);
	CHECK_EQ_STR(json_object_get_string(get(get(c, "array"), "resync")), "assume-clean");
	CHECK_EQ_STR(json_object_get_string(get(get(c, "workload"), "kind")), "dd");
	CHECK_EQ_INT(json_object_get_int(get(get(c, "workload"), "writers")), 2);
	CHECK(json_object_get_double(get(get(c, "workload"), "runtime_s")) == 3);
	CHECK(json_object_get_double(get(c, "estimate_s")) > 3);
	CHECK(json_object_get_double(get(get(root, "estimate"), "total_s")) >
	      json_object_get_double(get(get(root, "estimate"), "boot_s")));
	CHECK_EQ_INT(json_object_get_int(get(get(root, "estimate"), "runs")), 30);
	json_object_put(root);
}

static void test_usage_errors(void)
{
	char out[] = "/tmp/iomatrix-plan-XXXXXX";
	char *none[] = {"plan", NULL};
	char *two[] = {"plan", "a", "b", NULL};
	char *bad_disks[] = {"plan", "quick", "--disks", "65", NULL};
	int fd = mkstemp(out);

	CHECK(fd >= 0);
	close(fd);
	CHECK_EQ_INT(run_plan(none, 1, out), 2);
	CHECK_EQ_INT(run_plan(two, 3, out), 2);
	CHECK_EQ_INT(run_plan(bad_disks, 4, out), 2);
	unlink(out);
}

int main(void)
{
	RUN_TEST(test_json_of_seed002_on_two_disks);
	RUN_TEST(test_usage_errors);
	CHECK_EXIT();
}
