// SPDX-License-Identifier: GPL-2.0
/*
 * The runner's records against the host's reader: an ok jbod cell, a
 * failed md cell and a skipped cell are built with record_build and must
 * pass record_check (what iomatrix extract accepts) with every key of
 * docs/records.md present, null where nothing could be had.
 */
#include <stdlib.h>

#include "runner/run/cell_result.h"
#include "runner/run/cell_run.h"
#include "check.h"
#include "matrix/matrix.h"
#include "runner/run/record.h"
#include "records/record_check.h"

static const char matrix_text[] = "[matrix]\n"
				  "name = t\n"
				  "[dimensions]\n"
				  "array = jbod raid5\n"
				  "fs = ext4 xfs\n"
				  "[defaults]\n"
				  "workload = dd\n"
				  "[workload.dd]\n"
				  "writers = 2\n"
				  "size = 8m\n";

static const char *const every_key[] = {
	"iomatrix_record",
	"run_id",
	"seq",
	"boot",
	"matrix",
	"scale",
	"cell",
	"repeat",
	"status",
	"error",
	"error_detail",
	"teardown_error",
	"crash",
	"kernel",
	"machine",
	"settings",
	"disks",
	"array",
	"fs",
	"times",
	"workload",
	"headline",
	"vmstat_delta",
	"diskstats_delta",
	"cpu",
};

static struct machine_info mi = {
	.release = "6.1.0-57-amd64",
	.version = "#1 SMP",
	.proc_version = "Linux version 6.1.0-57-amd64",
	.cmdline = "console=ttyS0 iomatrix.matrix=t",
	.cpu_model = "QEMU Virtual CPU",
	.cpus = 2,
	.mem_kb = 2014104,
};

static struct disk_choice disks[2];
static struct sysstat before, after;

static json_object *built(const struct record_run *run, uint32_t seq, const struct cell_result *r)
{
	char why[256];
	size_t len = 0;
	char *text = record_build(run, seq, r, &len);
	json_object *o;

	CHECK(text != NULL);
	if (!text)
		return NULL;
	CHECK_EQ_INT(strlen(text), len);
	o = record_check(text, len, seq, why, sizeof(why));
	if (!o)
		printf("# record_check: %s\n%s\n", why, text);
	CHECK(o != NULL);
	free(text);
	for (size_t i = 0; o && i < sizeof(every_key) / sizeof(every_key[0]); i++)
		if (!json_object_object_get_ex(o, every_key[i], NULL))
			printf("# key %s missing\n", every_key[i]), check_failures++;
	return o;
}

static const char *str(json_object *o, const char *path)
{
	return json_object_get_string(record_get(o, path));
}

static bool is_null(json_object *o, const char *path)
{
	json_object *v;
	char parent[128], *dot;

	snprintf(parent, sizeof(parent), "%s", path);
	dot = strrchr(parent, '.');
	if (dot) {
		*dot = '\0';
		o = record_get(o, parent);
	}
	return o && json_object_object_get_ex(o, dot ? dot + 1 : path, &v) && v == NULL;
}

static void test_records(void)
{
	struct matrix_load_opts lo = {0};
	struct machine mc = {
		.ndisks = 2, .disk_bytes = {1ull << 30, 1ull << 30}, .mem_bytes = 2ull << 30};
	struct record_run run = {"5f0c9a1e7d2b4c38", "t", 1, 0, &mi, 2};
	static struct cell_result r;
	char err[MATRIX_ERR_LEN];
	struct cell_list cl;
	struct matrix *m;
	json_object *o;

	m = matrix_load_buffer("t.matrix", matrix_text, sizeof(matrix_text) - 1, &lo, err,
			       sizeof(err));
	if (!m)
		printf("# %s\n", err);
	CHECK(m != NULL);
	if (!m)
		return;
	CHECK_EQ_INT(matrix_expand(m, &mc, 0, &cl, err, sizeof(err)), 0);
	run.cell_count = cl.count;
	for (int i = 0; i < 2; i++) {
		snprintf(disks[i].disk.name, sizeof(disks[i].disk.name), "vd%c", 'a' + i);
		snprintf(disks[i].disk.serial, sizeof(disks[i].disk.serial), "iomatrix-disk%d", i);
		snprintf(disks[i].disk.transport, sizeof(disks[i].disk.transport), "virtio");
		snprintf(disks[i].path, sizeof(disks[i].path), "/dev/vd%c", 'a' + i);
		disks[i].disk.size_bytes = 1ull << 30;
	}
	vmstat_parse("pgpgout 1\n", &before.vm);
	vmstat_parse("pgpgout 9\n", &after.vm);

	/* cell 1: jbod ext4, ok, with the dd report embedded */
	memset(&r, 0, sizeof(r));
	r.cell = &cl.cells[0];
	r.status = CELL_OK;
	r.ndisks = r.nfs = 2;
	for (int i = 0; i < 2; i++) {
		r.disks[i].d = &disks[i];
		snprintf(r.fs[i].dev, sizeof(r.fs[i].dev), "/dev/vd%c", 'a' + i);
		snprintf(r.fs[i].mnt, sizeof(r.fs[i].mnt), "/mnt/d%d", i);
		r.fs[i].readahead = 256;
	}
	r.ran = true;
	r.w.json = strdup("{\"writers\":2,\"bw_bytes\":1000}");
	r.w.h.write_bw = 1000;
	r.steps[r.nsteps++] = (struct cell_step_time){"mkfs", 1.5};
	r.have_stats = true;
	r.before = &before;
	r.after = &after;
	o = built(&run, 1, &r);
	CHECK_EQ_INT(record_get_int(o, "cell.index"), 1);
	CHECK_EQ_INT(record_get_int(o, "cell.count"), 4);
	CHECK_EQ_STR(str(o, "cell.key"), "array=jbod fs=ext4");
	CHECK_EQ_STR(str(o, "cell.dims.fs"), "ext4");
	CHECK_EQ_STR(str(o, "status"), "ok");
	CHECK(is_null(o, "error"));
	CHECK_EQ_INT(record_get_int(o, "workload.dd.bw_bytes"), 1000);
	CHECK_EQ_STR(str(o, "array.level"), "jbod");
	CHECK(is_null(o, "array.device"));
	CHECK_EQ_INT(record_get_int(o, "vmstat_delta.pgpgout"), 8);
	CHECK_EQ_STR(str(o, "kernel.release"), "6.1.0-57-amd64");
	CHECK_EQ_INT(record_get_int(o, "machine.cpus"), 2);
	CHECK(json_object_get_double(record_get(o, "times.steps.mkfs")) == 1.5);
	CHECK_EQ_INT(json_object_array_length(record_get(o, "fs.filesystems")), 2);
	json_object_put(o);
	free(r.w.json);

	/* cell 3: raid5 ext4, mkfs failed */
	memset(&r, 0, sizeof(r));
	r.cell = &cl.cells[2];
	r.status = CELL_FAILED;
	r.ndisks = 2;
	r.nfs = 1;
	r.disks[0].d = &disks[0];
	r.disks[1].d = &disks[1];
	r.has_array = true;
	snprintf(r.array.name, sizeof(r.array.name), "md0");
	r.array.resync_s = -1;
	r.has_detail = true;
	step_fail(&r.detail, "mkfs", "mke2fs -t ext4 -F /dev/md0", "exit 1", "bad \"option\"");
	step_error_line(&r.detail, r.error, sizeof(r.error));
	o = built(&run, 2, &r);
	CHECK_EQ_STR(str(o, "status"), "failed");
	CHECK_EQ_STR(str(o, "error"), "mkfs: mke2fs -t ext4 -F /dev/md0: exit 1: bad \"option\"");
	CHECK_EQ_STR(str(o, "error_detail.step"), "mkfs");
	CHECK_EQ_STR(str(o, "error_detail.output"), "bad \"option\"");
	CHECK_EQ_STR(str(o, "array.device"), "md0");
	CHECK(is_null(o, "workload.dd"));
	CHECK(is_null(o, "headline"));
	CHECK(is_null(o, "vmstat_delta"));
	json_object_put(o);

	/* cell 4: skipped */
	cell_skip(&r, &cl.cells[3], 0, "raid5 needs 3 disks, 2 given");
	o = built(&run, 3, &r);
	CHECK_EQ_STR(str(o, "status"), "skipped");
	CHECK_EQ_STR(str(o, "error"), "raid5 needs 3 disks, 2 given");
	CHECK(is_null(o, "disks") && is_null(o, "array") && is_null(o, "fs"));
	CHECK(is_null(o, "times.setup_s"));
	CHECK_EQ_STR(str(o, "settings.array"), "raid5");
	CHECK(is_null(o, "crash"));
	CHECK_EQ_INT(record_get_int(o, "boot"), 2);
	json_object_put(o);

	/* cell 2: the machine died in its workload on boot 1; recorded on boot 2 */
	{
		struct cell_crash crash = {1, "workload", "", 1796014692, 2};

		cell_crashed(&r, &cl.cells[1], 0, &crash);
	}
	o = built(&run, 4, &r);
	CHECK_EQ_STR(str(o, "status"), "crashed");
	CHECK_EQ_STR(str(o, "error"),
		     "crashed: the machine died during workload (since "
		     "2026-11-30T04:58:12Z) on boot 1 of the run; recorded on boot 2");
	CHECK_EQ_STR(str(o, "error_detail.step"), "workload");
	CHECK_EQ_STR(str(o, "error_detail.status"), "crashed (no record after boot 1)");
	CHECK(is_null(o, "error_detail.command") && is_null(o, "error_detail.output"));
	CHECK_EQ_INT(record_get_int(o, "crash.boot"), 1);
	CHECK_EQ_INT(record_get_int(o, "crash.recorded_boot"), 2);
	CHECK_EQ_STR(str(o, "crash.stage"), "workload");
	CHECK(is_null(o, "crash.step"));
	CHECK(json_object_get_double(record_get(o, "crash.since_unix")) == 1796014692);
	CHECK(json_object_get_double(record_get(o, "times.start_unix")) == 1796014692);
	CHECK(is_null(o, "times.setup_s") && is_null(o, "disks") && is_null(o, "workload.dd"));
	json_object_put(o);

	/* in setup: the step too */
	{
		struct cell_crash crash = {3, "setup", "mkfs", 1796014692, 4};

		cell_crashed(&r, &cl.cells[1], 1, &crash);
	}
	o = built(&run, 5, &r);
	CHECK(strstr(str(o, "error"), "died during setup: mkfs (since ") != NULL);
	CHECK_EQ_STR(str(o, "error_detail.step"), "mkfs");
	CHECK_EQ_STR(str(o, "crash.step"), "mkfs");
	json_object_put(o);

	cell_list_free(&cl);
	matrix_free(m);
}

int main(void)
{
	RUN_TEST(test_records);
	CHECK_EXIT();
}
