// SPDX-License-Identifier: GPL-2.0
/*
 * The shipped matrices (every matrix/NAME.matrix): each loads, expands to its study's
 * cell count, runs whole at its default scale on the test machine (4 x 1 GiB
 * disks, 2 GiB), and keeps the study's sizes at scale 1. The README's example
 * loads and expands as the README says. Runs from the top of the tree, as
 * tests/run does.
 */
#include <dirent.h>
#include <stdlib.h>

#include "check.h"
#include "matrix/matrix.h"

#define GiB (1024ULL * 1024 * 1024)

static const struct shipped {
	const char *name;
	int cells, runs;
	const char *dims;	  /* the dimensions, in order */
	double scale;		  /* its default scale */
	const char *first, *last; /* the first and last cell keys */
} shipped[] = {
	{"quick", 22, 22, "array fs workload", 1, "array=jbod fs=ext2 workload=dd",
	 "array=raid6 fs=ext4 workload=fio"},
	{"seed000-ext4-dio-randrw", 2 * 5, 10, "engine bs", 0.005, "engine=psync bs=4k",
	 "engine=libaio bs=1M"},
	{"seed001-uring-buffered-qd", 4 * 8, 32, "readahead iodepth", 0.05, "readahead=0 iodepth=1",
	 "readahead=256 iodepth=128"},
	{"seed002-writeback-dd", 3 * 5 * 3, 45, "workload fs array", 0.005,
	 "workload=1dd fs=ext2 array=jbod", "workload=100dd fs=xfs array=raid5"},
	{"seed003-btrfs-seqread", 2, 2, "size", 0.1, "size=1G", "size=2G"},
	{"seed004-ext4-dioread-nolock", (3 * 2 - 1) * 3 * 2, 90, "workload bs numjobs mount", 0.005,
	 "workload=dio_read bs=4K numjobs=1 mount=default",
	 "workload=dio_rw bs=1M numjobs=24 mount=dioread_nolock"},
};

static struct machine machine(int disks, uint64_t bytes, uint64_t mem)
{
	struct machine mc = {.ndisks = disks, .mem_bytes = mem};

	for (int i = 0; i < disks; i++)
		mc.disk_bytes[i] = bytes;
	return mc;
}

static struct matrix *load(const char *name)
{
	struct matrix_load_opts o = {0};
	char path[256], err[MATRIX_ERR_LEN];
	struct matrix *m;

	snprintf(path, sizeof(path), "matrix/%s.matrix", name);
	m = matrix_load(path, &o, err, sizeof(err));
	if (!m)
		printf("# %s\n", err);
	return m;
}

static void check_one(const struct shipped *s)
{
	struct machine small = machine(4, GiB, 2 * GiB);
	char dims[256] = "", err[MATRIX_ERR_LEN];
	struct cell_list cl;
	struct matrix *m = load(s->name);
	int runs = 0;
	size_t n = 0;

	CHECK(m != NULL);
	if (!m)
		return;
	CHECK_EQ_STR(matrix_name(m), s->name);
	CHECK(*matrix_description(m) != '\0');
	CHECK_EQ_INT(matrix_cell_count(m), s->cells);
	CHECK(matrix_default_scale(m) == s->scale);
	for (int d = 0; d < matrix_dim_count(m); d++)
		n += snprintf(dims + n, sizeof(dims) - n, "%s%s", d ? " " : "",
			      matrix_dim_name(m, d));
	CHECK_EQ_STR(dims, s->dims);

	/* the scaled-down boot: every cell runs on 4 x 1 GiB disks */
	CHECK_EQ_INT(matrix_expand(m, &small, 0, &cl, err, sizeof(err)), 0);
	CHECK_EQ_INT(cl.count, s->cells);
	CHECK_EQ_INT(cl.runnable, s->cells);
	for (int i = 0; i < cl.count; i++) {
		runs += cl.cells[i].repeats;
		if (cl.cells[i].skip)
			printf("# %s cell %d skipped: %s\n", s->name, i + 1, cl.cells[i].skip);
		CHECK(cl.cells[i].estimate_s > 0);
	}
	CHECK_EQ_INT(runs, s->runs);
	if (cl.count == s->cells) {
		CHECK_EQ_STR(cl.cells[0].key, s->first);
		CHECK_EQ_STR(cl.cells[cl.count - 1].key, s->last);
	}
	cell_list_free(&cl);
	matrix_free(m);
}

static void test_every_shipped_matrix(void)
{
	for (size_t i = 0; i < sizeof(shipped) / sizeof(shipped[0]); i++)
		check_one(&shipped[i]);
}

static void test_no_matrix_without_expectations(void)
{
	DIR *d = opendir("matrix");
	struct dirent *de;
	int found = 0;

	CHECK(d != NULL);
	if (!d)
		return;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		bool known = false;

		if (l < 8 || strcmp(de->d_name + l - 7, ".matrix"))
			continue;
		found++;
		for (size_t i = 0; i < sizeof(shipped) / sizeof(shipped[0]); i++)
			if (strlen(shipped[i].name) == l - 7 &&
			    !strncmp(de->d_name, shipped[i].name, l - 7))
				known = true;
		if (!known)
			printf("# matrix/%s has no expected cell count here\n", de->d_name);
		CHECK(known);
	}
	closedir(d);
	CHECK_EQ_INT(found, sizeof(shipped) / sizeof(shipped[0]));
}

/* A cell's options and set= joined by blanks, for looking into. */
static void workload_words(const struct cell *c, char *buf, size_t len)
{
	size_t n = snprintf(buf, len, "%s", c->workload.job_file ? c->workload.job_file : "");

	for (int i = 0; i < c->workload.noptions && n < len; i++)
		n += snprintf(buf + n, len - n, " %s", c->workload.options[i]);
	for (int i = 0; i < c->workload.nset && n < len; i++)
		n += snprintf(buf + n, len - n, " %s", c->workload.set[i]);
}

static struct cell_list full_size(const char *name, const struct machine *mc)
{
	struct cell_list cl = {0};
	char err[MATRIX_ERR_LEN];
	struct matrix *m = load(name);

	CHECK(m != NULL);
	if (m && matrix_expand(m, mc, 1, &cl, err, sizeof(err))) {
		printf("# %s\n", err);
		CHECK(0);
	}
	matrix_free(m);
	return cl;
}

static void test_scale_one_is_the_study(void)
{
	struct machine nvme = machine(1, 2000 * GiB, 256 * GiB);
	struct machine ssds = machine(12, 400 * GiB, 64 * GiB);
	char words[1024];
	struct cell_list cl;

	cl = full_size("seed000-ext4-dio-randrw", &nvme);
	if (cl.count == 10) {
		workload_words(&cl.cells[5], words, sizeof(words));
		CHECK_EQ_STR(words,
			     " ioengine=psync direct=1 rw=randrw iodepth=1 numjobs=8 size=20G "
			     "runtime=600 ioengine=libaio iodepth=16 bs=4k");
		CHECK_EQ_INT(cl.cells[5].workload.bytes_per_fs, 8 * 20 * GiB);
		CHECK(cl.cells[5].skip == NULL);
	}
	cell_list_free(&cl);

	cl = full_size("seed001-uring-buffered-qd", &nvme);
	if (cl.count == 32) {
		workload_words(&cl.cells[31], words, sizeof(words));
		CHECK_EQ_STR(words,
			     " filename=fio_read_test.txt buffered=1 rw=randread "
			     "ioengine=io_uring randseed=89 runtime=10s norandommap direct=0 "
			     "bs=4k size=4G iodepth=128");
		CHECK_EQ_INT(cl.cells[31].readahead_sectors, 256);
	}
	cell_list_free(&cl);

	cl = full_size("seed002-writeback-dd", &ssds);
	if (cl.count == 45) {
		const struct cell *c = &cl.cells[3 * 5 * 2]; /* 100dd ext2 jbod */

		CHECK_EQ_STR(c->key, "workload=100dd fs=ext2 array=jbod");
		CHECK_EQ_INT(c->filesystems, 12);
		CHECK_EQ_INT(c->workload.writers, 1200); /* 100 on each of 12 disks */
		CHECK(c->workload.runtime_s == 600);
		CHECK_EQ_INT(c->workload.bs, 512);
		CHECK_EQ_INT(cl.cells[3 * 5 * 2 + 2].disks, 12); /* raid5 over all 12 */
		CHECK_EQ_INT(cl.cells[3 * 5 * 2 + 2].workload.writers, 100);
	}
	cell_list_free(&cl);

	cl = full_size("seed003-btrfs-seqread", &nvme);
	if (cl.count == 2) {
		workload_words(&cl.cells[1], words, sizeof(words));
		CHECK_EQ_STR(words, " rw=read direct=0 ioengine=sync bs=4k numjobs=1 runtime=600 "
				    "group_reporting loops=10 size=2G");
		CHECK_EQ_INT(cl.cells[1].fs, FS_BTRFS);
	}
	cell_list_free(&cl);

	cl = full_size("seed004-ext4-dioread-nolock", &nvme);
	if (cl.count == 30) {
		const struct cell *c = &cl.cells[29];

		/* the job file verbatim: only the dimensions' set=, no scaled size */
		CHECK(strstr(c->workload.job_file, "/dio_rw.fio") != NULL);
		CHECK_EQ_INT(c->workload.nset, 2);
		CHECK_EQ_STR(c->workload.set[0], "bs=1M");
		CHECK_EQ_STR(c->workload.set[1], "numjobs=24");
		CHECK_EQ_STR(c->mount_options, "dioread_nolock");
		CHECK_EQ_STR(cl.cells[28].mount_options, "");
		CHECK_EQ_INT(c->repeats, 3);
		CHECK_EQ_INT(c->workload.bytes_per_fs, 10 * GiB); /* one shared file */
	}
	cell_list_free(&cl);
}

static void test_readme_example(void)
{
	struct machine two = machine(2, GiB, 2 * GiB);
	struct matrix_load_opts o = {0};
	char *text = NULL, err[MATRIX_ERR_LEN];
	const char *begin, *end;
	size_t len = 0;
	FILE *f = fopen("matrix/README.md", "r");
	struct cell_list cl;
	struct matrix *m;

	CHECK(f != NULL);
	if (!f)
		return;
	if (getdelim(&text, &len, '\0', f) < 0)
		CHECK(0);
	fclose(f);
	begin = text ? strstr(text, "```ini\n") : NULL;
	end = begin ? strstr(begin + 7, "```") : NULL;
	CHECK(begin && end);
	if (!begin || !end) {
		free(text);
		return;
	}
	m = matrix_load_buffer("example.matrix", begin + 7, end - begin - 7, &o, err, sizeof(err));
	free(text);
	CHECK(m != NULL);
	if (!m) {
		printf("# %s\n", err);
		return;
	}
	CHECK_EQ_INT(matrix_cell_count(m), 7);
	CHECK_EQ_INT(matrix_expand(m, &two, 0, &cl, err, sizeof(err)), 0);
	CHECK_EQ_INT(cl.runnable, 3);
	CHECK_EQ_STR(cl.cells[3].key, "array=r5-64k fs=ext4 workload=1dd");
	CHECK_EQ_STR(cl.cells[3].skip, "raid5 needs 3 disks, 2 given");
	CHECK_EQ_INT(cl.cells[0].workload.size, 102 * 1024 * 1024);
	cell_list_free(&cl);
	matrix_free(m);
}

int main(void)
{
	RUN_TEST(test_every_shipped_matrix);
	RUN_TEST(test_no_matrix_without_expectations);
	RUN_TEST(test_scale_one_is_the_study);
	RUN_TEST(test_readme_example);
	CHECK_EXIT();
}
