// SPDX-License-Identifier: GPL-2.0
/* How a serial log becomes the exit status of iomatrix qemu; --disk-size and disk files. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "lib/dirs.h"
#include "qemu/commands.h"
#include "qemu/qemu_disks.h"
#include "qemu/qemu_log.h"

#define EXITED(code) ((code) << 8) /* a wait status for exit(code) */

static enum qemu_exit judge(const char *log, int status, bool timed_out, struct qemu_log_facts *f)
{
	qemu_log_scan(log, strlen(log), f);
	return qemu_log_exit_status(f, status, timed_out);
}

static void test_clean(void)
{
	struct qemu_log_facts f;

	CHECK_EQ_INT(judge("[ 0.1] boot\r\niomatrix: start: PID 1 on Linux 6.1 x86_64 t=2.31\r\n"
			   "iomatrix: power-off t=6.26\r\n[ 6.3] reboot: Power down\r\n",
			   EXITED(0), false, &f),
		     QEMU_EXIT_CLEAN);
	CHECK(f.started && f.powered_off && !f.panicked);
	CHECK(f.t_start > 2.30 && f.t_start < 2.32);
	CHECK(f.t_power_off > 6.25 && f.t_power_off < 6.27);
}

static void test_fatal_still_powers_off(void)
{
	struct qemu_log_facts f;

	CHECK_EQ_INT(judge("iomatrix: start: x t=1\niomatrix: FATAL: kernel command line: unknown "
			   "key iomatrix.x\niomatrix: power-off t=2\n",
			   EXITED(0), false, &f),
		     QEMU_EXIT_FATAL);
	CHECK_EQ_STR(f.fatal, "iomatrix: FATAL: kernel command line: unknown key iomatrix.x");
	CHECK(f.powered_off);
	/* FATAL without the power-off line: still the appliance's own report */
	CHECK_EQ_INT(judge("iomatrix: start: x t=1\niomatrix: FATAL: matrix x: no such\n",
			   EXITED(0), false, &f),
		     QEMU_EXIT_FATAL);
	/* a timeout or a panic says more than the FATAL line before it */
	CHECK_EQ_INT(judge("iomatrix: FATAL: x\n", EXITED(0), true, &f), QEMU_EXIT_TIMEOUT);
	CHECK_EQ_INT(
		judge("iomatrix: FATAL: x\nKernel panic - not syncing: y\n", EXITED(0), false, &f),
		QEMU_EXIT_CRASH);
}

static void test_panic_and_missing_power_off(void)
{
	struct qemu_log_facts f;

	CHECK_EQ_INT(judge("[ 1.0] Kernel panic - not syncing: Attempted to kill init! "
			   "exitcode=0x00000100\n",
			   EXITED(0), false, &f),
		     QEMU_EXIT_CRASH);
	CHECK_EQ_STR(f.panic,
		     "Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000100");
	CHECK_EQ_INT(judge("iomatrix: start: x t=1\n", EXITED(0), false, &f), QEMU_EXIT_CRASH);
	CHECK_EQ_INT(judge("", EXITED(0), false, &f), QEMU_EXIT_CRASH);
}

/* A reset with the watchdog armed: still a crash (the next boot resumes), said so. */
static void test_watchdog_reset(void)
{
	struct qemu_log_facts f;

	CHECK_EQ_INT(judge("iomatrix: start: x t=1\niomatrix: watchdog: /dev/watchdog armed, "
			   "timeout 10 s, fed while the matrix makes progress\n",
			   EXITED(0), false, &f),
		     QEMU_EXIT_CRASH);
	CHECK(f.watchdog_armed);
	CHECK_EQ_INT(judge("iomatrix: start: x t=1\niomatrix: watchdog: /dev/watchdog: No such "
			   "file or directory; running without one\n",
			   EXITED(0), false, &f),
		     QEMU_EXIT_CRASH);
	CHECK(!f.watchdog_armed);
}

static void test_timeout_and_qemu_failure(void)
{
	struct qemu_log_facts f;

	CHECK_EQ_INT(judge("iomatrix: start: x t=1\n", SIGTERM, true, &f), QEMU_EXIT_TIMEOUT);
	CHECK_EQ_INT(judge("", EXITED(1), false, &f), QEMU_EXIT_ERROR);
	/* A panic is the more specific cause, even when QEMU's status is not 0. */
	CHECK_EQ_INT(judge("Kernel panic - not syncing: x\n", EXITED(1), false, &f),
		     QEMU_EXIT_CRASH);
}

static void test_oops_noted(void)
{
	struct qemu_log_facts f;

	CHECK_EQ_INT(judge("[ 3.0] BUG: kernel NULL pointer dereference, address: 0\n"
			   "iomatrix: power-off t=4\n",
			   EXITED(0), false, &f),
		     QEMU_EXIT_CLEAN);
	CHECK(f.oops);
	CHECK_EQ_STR(f.first_oops, "BUG: kernel NULL pointer dereference, address: 0");
}

/* Feeds text in pieces of step bytes, then the end; the shown text in out. */
static const char *live(const char *text, size_t step)
{
	static char out[65536];
	struct qemu_live_filter f = {0};
	size_t k = 0, len = strlen(text);

	for (size_t i = 0; i < len; i += step)
		k += qemu_live_filter(&f, text + i, i + step < len ? step : len - i, out + k);
	k += qemu_live_filter(&f, NULL, 0, out + k);
	out[k] = '\0';
	return out;
}

static void test_live_without_kernel(void)
{
	static const char in[] = "[    0.000000] Linux version 6.1.0\r\n"
				 "iomatrix: start: PID 1 t=2.31\r\n"
				 "[   19.590676] EXT4-fs (vda): mounting ext3 file system\r\n"
				 "[  12.5] fewer digits: a stamp still\r\n"
				 "[x] a line of the runner's\r\n"
				 "[ 1.2] pr_cont text iomatrix: cell 2/22: start\r\n"
				 "\r\n"
				 "[   99.1] Kernel panic - not syncing: sysrq triggered crash\r\n"
				 "[   99.2] Oops: 0000 [#1] PREEMPT SMP\r\n"
				 "~ # ";
	static const char want[] = "iomatrix: start: PID 1 t=2.31\r\n"
				   "[x] a line of the runner's\r\n"
				   "iomatrix: cell 2/22: start\r\n"
				   "\r\n"
				   "[   99.1] Kernel panic - not syncing: sysrq triggered crash\r\n"
				   "[   99.2] Oops: 0000 [#1] PREEMPT SMP\r\n"
				   "~ # ";

	/* whole, a byte at a time, and in pieces that split the stamps */
	CHECK_EQ_STR(live(in, sizeof(in)), want);
	CHECK_EQ_STR(live(in, 1), want);
	CHECK_EQ_STR(live(in, 7), want);
	/* a prompt is shown before its line ends; a "[" line that is no stamp too */
	CHECK_EQ_STR(live("~ # ", 1), "~ # ");
	CHECK_EQ_STR(live("[ 1", 1), "[ 1");
	CHECK_EQ_STR(live("[1.5]", 5), "");
	/* a kernel line longer than the buffer still ends, and the next is shown */
	{
		static char big[2048];

		memset(big, 'k', sizeof(big));
		memcpy(big, "[ 1.0] ", 7);
		memcpy(big + sizeof(big) - 8, "\nabc\n", 6);
		big[sizeof(big) - 2] = '\0';
		CHECK_EQ_STR(live(big, 100), "abc\n");
	}
}

/* iomatrix qemu ARGS... with stderr thrown away: its exit status. */
static int qemu_status(const char *const *words)
{
	char *argv[16];
	int argc = 0, saved, devnull, code;

	argv[argc++] = (char *)"qemu";
	while (*words)
		argv[argc++] = (char *)*words++;
	argv[argc] = NULL;
	fflush(stderr);
	saved = dup(2);
	devnull = open("/dev/null", O_WRONLY);
	dup2(devnull, 2);
	close(devnull);
	code = cmd_qemu(argc, argv);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	return code;
}

/*
 * --disk-size as iomatrix qemu reads it (lib/cli's CLI_SIZE; test_cli.c
 * checks the bytes "1G" and "512MiB" come to): a size it takes gets past the
 * options to the missing kernel (1), one it does not is a usage error (2).
 */
/* rm -r, for the work directory cmd_qemu fills */
static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void test_disk_size_option(void)
{
	static const char *const good[] = { "1G", "512MiB", "4096" };
	static const char *const bad[] = { "2x", "-1G", "99999999999T", "4095" };
	/* cmd_qemu makes WORK/qemu: a temporary WORK, not build/tests/ beside this binary */
	char work[] = "/tmp/iomatrix-qemu-work-XXXXXX", made[sizeof(work) + 8];
	const char *was = getenv(DIRS_WORK_ENV);
	char *saved = was ? strdup(was) : NULL;
	struct stat st;

	CHECK(mkdtemp(work) != NULL);
	setenv(DIRS_WORK_ENV, work, 1);

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		CHECK_EQ_INT(qemu_status((const char *const[]){ "--kernel", "/nonexistent/bzImage",
								"--disk-size", good[i], NULL }),
			     QEMU_EXIT_ERROR);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_EQ_INT(qemu_status((const char *const[]){ "--kernel", "/nonexistent/bzImage",
								"--disk-size", bad[i], NULL }),
			     QEMU_EXIT_USAGE);
	snprintf(made, sizeof(made), "%s/qemu", work);
	CHECK(!stat(made, &st) && S_ISDIR(st.st_mode)); /* it wrote there, not beside us */
	CHECK_EQ_INT(nftw(work, remove_one, 16, FTW_DEPTH | FTW_PHYS), 0);
	CHECK(stat(work, &st) && errno == ENOENT);
	if (saved)
		setenv(DIRS_WORK_ENV, saved, 1);
	else
		unsetenv(DIRS_WORK_ENV);
	free(saved);
}

static void test_disk_files_sparse_and_reused(void)
{
	char dir[] = "/tmp/iomatrix-qd-XXXXXX", err[QD_ERR_LEN];
	static struct qemu_disk d[2];
	struct stat st;

	CHECK(mkdtemp(dir) != NULL);
	CHECK_EQ_INT(qd_create(dir, 2, 1ULL << 30, false, d, err, sizeof(err)), 0);
	CHECK_EQ_STR(d[1].serial, "iomatrix-disk1");
	CHECK_EQ_INT(stat(d[1].path, &st), 0);
	CHECK_EQ_INT(st.st_size, 1LL << 30);
	CHECK(st.st_blocks == 0);
	CHECK_EQ_INT(qd_create(dir, 2, 1ULL << 30, false, d, err, sizeof(err)), 0);
	CHECK_EQ_INT(qd_create(dir, 1, 1ULL << 20, false, d, err, sizeof(err)), -1);
	CHECK(strstr(err, "exists with another size") != NULL);
	unlink(d[0].path);
	unlink(d[1].path);
	rmdir(dir);
}

static void test_passthrough_refusals(void)
{
	static struct qemu_disk d;
	char err[QD_ERR_LEN];

	CHECK_EQ_INT(qd_passthrough("--disk", "/nonexistent/disk", 0, &d, err, sizeof(err)), -1);
	CHECK_EQ_STR(err, "--disk /nonexistent/disk: No such file or directory");
	CHECK_EQ_INT(qd_passthrough("--disk", "/dev/null", 0, &d, err, sizeof(err)), -1);
	CHECK_EQ_STR(err, "--disk /dev/null: neither a file nor a block device");
}

int main(void)
{
	RUN_TEST(test_clean);
	RUN_TEST(test_fatal_still_powers_off);
	RUN_TEST(test_panic_and_missing_power_off);
	RUN_TEST(test_timeout_and_qemu_failure);
	RUN_TEST(test_watchdog_reset);
	RUN_TEST(test_oops_noted);
	RUN_TEST(test_live_without_kernel);
	RUN_TEST(test_disk_size_option);
	RUN_TEST(test_disk_files_sparse_and_reused);
	RUN_TEST(test_passthrough_refusals);
	CHECK_EXIT();
}
