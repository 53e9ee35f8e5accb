// SPDX-License-Identifier: GPL-2.0
/* lib/atomic_file: the file whole or not at all, and the signal dispositions it borrows. */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"
#include "lib/atomic_file.h"
#include "records/report.h"

/*
 * fchmod as a filesystem that refuses modes (vfat, some FUSE) answers it,
 * when fail_fchmod is set: this definition stands in for libc's in the
 * whole binary, lib/atomic_file.c's call included.
 */
static bool fail_fchmod;

int fchmod(int fd, mode_t mode)
{
	if (fail_fchmod) {
		errno = EPERM;
		return -1;
	}
	return (int)syscall(SYS_fchmod, fd, mode);
}

static volatile sig_atomic_t caught;

static void on_term(int sig)
{
	(void)sig;
	caught++;
}

static void (*handler_of(int sig))(int)
{
	struct sigaction sa;

	sigaction(sig, NULL, &sa);
	return sa.sa_handler;
}

static void set_handler(int sig, void (*h)(int))
{
	struct sigaction sa = { 0 };

	sa.sa_handler = h;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

static char dir[64];

static void make_dir(void)
{
	snprintf(dir, sizeof(dir), "/tmp/test-atomic-XXXXXX");
	if (!mkdtemp(dir))
		abort();
}

static int entries(void)
{
	char cmd[128];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls -A %s | wc -l", dir);
	p = popen(cmd, "r");
	if (p && fscanf(p, "%d", &n) != 1)
		n = -1;
	if (p)
		pclose(p);
	return n;
}

static void remove_dir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		abort();
}

/* After a commit or an abort each signal does what it did before, not SIG_DFL. */
static void test_dispositions_restored(void)
{
	struct atomic_file af;
	char path[128], err[1024];

	make_dir();
	snprintf(path, sizeof(path), "%s/out", dir);
	set_handler(SIGTERM, on_term);
	set_handler(SIGHUP, SIG_IGN);
	set_handler(SIGINT, SIG_DFL);

	CHECK_EQ_INT(atomic_file_open(&af, path, err, sizeof(err)), 0);
	/* while it is open, SIGTERM and SIGINT remove the file; SIGHUP stays ignored */
	CHECK(handler_of(SIGTERM) != on_term);
	CHECK(handler_of(SIGINT) != SIG_DFL);
	CHECK(handler_of(SIGHUP) == SIG_IGN);
	CHECK_EQ_INT(atomic_file_write(&af, "x\n", 2, err, sizeof(err)), 0);
	CHECK_EQ_INT(atomic_file_commit(&af, err, sizeof(err)), 0);
	CHECK(handler_of(SIGTERM) == on_term);
	CHECK(handler_of(SIGHUP) == SIG_IGN);
	CHECK(handler_of(SIGINT) == SIG_DFL);

	CHECK_EQ_INT(atomic_file_open(&af, path, err, sizeof(err)), 0);
	atomic_file_abort(&af);
	CHECK(handler_of(SIGTERM) == on_term);
	CHECK(handler_of(SIGHUP) == SIG_IGN);
	CHECK(handler_of(SIGINT) == SIG_DFL);
	CHECK_EQ_INT(entries(), 1);

	set_handler(SIGTERM, SIG_DFL);
	set_handler(SIGHUP, SIG_DFL);
	remove_dir();
}

/* A signal while the file is open: the temporary file goes, then the caller's handler runs. */
static void test_signal_while_open(void)
{
	struct atomic_file af;
	char path[128], err[1024];

	make_dir();
	snprintf(path, sizeof(path), "%s/out", dir);
	set_handler(SIGTERM, on_term);
	caught = 0;
	CHECK_EQ_INT(atomic_file_open(&af, path, err, sizeof(err)), 0);
	CHECK_EQ_INT(entries(), 1);
	raise(SIGTERM);
	CHECK_EQ_INT(caught, 1);
	CHECK_EQ_INT(entries(), 0);
	CHECK(handler_of(SIGTERM) == on_term);
	atomic_file_abort(&af);
	CHECK(handler_of(SIGTERM) == on_term);
	set_handler(SIGTERM, SIG_DFL);
	remove_dir();
}

static int emit_line(FILE *f, const void *ctx)
{
	return fputs(ctx, f) < 0;
}

/*
 * report_atomic (the runner's --output): a failed fchmod still gives the
 * report, and its errors read "--output PATH: cause", as before atomic_file.
 * Other users of atomic_file (the image) still fail on it.
 */
static void test_report_atomic(void)
{
	struct atomic_file af;
	char path[128], want[256], err[1024] = "";
	struct stat st;

	make_dir();
	snprintf(path, sizeof(path), "%s/report", dir);
	fail_fchmod = true;
	CHECK_EQ_INT(report_atomic(path, emit_line, "report\n", err, sizeof(err)), 0);
	CHECK_EQ_STR(err, "");
	CHECK(!stat(path, &st) && st.st_size == 7);
	CHECK_EQ_INT(entries(), 1);
	CHECK_EQ_INT(atomic_file_open(&af, path, err, sizeof(err)), 0);
	CHECK_EQ_INT(atomic_file_commit(&af, err, sizeof(err)), -1);
	CHECK(strstr(err, "Operation not permitted") != NULL);
	fail_fchmod = false;
	CHECK_EQ_INT(entries(), 1);

	/* the messages: a directory missing, a directory as the path */
	snprintf(path, sizeof(path), "%s/missing/report", dir);
	CHECK_EQ_INT(report_atomic(path, emit_line, "x\n", err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "--output %s: No such file or directory", path);
	CHECK_EQ_STR(err, want);
	CHECK_EQ_INT(report_atomic(dir, emit_line, "x\n", err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "--output %s: Is a directory", dir);
	CHECK_EQ_STR(err, want);
	CHECK_EQ_INT(entries(), 1);
	remove_dir();
}

int main(void)
{
	RUN_TEST(test_dispositions_restored);
	RUN_TEST(test_signal_while_open);
	RUN_TEST(test_report_atomic);
	CHECK_EXIT();
}
