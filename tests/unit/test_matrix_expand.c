// SPDX-License-Identifier: GPL-2.0
/*
 * Expansion: order, count and keys; how settings resolve; the rules that
 * skip what a machine cannot run, with their reasons; the scale knob; the
 * workload's command line.
 */
#include <stdlib.h>
#include <sys/stat.h>

#include "check.h"
#include "matrix/matrix.h"

#define GiB (1024ULL * 1024 * 1024)
#define MiB (1024ULL * 1024)

static char jobs_dir[] = "/tmp/iomatrix-jobs-XXXXXX";

static void write_file(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", jobs_dir, name);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

static struct matrix *load(const char *text)
{
	struct matrix_load_opts o = {.jobs_dir = jobs_dir};
	char err[MATRIX_ERR_LEN];
	struct matrix *m = matrix_load_buffer("t.matrix", text, strlen(text), &o, err, sizeof(err));

	if (!m)
		printf("# load: %s\n", err);
	return m;
}

static struct machine machine(int disks, uint64_t disk_bytes, uint64_t mem)
{
	struct machine mc = {.ndisks = disks, .mem_bytes = mem};

	for (int i = 0; i < disks; i++)
		mc.disk_bytes[i] = disk_bytes;
	return mc;
}

/* Loads and expands on mc at scale; NULL-safe for the checks that follow. */
static int expand(const char *text, const struct machine *mc, double scale, struct matrix **m,
		  struct cell_list *cl)
{
	char err[MATRIX_ERR_LEN];

	memset(cl, 0, sizeof(*cl));
	*m = load(text);
	CHECK(*m != NULL);
	if (!*m)
		return -1;
	if (matrix_expand(*m, mc, scale, cl, err, sizeof(err))) {
		printf("# expand: %s\n", err);
		CHECK(!"expand failed");
		matrix_free(*m);
		return -1;
	}
	return 0;
}

static void done(struct matrix *m, struct cell_list *cl)
{
	cell_list_free(cl);
	matrix_free(m);
}

static const char dd_workload[] = "[workload.w]\nwriters = 2\nbs = 1m\nsize = 8m\n";

static void test_order_count_and_keys(void)
{
	struct machine mc = machine(4, GiB, 2 * GiB);
	struct cell_list cl;
	struct matrix *m;
	char text[1024];

	snprintf(text, sizeof(text),
		 "[defaults]\nworkload = w\n[dimensions]\narray = jbod raid0\n"
		 "fs = ext2 ext4 xfs\n%s",
		 dd_workload);
	if (expand(text, &mc, 0, &m, &cl))
		return;
	CHECK_EQ_INT(cl.count, 6);
	CHECK_EQ_INT(cl.runnable, 6);
	CHECK_EQ_STR(cl.cells[0].key, "array=jbod fs=ext2");
	CHECK_EQ_STR(cl.cells[1].key, "array=jbod fs=ext4");
	CHECK_EQ_STR(cl.cells[2].key, "array=jbod fs=xfs");
	CHECK_EQ_STR(cl.cells[3].key, "array=raid0 fs=ext2");
	CHECK_EQ_STR(cl.cells[5].key, "array=raid0 fs=xfs");
	for (int i = 0; i < cl.count; i++)
		CHECK_EQ_INT(cl.cells[i].index, i + 1);
	CHECK_EQ_INT(cl.cells[4].ndims, 2);
	CHECK_EQ_STR(cl.cells[4].dims[0].name, "array");
	CHECK_EQ_STR(cl.cells[4].dims[0].value, "raid0");
	CHECK_EQ_STR(cl.cells[4].dims[1].value, "ext4");
	CHECK_EQ_INT(cl.cells[4].value_index[0], 1);
	CHECK_EQ_INT(cl.cells[4].value_index[1], 1);
	CHECK_EQ_INT(cl.cells[4].array, ARRAY_RAID0);
	CHECK_EQ_INT(cl.cells[4].fs, FS_EXT4);
	done(m, &cl);
}

static void test_rules_remove_combinations_before_numbering(void)
{
	struct machine mc = machine(4, GiB, 2 * GiB);
	struct cell_list cl;
	struct matrix *m;
	char text[1024];

	snprintf(text, sizeof(text),
		 "[defaults]\nworkload = w\n[dimensions]\narray = jbod raid0 raid5\n"
		 "fs = ext4 xfs btrfs\n[rules]\nexclude = fs=xfs array=jbod\n"
		 "exclude = array=raid5 fs!=btrfs\n%s",
		 dd_workload);
	if (expand(text, &mc, 0, &m, &cl))
		return;
	CHECK_EQ_INT(matrix_cell_count(m), 6);
	CHECK_EQ_INT(cl.count, 6);
	CHECK_EQ_STR(cl.cells[0].key, "array=jbod fs=ext4");
	CHECK_EQ_STR(cl.cells[1].key, "array=jbod fs=btrfs");
	CHECK_EQ_STR(cl.cells[2].key, "array=raid0 fs=ext4");
	CHECK_EQ_STR(cl.cells[5].key, "array=raid5 fs=btrfs");
	CHECK_EQ_INT(cl.cells[5].index, 6);
	done(m, &cl);
}

static void test_settings_resolve_in_order(void)
{
	struct machine mc = machine(4, GiB, 2 * GiB);
	struct cell_list cl;
	struct matrix *m;
	const char *text = "[defaults]\n"
			   "workload = f\n"
			   "mount_options = noatime\n"
			   "set = iodepth=2\n"
			   "[dimensions]\n"
			   "array = raid1 r5-64k\n"
			   "fs = ext4 xfs\n"
			   "mkfs = default -Enodiscard\n"
			   "bs = 4k 1M\n"
			   "[array.r5-64k]\n"
			   "array = raid5\n"
			   "chunk = 64k\n"
			   "resync = wait\n"
			   "[fs.xfs]\n"
			   "mount_options = nouuid\n"
			   "readahead = 0\n"
			   "scheduler = none\n"
			   "[workload.f]\n"
			   "fio = rw=randread size=16m\n"
			   "set = iodepth=8 numjobs=2\n";
	const struct cell *c;

	if (expand(text, &mc, 1, &m, &cl))
		return;
	CHECK_EQ_INT(cl.count, 16);
	c = &cl.cells[0]; /* array=raid1 fs=ext4 mkfs=default bs=4k */
	CHECK_EQ_STR(c->key, "array=raid1 fs=ext4 mkfs=default bs=4k");
	CHECK_EQ_INT(c->array, ARRAY_RAID1);
	CHECK_EQ_INT(c->chunk_bytes, 0); /* raid1 has none */
	CHECK_EQ_INT(c->resync, RESYNC_ASSUME_CLEAN);
	CHECK_EQ_INT(c->disks, 4);
	CHECK_EQ_INT(c->filesystems, 1);
	CHECK_EQ_STR(c->mkfs_options, "-E lazy_itable_init=0,lazy_journal_init=0");
	CHECK_EQ_STR(c->mount_options, "noatime");
	CHECK_EQ_INT(c->readahead_sectors, -1);
	CHECK(c->scheduler == NULL);
	CHECK_EQ_INT(c->workload.kind, WORKLOAD_FIO);
	CHECK_EQ_INT(c->workload.noptions, 2);
	CHECK_EQ_STR(c->workload.options[0], "rw=randread");
	/* the workload's own set first, then [defaults], then the dimensions */
	CHECK_EQ_INT(c->workload.nset, 4);
	CHECK_EQ_STR(c->workload.set[0], "iodepth=8");
	CHECK_EQ_STR(c->workload.set[1], "numjobs=2");
	CHECK_EQ_STR(c->workload.set[2], "iodepth=2");
	CHECK_EQ_STR(c->workload.set[3], "bs=4k");

	c = &cl.cells[3 + 12]; /* array=r5-64k fs=xfs mkfs=-Enodiscard bs=1M */
	CHECK_EQ_STR(c->key, "array=r5-64k fs=xfs mkfs=-Enodiscard bs=1M");
	CHECK_EQ_INT(c->array, ARRAY_RAID5);
	CHECK_EQ_INT(c->chunk_bytes, 64 * 1024);
	CHECK_EQ_INT(c->resync, RESYNC_WAIT);
	CHECK_EQ_STR(c->mkfs_options, "-Enodiscard"); /* xfs has no defaults */
	CHECK_EQ_STR(c->mount_options, "nouuid");     /* the value's section wins over [defaults] */
	CHECK_EQ_INT(c->readahead_sectors, 0);
	CHECK_EQ_STR(c->scheduler, "none");
	CHECK_EQ_STR(c->workload.set[3], "bs=1M");

	c = &cl.cells[1]; /* array=raid1 fs=ext4 mkfs=default bs=1M */
	CHECK_EQ_STR(c->key, "array=raid1 fs=ext4 mkfs=default bs=1M");
	c = &cl.cells[3]; /* ... mkfs=-Enodiscard bs=1M on ext4: appended to the defaults */
	CHECK_EQ_STR(c->mkfs_options, "-E lazy_itable_init=0,lazy_journal_init=0 -Enodiscard");
	done(m, &cl);
}

static void test_jbod_spreads_writers(void)
{
	struct machine mc = machine(3, GiB, 2 * GiB);
	struct cell_list cl;
	struct matrix *m;
	const char *text = "[dimensions]\narray = jbod raid0\nworkload = all per\n"
			   "[workload.all]\nwriters = 10\nsize = 10m\n"
			   "[workload.per]\nwriters_per_fs = 10\nruntime = 60\n";

	if (expand(text, &mc, 1, &m, &cl))
		return;
	CHECK_EQ_INT(cl.cells[0].filesystems, 3);
	CHECK_EQ_INT(cl.cells[0].workload.writers, 10);
	CHECK_EQ_INT(cl.cells[0].workload.bs, 1024 * 1024);	       /* dd's default here */
	CHECK_EQ_INT(cl.cells[0].workload.bytes_per_fs, 4 * 10 * MiB); /* 4+3+3 writers */
	CHECK_EQ_INT(cl.cells[1].workload.writers, 30);
	CHECK_EQ_INT(cl.cells[1].workload.bytes_per_fs, 0); /* runtime-bound: unknown */
	CHECK_EQ_INT(cl.cells[2].filesystems, 1);
	CHECK_EQ_INT(cl.cells[2].workload.writers, 10);
	CHECK_EQ_INT(cl.cells[3].workload.writers, 10);
	CHECK_EQ_STR(cl.cells[1].workload.summary, "dd 30 writers bs=1m runtime=60s");
	CHECK_EQ_STR(cl.cells[0].workload.summary, "dd 10 writers bs=1m size=10m each");
	done(m, &cl);
}

struct skip_case {
	const char *defaults;
	int disks;
	uint64_t disk_bytes, mem;
	const char *skip; /* NULL: runnable */
};

static void check_skip(const struct skip_case *sc, const char *workload)
{
	struct machine mc = machine(sc->disks, sc->disk_bytes, sc->mem);
	struct cell_list cl;
	struct matrix *m;
	char text[1024];

	snprintf(text, sizeof(text), "[defaults]\nworkload = w\n%s\n[dimensions]\nrepeats = 1\n%s",
		 sc->defaults, workload);
	if (expand(text, &mc, 1, &m, &cl))
		return;
	if (sc->skip && (!cl.cells[0].skip || strcmp(cl.cells[0].skip, sc->skip)))
		printf("# %s: got '%s'\n", sc->defaults, cl.cells[0].skip);
	if (sc->skip) {
		CHECK_EQ_STR(cl.cells[0].skip, sc->skip);
		CHECK_EQ_INT(cl.runnable, 0);
	} else {
		CHECK(cl.cells[0].skip == NULL);
		CHECK_EQ_INT(cl.runnable, 1);
	}
	done(m, &cl);
}

static void test_hardware_rules_and_reasons(void)
{
	static const struct skip_case cases[] = {
		{"array = raid5", 2, GiB, 0, "raid5 needs 3 disks, 2 given"},
		{"array = raid5", 3, GiB, 0, NULL},
		{"array = raid6", 3, GiB, 0, "raid6 needs 4 disks, 3 given"},
		{"array = raid0", 1, GiB, 0, "raid0 needs 2 disks, 1 given"},
		{"array = raid1", 1, GiB, 0, "raid1 needs 2 disks, 1 given"},
		{"array = raid10", 2, GiB, 0, NULL},
		{"array = linear", 1, GiB, 0, "linear needs 2 disks, 1 given"},
		{"array = jbod", 1, GiB, 0, NULL},
		{"array = jbod", 0, GiB, 0, "no disks given"},
		{"array = raid5\ndisks = 2", 4, GiB, 0, "raid5 needs 3 disks, 2 chosen (disks=)"},
		{"disks = 4", 3, GiB, 0, "disks=4, but 3 given"},
		{"fs = xfs", 1, 300 * MiB - 1, 0,
		 "xfs needs 314572800 bytes per filesystem, a 300 MiB disk gives 314572799"},
		{"fs = xfs", 1, 300 * MiB, 0, NULL},
		{"fs = xfs\narray = raid1", 2, 200 * MiB, 0,
		 "xfs needs 300 MiB per filesystem, raid1 of 2 x 200 MiB gives 198 MiB"},
		{"fs = xfs\narray = raid0", 2, 200 * MiB, 0, NULL},
		{"fs = btrfs", 1, 100 * MiB, 0,
		 "btrfs needs 109 MiB per filesystem, a 100 MiB disk gives 100 MiB"},
		{"fs = btrfs", 1, 114294784, 0, NULL},
		{"fs = ext4", 1, 64 * MiB, 0,
		 "the workload needs 80 MiB per filesystem, ext4 on a 64 MiB disk holds about "
		 "56 MiB"},
		{"fs = ext4\narray = raid0", 2, 64 * MiB, 0, NULL},
		{"fs = ext4", 1, GiB, 200 * MiB,
		 "the workload's IO buffers need 160 MiB, more than half of 200 MiB memory"},
		{"fs = ext4", 1, GiB, 400 * MiB, NULL},
	};
	/* 80 MiB of files, 160 MiB of buffers: 8 jobs x 10m, x iodepth 20 x bs 1m */
	const char *workload = "[workload.w]\nfio = rw=read bs=1m iodepth=20 numjobs=8 size=10m\n";

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_skip(&cases[i], workload);
}

static void test_md_device_sizes(void)
{
	struct machine mc = machine(4, GiB, 2 * GiB);
	static const struct {
		const char *array;
		uint64_t bytes;
	} sizes[] = {
		/* /proc/mdstat under QEMU for 4 x 1 GiB: 1046528 KiB a member */
		{"raid0", 4186112ULL * 1024},
		{"raid1", 1046528ULL * 1024},
		{"raid10", 2093056ULL * 1024},
		{"raid5", 3139584ULL * 1024},
		{"raid6", 2093056ULL * 1024},
		{"linear", 4186112ULL * 1024},
		{"jbod", GiB},
	};

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct cell_list cl;
		struct matrix *m;
		char text[512];

		snprintf(text, sizeof(text),
			 "[defaults]\nworkload=w\narray=%s\n[dimensions]\n"
			 "repeats = 1\n%s",
			 sizes[i].array, dd_workload);
		if (expand(text, &mc, 1, &m, &cl))
			continue;
		CHECK_EQ_INT(cl.cells[0].fs_bytes, sizes[i].bytes);
		done(m, &cl);
	}
}

static void test_scale_rounds_and_keeps_minimums(void)
{
	struct machine mc = machine(4, 64 * GiB, 64 * GiB);
	struct cell_list cl;
	struct matrix *m;
	const char *text = "[defaults]\ndisks = 1\n"
			   "[dimensions]\nworkload = big tiny blocks timed inline pct\n"
			   "[workload.big]\nwriters = 1\nsize = 1g\n"
			   "[workload.tiny]\nwriters = 1\nsize = 512k\n"
			   "[workload.blocks]\nwriters = 1\nbs = 3m\nsize = 10m\n"
			   "[workload.timed]\nwriters = 1\nruntime = 600\n"
			   "[workload.inline]\nfio = rw=randrw size=20G runtime=600 ramp_time=0.5\n"
			   "set = io_size=1g\n"
			   "[workload.pct]\nfio = rw=read size=50% timeout=10s\n";

	if (expand(text, &mc, 0.1, &m, &cl))
		return;
	CHECK(cl.scale == 0.1);
	CHECK_EQ_INT(cl.cells[0].workload.size, 102 * MiB);  /* 102.4 rounds down */
	CHECK_EQ_INT(cl.cells[1].workload.size, 512 * 1024); /* never above its value */
	CHECK_EQ_INT(cl.cells[2].workload.size, 3 * MiB);    /* whole blocks, at least one */
	CHECK(cl.cells[3].workload.runtime_s == 60);
	CHECK_EQ_STR(cl.cells[4].workload.options[1], "size=2g");
	CHECK_EQ_STR(cl.cells[4].workload.options[2], "runtime=60");
	CHECK_EQ_STR(cl.cells[4].workload.options[3], "ramp_time=0.5"); /* under 1 s stays */
	CHECK_EQ_STR(cl.cells[4].workload.set[0], "io_size=102m");
	CHECK_EQ_STR(cl.cells[5].workload.options[1], "size=50%"); /* relative stays */
	CHECK_EQ_STR(cl.cells[5].workload.options[2], "timeout=1");
	done(m, &cl);

	if (expand(text, &mc, 0.0001, &m, &cl))
		return;
	CHECK_EQ_INT(cl.cells[0].workload.size, MiB); /* at least 1 MiB */
	CHECK(cl.cells[3].workload.runtime_s == 1);   /* at least 1 s */
	done(m, &cl);

	if (expand(text, &mc, 1, &m, &cl))
		return;
	CHECK_EQ_STR(cl.cells[4].workload.options[1], "size=20G"); /* untouched at scale 1 */
	CHECK_EQ_STR(cl.cells[4].workload.options[2], "runtime=600");
	done(m, &cl);
}

static void test_scale_job_files_through_set(void)
{
	struct machine mc = machine(4, GiB, 2 * GiB);
	struct cell_list cl;
	struct matrix *m;
	const char *text = "[matrix]\nscale = 0.005\n[defaults]\ndisks = 1\n"
			   "[dimensions]\nworkload = one\nbs = 4K 1M\n"
			   "[workload.one]\njob = one.fio\n";
	const char *two = "[defaults]\ndisks = 1\n[dimensions]\nworkload = two\n"
			  "[workload.two]\njob = two.fio\n";
	char err[MATRIX_ERR_LEN];

	if (expand(text, &mc, 0, &m, &cl))
		return;
	snprintf(err, sizeof(err), "%s/one.fio", jobs_dir);
	CHECK_EQ_STR(cl.cells[0].workload.job_file, err);
	CHECK_EQ_INT(cl.cells[0].workload.nset, 3);
	CHECK_EQ_STR(cl.cells[0].workload.set[0], "bs=4K");
	CHECK_EQ_STR(cl.cells[0].workload.set[1], "size=51m");
	CHECK_EQ_STR(cl.cells[0].workload.set[2], "runtime=1");
	/* one shared file of 51 MiB, 24 threads x iodepth 16 x 1M buffers at bs=1M */
	CHECK_EQ_INT(cl.cells[1].workload.bytes_per_fs, 51 * MiB);
	CHECK_EQ_INT(cl.cells[1].workload.buffer_bytes, 24ULL * 16 * MiB);
	CHECK_EQ_STR(cl.cells[1].workload.summary, "fio one.fio set bs=1M size=51m runtime=1");
	done(m, &cl);

	/* at scale 1 the job file runs verbatim */
	if (expand(text, &mc, 1, &m, &cl))
		return;
	CHECK_EQ_INT(cl.cells[0].workload.nset, 1);
	done(m, &cl);

	/* jobs that differ in size= scale only at 1 */
	if (expand(two, &mc, 1, &m, &cl))
		return;
	CHECK_EQ_INT(cl.cells[0].workload.bytes_per_fs, 3 * 10 * MiB + 20 * MiB);
	cell_list_free(&cl);
	CHECK_EQ_INT(matrix_expand(m, &mc, 0.5, &cl, err, sizeof(err)), -1);
	CHECK(strstr(err, "/two.fio: jobs a and b differ in size=; scale applies one value to "
			  "every job") != NULL);
	done(m, &cl);
}

static void test_argv(void)
{
	struct machine mc = machine(2, GiB, 2 * GiB);
	const char *dirs[] = {"/mnt/d0", "/mnt/d1"}, *bad[] = {"/mnt/a:b"};
	struct cell_list cl;
	struct matrix *m;
	char **argv, err[MATRIX_ERR_LEN];
	const char *text =
		"[dimensions]\nworkload = dd timed inline job\n"
		"[workload.dd]\nwriters_per_fs = 2\nbs = 4k\nsize = 16m\n"
		"[workload.timed]\nwriters = 1\nruntime = 2.5\n"
		"[workload.inline]\nfio = rw=randread bs=4k norandommap\nset = iodepth=4\n"
		"[workload.job]\njob = one.fio\nset = numjobs=2\n";
	int argc;

	if (expand(text, &mc, 1, &m, &cl))
		return;
	argc = cell_workload_argv(&cl.cells[0], dirs, 2, &argv, err, sizeof(err));
	CHECK_EQ_INT(argc, 9);
	if (argc == 9) {
		const char *want[] = {"dd",	"--writers", "4",	    "--bs",	      "4k",
				      "--size", "16m",	     "--directory", "/mnt/d0:/mnt/d1"};
		for (int i = 0; i < 9; i++)
			CHECK_EQ_STR(argv[i], want[i]);
		CHECK(argv[9] == NULL);
	}
	cell_argv_free(argv);

	argc = cell_workload_argv(&cl.cells[1], dirs, 1, &argv, err, sizeof(err));
	CHECK_EQ_INT(argc, 9);
	if (argc == 9) {
		CHECK_EQ_STR(argv[5], "--runtime");
		CHECK_EQ_STR(argv[6], "2.5");
		CHECK_EQ_STR(argv[8], "/mnt/d0");
	}
	cell_argv_free(argv);

	argc = cell_workload_argv(&cl.cells[2], dirs, 1, &argv, err, sizeof(err));
	CHECK_EQ_INT(argc, 8);
	if (argc == 8) {
		const char *want[] = {
			"--name=inline", "--rw=randread", "--bs=4k", "--norandommap",
			"--set",	 "iodepth=4",	  "--set",   "directory=/mnt/d0"};
		for (int i = 0; i < 8; i++)
			CHECK_EQ_STR(argv[i], want[i]);
	}
	cell_argv_free(argv);

	argc = cell_workload_argv(&cl.cells[3], dirs, 2, &argv, err, sizeof(err));
	CHECK_EQ_INT(argc, 5);
	if (argc == 5) {
		CHECK(strstr(argv[0], "/one.fio") != NULL);
		CHECK_EQ_STR(argv[1], "--set");
		CHECK_EQ_STR(argv[2], "numjobs=2");
		CHECK_EQ_STR(argv[4], "directory=/mnt/d0:/mnt/d1");
	}
	cell_argv_free(argv);

	CHECK_EQ_INT(cell_workload_argv(&cl.cells[3], bad, 1, &argv, err, sizeof(err)), -1);
	CHECK_EQ_STR(err, "directory /mnt/a:b contains ':', which separates directories");
	CHECK_EQ_INT(cell_workload_argv(&cl.cells[3], dirs, 0, &argv, err, sizeof(err)), -1);
	done(m, &cl);
}

static void test_time_limit_and_estimate(void)
{
	struct machine mc = machine(4, GiB, 2 * GiB);
	struct cell_list cl;
	struct matrix *m;
	const char *auto_limit = "[dimensions]\nworkload = a\n"
				 "[workload.a]\nwriters = 1\nruntime = 20\n";
	const char *fixed = "[matrix]\ntime_limit = 10m\nrepeats = 3\n"
			    "[dimensions]\nworkload = a b\n"
			    "[workload.a]\nwriters = 1\nruntime = 20\n"
			    "[workload.a.x]\nwriters = 1\nruntime = 20\n"
			    "[workload.b]\nfio = rw=read size=10%\n";

	if (expand(auto_limit, &mc, 1, &m, &cl))
		return;
	/* a runtime-bound cell takes at least its runtime; auto is 300 s + 3 x estimate */
	CHECK(cl.cells[0].estimate_s > 20);
	CHECK(cl.cells[0].time_limit_s == 300 + 3 * cl.cells[0].estimate_s);
	CHECK_EQ_INT(cl.cells[0].repeats, 1);
	done(m, &cl);

	if (expand(fixed, &mc, 1, &m, &cl))
		return;
	CHECK(cl.cells[0].time_limit_s == 600); /* explicit: not scaled, not estimated */
	CHECK_EQ_INT(cl.cells[0].repeats, 3);
	CHECK(cl.cells[1].estimate_s < 0); /* a relative size and no runtime: unknown */
	done(m, &cl);
}

int main(void)
{
	char path[256];

	if (!mkdtemp(jobs_dir)) {
		perror("mkdtemp");
		return 1;
	}
	write_file("one.fio", "[global]\nioengine=libaio\nrw=read\nruntime=60\niodepth=16\n"
			      "direct=1\nsize=10G\nfilename=./testfile\nthread=1\n;bs=$bs\n"
			      ";numjobs=24\n[fio-run]\nnumjobs=24\n");
	write_file("two.fio", "[global]\nrw=write\n[a]\nsize=10m\nnumjobs=3\n[b]\nsize=20m\n");
	RUN_TEST(test_order_count_and_keys);
	RUN_TEST(test_rules_remove_combinations_before_numbering);
	RUN_TEST(test_settings_resolve_in_order);
	RUN_TEST(test_jbod_spreads_writers);
	RUN_TEST(test_hardware_rules_and_reasons);
	RUN_TEST(test_md_device_sizes);
	RUN_TEST(test_scale_rounds_and_keeps_minimums);
	RUN_TEST(test_scale_job_files_through_set);
	RUN_TEST(test_argv);
	RUN_TEST(test_time_limit_and_estimate);
	snprintf(path, sizeof(path), "rm -rf %s", jobs_dir);
	if (system(path))
		return 1;
	CHECK_EXIT();
}
