// SPDX-License-Identifier: GPL-2.0
/* Matrix files: what parses, and the one-line errors (file:line) for what does not. */
#include <stdlib.h>

#include "check.h"
#include "matrix/matrix.h"

static const char base[] = "[matrix]\n"	     /* 1 */
			   "name = t\n"	     /* 2 */
			   "[dimensions]\n"  /* 3 */
			   "fs = ext4 xfs\n" /* 4 */
			   "workload = w\n"  /* 5 */
			   "[workload.w]\n"  /* 6 */
			   "writers = 1\n"   /* 7 */
			   "size = 1m\n";    /* 8 */

static struct matrix *load(const char *text, char *err)
{
	struct matrix_load_opts o = {.jobs_dir = "/nonexistent-iomatrix-jobs"};

	err[0] = '\0';
	return matrix_load_buffer("t.matrix", text, strlen(text), &o, err, MATRIX_ERR_LEN);
}

/* base with extra lines appended (line 9 on). */
static struct matrix *load_with(const char *extra, char *err)
{
	char text[4096];

	snprintf(text, sizeof(text), "%s%s", base, extra);
	return load(text, err);
}

static void test_minimal_matrix(void)
{
	char err[MATRIX_ERR_LEN];
	struct matrix *m = load(base, err);

	CHECK(m != NULL);
	if (!m) {
		printf("# %s\n", err);
		return;
	}
	CHECK_EQ_STR(matrix_name(m), "t");
	CHECK_EQ_STR(matrix_description(m), "");
	CHECK(matrix_default_scale(m) == 1);
	CHECK_EQ_INT(matrix_cell_count(m), 2);
	CHECK_EQ_INT(matrix_dim_count(m), 2);
	CHECK_EQ_STR(matrix_dim_name(m, 0), "fs");
	CHECK_EQ_STR(matrix_dim_name(m, 1), "workload");
	CHECK_EQ_INT(matrix_dim_value_count(m, 0), 2);
	CHECK_EQ_STR(matrix_dim_value(m, 0, 1), "xfs");
	CHECK_EQ_INT(matrix_dim_find(m, "workload"), 1);
	CHECK_EQ_INT(matrix_dim_find(m, "array"), -1);
	CHECK_EQ_INT(matrix_value_find(m, 0, "xfs"), 1);
	CHECK_EQ_INT(matrix_value_find(m, 0, "btrfs"), -1);
	matrix_free(m);
}

static void test_name_defaults_to_file_name(void)
{
	char err[MATRIX_ERR_LEN];
	const char *text = "[dimensions]\nworkload = w\n[workload.w]\nwriters=1\nruntime=1\n";
	struct matrix_load_opts o = {0};
	struct matrix *m =
		matrix_load_buffer("dir/my-study.matrix", text, strlen(text), &o, err, sizeof(err));

	CHECK(m != NULL);
	if (m)
		CHECK_EQ_STR(matrix_name(m), "my-study");
	matrix_free(m);
}

/* Each entry: lines appended to base, and the exact error. */
static const struct {
	const char *extra;
	const char *error;
} errors[] = {
	{"[matrix]\n", "t.matrix:9: section [matrix] given twice (first at t.matrix:1)"},
	{"[bogus]\n", "t.matrix:9: unknown section [bogus] (sections: matrix dimensions defaults "
		      "rules workload.NAME DIMENSION.VALUE)"},
	{"[defaults]\nfs = zfs\n",
	 "t.matrix:10: unknown filesystem 'zfs' (known: ext2 ext3 ext4 btrfs xfs)"},
	{"[defaults]\nfss = ext4\n",
	 "t.matrix:10: unknown key 'fss' (keys: fs mkfs_options mount_options array disks chunk "
	 "resync readahead scheduler workload set)"},
	{"[defaults]\nrepeats = 3\n", "t.matrix:10: repeats belongs in [matrix], not [defaults]"},
	{"[defaults]\narray = raid5\narray = raid6\n",
	 "t.matrix:11: array given twice in this section"},
	{"[defaults]\nchunk = 48k\n", "t.matrix:10: chunk 48k is not a power of two from 4k to 1g"},
	{"[defaults]\nchunk = 64q\n", "t.matrix:10: bad chunk size '64q' (e.g. 64k, 512k, 1m)"},
	{"[defaults]\ndisks = 0\n", "t.matrix:10: bad disks '0' (a count 1-64, or all)"},
	{"[defaults]\nreadahead = -1\n",
	 "t.matrix:10: bad readahead '-1' (512-byte sectors, e.g. 256, or default)"},
	{"[defaults]\nscheduler = cfq\n",
	 "t.matrix:10: unknown IO scheduler 'cfq' (known: none mq-deadline bfq kyber)"},
	{"[defaults]\nresync = never\n",
	 "t.matrix:10: unknown resync policy 'never' (known: assume-clean wait)"},
	{"[defaults]\nmount_options = a b\n",
	 "t.matrix:10: mount options 'a b' contain a blank (mount -o takes one comma-separated "
	 "word)"},
	{"[defaults]\nset = bs\xff=4k\n",
	 "t.matrix:10: bad option 'bs\xff=4k' (want name=value, the name of letters, digits and "
	 "_)"},
	{"[workload.w]\n", "t.matrix:9: workload w defined twice (first at t.matrix:6)"},
	{"[workload.v]\njob = a.fio\nwriters = 2\n",
	 "t.matrix:11: writers makes workload v a dd workload, but it is fio already (fio: job or "
	 "fio; dd: writers, bs, size, runtime)"},
	{"[workload.v]\nwriters = 2\nsize = 1m\nruntime = 5\n",
	 "t.matrix:12: workload v: give size or runtime, not both"},
	{"[workload.v]\nwriters = 2\nwriters_per_fs = 1\n",
	 "t.matrix:11: workload v: give writers or writers_per_fs, not both"},
	{"[workload.v]\nwriters = 0\n", "t.matrix:10: bad writers '0' (1-100000)"},
	{"[workload.v]\nbs = 4x\n", "t.matrix:10: bad bs '4x' (a size such as 4k, 1m, 16g)"},
	{"[workload.v]\niodepth = 4\n",
	 "t.matrix:10: unknown key 'iodepth' in [workload.v] (keys: job fio writers "
	 "writers_per_fs bs size runtime set)"},
	{"[workload.v]\nwriters = 3\n",
	 "t.matrix:9: workload v: a dd workload needs size= (per writer) or runtime="},
	{"[workload.v]\nbs = 4k\nruntime = 3\n",
	 "t.matrix:9: workload v: a dd workload needs writers= or writers_per_fs="},
	{"[workload.v]\nset = bs=4k\n",
	 "t.matrix:9: workload v: give job= or fio= (fio), or writers= with size= or runtime= "
	 "(dd)"},
	{"[workload.v]\njob = missing.fio\n",
	 "t.matrix:9: workload v: /nonexistent-iomatrix-jobs/missing.fio: No such file or "
	 "directory"},
	{"[workload.v]\njob = /dev/null\n",
	 "t.matrix:9: workload v: /dev/null: not a job file (a regular file under 1 MiB)"},
	{"[fs.zfs]\nmount_options = noatime\n",
	 "t.matrix:9: section [fs.zfs]: dimension fs has no value zfs (values: ext4 xfs)"},
	{"[array.raid5]\nchunk = 64k\n",
	 "t.matrix:9: section [array.raid5]: no dimension array (dimensions: fs workload)"},
	{"[fs.]\n", "t.matrix:9: section [fs.]: want [DIMENSION.VALUE]"},
	{"[fs.ext4]\nrepeats = 0\n", "t.matrix:10: bad repeats '0' (1-1000)"},
	{"[rules]\nexclude = fs=zfs\n",
	 "t.matrix:10: exclude: dimension fs has no value 'zfs' (values: ext4 xfs)"},
	{"[rules]\nexclude = array=raid5\n",
	 "t.matrix:10: exclude: no dimension 'array' in matrix t (dimensions: fs workload)"},
	{"[rules]\nexclude = 3\n",
	 "t.matrix:10: exclude: '3': a rule takes dimension=value terms, not cell numbers"},
	{"[rules]\nexclude = ,\n", "t.matrix:10: exclude needs at least one dimension=value term"},
	{"[rules]\nexclude = fs=ext4\nexclude = fs=xfs\n", "t.matrix: [rules] exclude every cell"},
	{"[rules]\nonly = fs=ext4\n", "t.matrix:10: unknown key 'only' in [rules] (keys: exclude)"},
};

static void test_errors_name_file_line_and_key(void)
{
	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++) {
		char err[MATRIX_ERR_LEN];
		struct matrix *m;

		if (!errors[i].error)
			continue;
		m = load_with(errors[i].extra, err);
		CHECK(m == NULL);
		if (strcmp(err, errors[i].error))
			printf("# case %zu: got '%s'\n#   expected '%s'\n", i, err,
			       errors[i].error);
		CHECK_EQ_STR(err, errors[i].error);
		matrix_free(m);
	}
}

static void test_matrix_section_errors(void)
{
	static const struct {
		const char *text, *error;
	} cases[] = {
		{"[matrix]\nscale = 0\n",
		 "t.matrix:2: bad scale '0' (a number above 0, at most 1; 1 is the study's full "
		 "size)"},
		{"[matrix]\nscale = 1x\n",
		 "t.matrix:2: bad scale '1x' (a number above 0, at most 1; 1 is the study's full "
		 "size)"},
		{"[matrix]\nscale = 2\n",
		 "t.matrix:2: bad scale '2' (a number above 0, at most 1; 1 is the study's full "
		 "size)"},
		{"[matrix]\nrepeat = 3\n", "t.matrix:2: unknown key 'repeat' in [matrix] (keys: "
					   "name description scale repeats "
					   "time_limit)"},
		{"[matrix]\nname = a\nname = b\n", "t.matrix:3: name given twice in [matrix]"},
		{"[matrix]\nname = a b\n", "t.matrix:2: bad name 'a b' (letters, digits, ._+:@%-)"},
		{"[matrix]\ntime_limit = 0.5\n",
		 "t.matrix:2: bad time_limit '0.5' (a duration of 1s or more, e.g. 600, 10m, or "
		 "auto)"},
		{"[matrix]\ndescription\n", "t.matrix:2: description needs a value"},
		{"fs = ext4\n", "t.matrix:1: fs before any [section]"},
		{"[matrix]\nname = a\n", "t.matrix: no [dimensions] (a matrix needs at least one "
					 "dimension)"},
		{"[dimensions]\nFS = ext4\n",
		 "t.matrix:2: bad dimension name 'FS' (lower-case letters, digits and _, starting "
		 "with a letter)"},
		{"[dimensions]\nmount_options = noatime\n",
		 "t.matrix:2: mount_options is a cell setting, not a dimension: give it in "
		 "[defaults] or in a value's section"},
		{"[dimensions]\nfs = ext4\nfs = xfs\n",
		 "t.matrix:3: dimension fs given twice (first at line 2)"},
		{"[dimensions]\nfs =\n", "t.matrix:2: dimension fs has no values"},
		{"[dimensions]\nfs = ext4 ext4\n",
		 "t.matrix:2: dimension fs: value ext4 given twice"},
		{"[dimensions]\nfs = ext4,xfs\n",
		 "t.matrix:2: dimension fs: bad value 'ext4,xfs' (letters, digits, ._+:@%-)"},
		{"[dimensions]\nfs = ext4 zfs\n",
		 "t.matrix:2: dimension fs: unknown filesystem 'zfs' (known: ext2 ext3 ext4 btrfs "
		 "xfs) (or give the value a section that sets it)"},
		{"[dimensions]\narray = raid7\n[array.raid7]\nchunk = 64k\n",
		 "t.matrix:2: dimension array: unknown array 'raid7' (known: jbod linear raid0 "
		 "raid1 "
		 "raid10 raid5 raid6)"},
		{"[dimensions]\nfs = ext4\n",
		 "t.matrix:2: cell 'fs=ext4' has no workload (set workload= in [defaults], in a "
		 "value's section, or make workload a dimension)"},
		{"[dimensions]\nworkload = nope\n", "t.matrix:2: cell 'workload=nope': no "
						    "[workload.nope]"},
		{"[dimensions]\nworkload = d\niodepth = 4\n[workload.d]\nwriters=1\nsize=1m\n",
		 "t.matrix:3: set for dd workload d: a dd workload takes writers, writers_per_fs, "
		 "bs, size, runtime; not 'iodepth' (cell 'workload=d iodepth=4')"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char err[MATRIX_ERR_LEN];
		struct matrix *m = load(cases[i].text, err);

		CHECK(m == NULL);
		if (strcmp(err, cases[i].error))
			printf("# case %zu: got '%s'\n#   expected '%s'\n", i, err, cases[i].error);
		CHECK_EQ_STR(err, cases[i].error);
		matrix_free(m);
	}
}

static void test_unknown_section_in_include_names_included_file(void)
{
	char dir[] = "/tmp/iomatrix-mx-XXXXXX", path[256], err[MATRIX_ERR_LEN];
	struct matrix_load_opts o = {0};
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/inc.matrix", dir);
	f = fopen(path, "w");
	fputs("[workload.w]\nwriters = 1\nsize = 1m\n\n[nope]\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/main.matrix", dir);
	f = fopen(path, "w");
	fputs("[dimensions]\nworkload = w\ninclude inc.matrix\n", f);
	fclose(f);
	CHECK(matrix_load(path, &o, err, sizeof(err)) == NULL);
	snprintf(path, sizeof(path), "%s/inc.matrix:5: unknown section [nope]", dir);
	CHECK(!strncmp(err, path, strlen(path)));
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	CHECK_EQ_INT(system(path), 0);
}

static void test_matrix_path_for_name(void)
{
	char path[256], err[MATRIX_ERR_LEN];

	CHECK_EQ_INT(matrix_path_for_name("matrix", "quick", path, sizeof(path), err, sizeof(err)),
		     0);
	CHECK_EQ_STR(path, "matrix/quick.matrix");
	CHECK_EQ_INT(matrix_path_for_name("matrix", "../etc", path, sizeof(path), err, sizeof(err)),
		     -1);
	CHECK_EQ_STR(err, "bad matrix name '../etc' (a name such as quick, without directory or "
			  ".matrix)");
	CHECK_EQ_INT(matrix_path_for_name("matrix", "nope", path, sizeof(path), err, sizeof(err)),
		     -1);
	CHECK_EQ_STR(err, "no matrix nope in matrix (there: quick seed000-ext4-dio-randrw "
			  "seed001-uring-buffered-qd seed002-writeback-dd seed003-btrfs-seqread "
			  "seed004-ext4-dioread-nolock)");
}

int main(void)
{
	RUN_TEST(test_minimal_matrix);
	RUN_TEST(test_name_defaults_to_file_name);
	RUN_TEST(test_errors_name_file_line_and_key);
	RUN_TEST(test_matrix_section_errors);
	RUN_TEST(test_unknown_section_in_include_names_included_file);
	RUN_TEST(test_matrix_path_for_name);
	CHECK_EXIT();
}
