// SPDX-License-Identifier: GPL-2.0
/*
 * The pieces of a cell's setup that are pure: the mdadm and mkfs command
 * lines, mount options, the scheduler read back, output tails, durations,
 * the system counters' parsers and the workload report's headline.
 */
#include <stdlib.h>
#include <sys/mount.h>
#include <unistd.h>

#include "runner/setup/array.h"
#include "check.h"
#include "runner/setup/fs.h"
#include "runner/machine_info.h"
#include "matrix/matrix.h"
#include "runner/run/progress.h"
#include "runner/setup/step.h"
#include "runner/run/sysstat.h"
#include "runner/setup/tune.h"
#include "runner/run/workload.h"

static const char *joined(const char **argv, char *buf, size_t len)
{
	return step_join_argv(argv, buf, len);
}

static void test_mdadm_command(void)
{
	const char *members[] = {"/dev/vda", "/dev/vdb", "/dev/vdc"};
	const char *argv[32];
	char buf[256], line[512];
	struct cell c = {.array = ARRAY_RAID5, .chunk_bytes = 64 << 10,
			 .resync = RESYNC_ASSUME_CLEAN};

	CHECK_EQ_INT(array_create_argv(&c, members, 3, "/dev/md0", argv, 32, buf, sizeof(buf)),
		     12);
	CHECK_EQ_STR(joined(argv, line, sizeof(line)),
		     "mdadm --create /dev/md0 --run --metadata=1.2 --level=raid5 --raid-devices=3 "
		     "--chunk=64K --assume-clean /dev/vda /dev/vdb /dev/vdc");
	c.resync = RESYNC_WAIT;
	c.array = ARRAY_RAID10;
	array_create_argv(&c, members, 2, "/dev/md1", argv, 32, buf, sizeof(buf));
	CHECK_EQ_STR(joined(argv, line, sizeof(line)),
		     "mdadm --create /dev/md1 --run --metadata=1.2 --level=raid10 --raid-devices=2 "
		     "--chunk=64K --layout=n2 /dev/vda /dev/vdb");
	/* no chunk and no --assume-clean where they mean nothing */
	c.resync = RESYNC_ASSUME_CLEAN;
	c.array = ARRAY_LINEAR;
	array_create_argv(&c, members, 2, "/dev/md2", argv, 32, buf, sizeof(buf));
	CHECK_EQ_STR(joined(argv, line, sizeof(line)),
		     "mdadm --create /dev/md2 --run --metadata=1.2 --level=linear --raid-devices=2 "
		     "/dev/vda /dev/vdb");
	c.array = ARRAY_RAID0;
	array_create_argv(&c, members, 2, "/dev/md3", argv, 32, buf, sizeof(buf));
	CHECK(strstr(joined(argv, line, sizeof(line)), "--chunk=64K /dev/vda") != NULL);
	CHECK(!strstr(line, "--assume-clean"));
	CHECK_EQ_INT(array_create_argv(&c, members, 3, "/dev/md0", argv, 8, buf, sizeof(buf)), -1);
}

static void test_mkfs_command(void)
{
	const char *argv[FS_ARGV_MAX];
	char buf[256], line[512];

	CHECK_EQ_INT(fs_mkfs_argv(FS_EXT4, "-E lazy_itable_init=0,lazy_journal_init=0  -J size=64",
				  "/dev/md0", argv, FS_ARGV_MAX, buf, sizeof(buf)),
		     9);
	CHECK_EQ_STR(joined(argv, line, sizeof(line)),
		     "mke2fs -t ext4 -F -E lazy_itable_init=0,lazy_journal_init=0 -J size=64 "
		     "/dev/md0");
	fs_mkfs_argv(FS_XFS, "", "/dev/vda", argv, FS_ARGV_MAX, buf, sizeof(buf));
	CHECK_EQ_STR(joined(argv, line, sizeof(line)), "mkfs.xfs -f /dev/vda");
	fs_mkfs_argv(FS_BTRFS, NULL, "/dev/vda", argv, FS_ARGV_MAX, buf, sizeof(buf));
	CHECK_EQ_STR(joined(argv, line, sizeof(line)), "mkfs.btrfs -f /dev/vda");
	fs_mkfs_argv(FS_EXT2, "-b 4096", "/dev/vda", argv, FS_ARGV_MAX, buf, sizeof(buf));
	CHECK_EQ_STR(joined(argv, line, sizeof(line)), "mke2fs -t ext2 -F -b 4096 /dev/vda");
	CHECK_EQ_INT(fs_mkfs_argv(FS_EXT4, "-a -b -c -d", "/dev/vda", argv, 8, buf, sizeof(buf)),
		     -1);
}

static void test_mount_options(void)
{
	unsigned long flags;
	char data[64];

	CHECK_EQ_INT(fs_mount_options("noatime,dioread_nolock,nodiratime,commit=60", &flags, data,
				      sizeof(data)),
		     0);
	CHECK_EQ_INT(flags, MS_NOATIME | MS_NODIRATIME);
	CHECK_EQ_STR(data, "dioread_nolock,commit=60");
	CHECK_EQ_INT(fs_mount_options("", &flags, data, sizeof(data)), 0);
	CHECK_EQ_INT(flags, 0);
	CHECK_EQ_STR(data, "");
	fs_mount_options("sync,async,ro,rw,defaults", &flags, data, sizeof(data));
	CHECK_EQ_INT(flags, 0);
	CHECK_EQ_STR(data, "");
	CHECK_EQ_INT(fs_mount_options("a_very_long_option_name=1,another_one_that_is_long=2,x=3",
				      &flags, data, 32),
		     -1);
}

static void test_scheduler_read_back(void)
{
	char out[32];

	tune_scheduler_current("none [mq-deadline] kyber bfq\n", out, sizeof(out));
	CHECK_EQ_STR(out, "mq-deadline");
	tune_scheduler_current("[none] mq-deadline\n", out, sizeof(out));
	CHECK_EQ_STR(out, "none");
	tune_scheduler_current("none\n", out, sizeof(out));
	CHECK_EQ_STR(out, "none");
	tune_scheduler_current("", out, sizeof(out));
	CHECK_EQ_STR(out, "");
}

static void test_file_tail(void)
{
	char path[] = "/tmp/iomatrix-tail-XXXXXX", out[256];
	int fd = mkstemp(path);
	const char text[] = "one\n\ntwo\n  three\r\nfour\tfive\n\n";

	CHECK(fd >= 0);
	CHECK_EQ_INT(write(fd, text, sizeof(text) - 1), sizeof(text) - 1);
	close(fd);
	step_file_tail(path, 3, out, sizeof(out));
	CHECK_EQ_STR(out, "two | three  | four?five");
	step_file_tail(path, 1, out, sizeof(out));
	CHECK_EQ_STR(out, "four?five");
	unlink(path);
	step_file_tail(path, 3, out, sizeof(out));
	CHECK_EQ_STR(out, "");
}

static void test_error_line(void)
{
	struct step_error e;
	char line[STEP_ERROR_LINE_MAX];

	step_fail(&e, "mkfs", "mkfs.xfs -f /dev/md0", "exit 1", "agsize too small | usage");
	CHECK_EQ_STR(step_error_line(&e, line, sizeof(line)),
		     "mkfs: mkfs.xfs -f /dev/md0: exit 1: agsize too small | usage");
	step_fail(&e, "mount", "mount -t ext4 /dev/vda /mnt/d0", "mount(2): Invalid argument", "");
	CHECK_EQ_STR(step_error_line(&e, line, sizeof(line)),
		     "mount: mount -t ext4 /dev/vda /mnt/d0: mount(2): Invalid argument");
}

static void test_durations(void)
{
	char b[32];

	CHECK_EQ_STR(progress_duration(0.04, b, sizeof(b)), "0.0 s");
	CHECK_EQ_STR(progress_duration(2.46, b, sizeof(b)), "2.5 s");
	CHECK_EQ_STR(progress_duration(45.4, b, sizeof(b)), "45 s");
	CHECK_EQ_STR(progress_duration(62, b, sizeof(b)), "1m02s");
	CHECK_EQ_STR(progress_duration(3725, b, sizeof(b)), "1h02m");
	CHECK_EQ_STR(progress_duration(-1, b, sizeof(b)), "?");
}

static void test_counters(void)
{
	static struct sysstat a, b;
	const char *devs[] = {"vda", "md0", "gone"};
	char out[4096];
	FILE *f;
	struct jw j;

	CHECK_EQ_INT(vmstat_parse("nr_free_pages 100\npgpgin 10\npgpgout 20\n", &a.vm), 0);
	CHECK_EQ_INT(vmstat_parse("nr_free_pages 90\npgpgin 10\npgpgout 50\nnew_one 3\n", &b.vm),
		     0);
	CHECK_EQ_INT(a.vm.n, 3);
	diskstats_parse(" 252 0 vda 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n"
			"   9 0 md0 1 0 8 0 2 0 16 0 0 0 0\n",
			devs, 3, &a.disk);
	diskstats_parse(" 252 0 vda 2 2 13 4 15 6 17 8 0 20 11 12 13 14 15 18 17\n"
			"   9 0 md0 3 0 24 0 2 0 16 0 0 0 0\n",
			devs, 3, &b.disk);
	CHECK(a.disk.found[0] && a.disk.found[1] && !a.disk.found[2]);
	CHECK_EQ_INT(a.disk.nfields[1], 11);
	CHECK_EQ_INT(cpustat_parse("cpu  100 0 50 800 50 0 0 0 0 0\ncpu0 1 2 3\n", &a.cpu), 0);
	CHECK_EQ_INT(cpustat_parse("cpu  200 0 100 1400 100 0 0 0 0 0\n", &b.cpu), 0);
	CHECK_EQ_INT(cpustat_parse("intr 1 2 3\n", &b.cpu), -1);
	CHECK_EQ_INT(cpustat_parse("cpu  200 0 100 1400 100 0 0 0 0 0\n", &b.cpu), 0);

	f = fmemopen(out, sizeof(out), "w");
	jw_init(&j, f, false);
	jw_obj_begin(&j, NULL);
	sysstat_write_delta(&j, &a, &b);
	jw_obj_end(&j);
	fputc('\0', f);
	fclose(f);
	CHECK(strstr(out, "\"vmstat_delta\":{\"nr_free_pages\":-10,\"pgpgout\":30}") != NULL);
	CHECK(strstr(out, "\"vda\":{\"reads\":1,\"reads_merged\":0,\"sectors_read\":10,") != NULL);
	CHECK(strstr(out, "\"in_flight\":0,\"io_ticks_ms\":10,") != NULL);
	CHECK(strstr(out, "\"flushes\":2,\"flush_ticks_ms\":0}") != NULL);
	/* an older kernel's 11 fields: the rest are null */
	CHECK(strstr(out, "\"md0\":{\"reads\":2,\"reads_merged\":0,\"sectors_read\":16,") != NULL);
	CHECK(strstr(out, "\"time_in_queue_ms\":0,\"discards\":null,") != NULL);
	CHECK(strstr(out, "\"gone\":null") != NULL);
	CHECK(strstr(out, "\"cpu\":{\"user_pct\":12.500000,\"nice_pct\":0.000000,"
			  "\"system_pct\":6.250000,\"idle_pct\":75.000000,\"iowait_pct\":6.250000,")
	      != NULL);
}

static void test_machine_facts(void)
{
	char model[64];

	machine_cpu_model("processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: QEMU "
			  "Virtual CPU version 2.5+\nflags\t: fpu\n",
			  model, sizeof(model));
	CHECK_EQ_STR(model, "QEMU Virtual CPU version 2.5+");
	machine_cpu_model("processor : 0\n", model, sizeof(model));
	CHECK_EQ_STR(model, "");
	CHECK_EQ_INT(machine_mem_kb("MemTotal:        2014104 kB\nMemFree: 1 kB\n"), 2014104);
	CHECK_EQ_INT(machine_mem_kb("nothing"), 0);
}

static void test_headline(void)
{
	const char *fio = "{\"fio version\":\"x\",\"jobs\":[{\"jobname\":\"a\",\"error\":0,"
			  "\"read\":{\"io_bytes\":4096,\"bw_bytes\":1048576,\"iops\":256.0},"
			  "\"write\":{\"io_bytes\":0,\"bw_bytes\":0,\"iops\":0}},"
			  "{\"jobname\":\"a\",\"error\":0,\"read\":{\"io_bytes\":4096,"
			  "\"bw_bytes\":1048576,\"iops\":12000.5},\"write\":{\"io_bytes\":0,"
			  "\"bw_bytes\":0,\"iops\":0},\"clat_ns\":{\"percentile\":{\"99.000000\":5}}}]}";
	const char *dd = "{ \"writers\" : 4, \"io_bytes\" : 67108864, \"bw_bytes\" : 1.5e8 }";
	struct headline h;
	char err[256], min[1024], line[128];
	size_t n;

	CHECK_EQ_INT(workload_parse(WORKLOAD_FIO, fio, strlen(fio), min, &n, &h, err, sizeof(err)),
		     0);
	CHECK_EQ_INT(h.jobs, 2);
	CHECK(h.read_bw == 2097152 && h.read_iops == 12256.5 && h.write_bw == 0);
	CHECK_EQ_INT(h.failed_job, -1);
	CHECK_EQ_STR(headline_str(&h, line, sizeof(line)), "read 2.0 MiB/s 12.3k IOPS");
	CHECK_EQ_INT(workload_parse(WORKLOAD_DD, dd, strlen(dd), min, &n, &h, err, sizeof(err)), 0);
	CHECK_EQ_STR(min, "{\"writers\":4,\"io_bytes\":67108864,\"bw_bytes\":1.5e8}");
	CHECK_EQ_INT(n, strlen(min));
	CHECK_EQ_STR(headline_str(&h, line, sizeof(line)), "write 143.1 MiB/s");
	CHECK_EQ_INT(h.jobs, 4);
	CHECK_EQ_STR(h.dd_error, "");
	dd = "{\"error\":\"writer 3: ENOSPC\"}";
	CHECK_EQ_INT(workload_parse(WORKLOAD_DD, dd, strlen(dd), NULL, NULL, &h, err, sizeof(err)),
		     0);
	CHECK_EQ_STR(h.dd_error, "writer 3: ENOSPC");

	CHECK_EQ_INT(workload_parse(WORKLOAD_FIO, "{\"jobs\":[]}", 11, NULL, NULL, &h, err,
				    sizeof(err)),
		     -1);
	CHECK_EQ_STR(err, "the report has no jobs");
	CHECK_EQ_INT(workload_parse(WORKLOAD_DD, "note: x\n{}", 10, NULL, NULL, &h, err,
				    sizeof(err)),
		     -1);
	CHECK_EQ_STR(err, "the report is not valid JSON: byte 0: not a value");
	CHECK_EQ_INT(workload_parse(WORKLOAD_DD, "[1]", 3, NULL, NULL, &h, err, sizeof(err)), -1);
	CHECK_EQ_STR(err, "the report is not a JSON object");
	CHECK_EQ_INT(workload_parse(WORKLOAD_FIO,
				    "{\"jobs\":[{\"jobname\":\"a\",\"error\":5,\"read\":{}}]}", 46,
				    NULL, NULL, &h, err, sizeof(err)),
		     0);
	CHECK_EQ_INT(h.failed_job, 0);
	CHECK_EQ_INT(h.job_error, 5);
}

int main(void)
{
	RUN_TEST(test_mdadm_command);
	RUN_TEST(test_mkfs_command);
	RUN_TEST(test_mount_options);
	RUN_TEST(test_scheduler_read_back);
	RUN_TEST(test_file_tail);
	RUN_TEST(test_error_line);
	RUN_TEST(test_durations);
	RUN_TEST(test_counters);
	RUN_TEST(test_machine_facts);
	RUN_TEST(test_headline);
	CHECK_EXIT();
}
