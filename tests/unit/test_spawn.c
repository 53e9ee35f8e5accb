// SPDX-License-Identifier: GPL-2.0
/*
 * Spawning and reaping as PID 1 does it. The test makes itself a child
 * subreaper, so orphans come back to it as they would to PID 1.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "runner/spawn.h"

static void test_exit_status(void)
{
	const char *const t[] = {"true", NULL};
	const char *const f[] = {"sh", "-c", "exit 3", NULL};
	char how[64];
	int status = -1;

	CHECK_EQ_INT(run_child(t, 10, NULL, &status), 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_EQ_INT(run_child(f, 10, NULL, &status), 0);
	CHECK_EQ_STR(spawn_status_str(status, how, sizeof(how)), "exit 3");
}

static void test_missing_program_exits_127(void)
{
	const char *const argv[] = {"/nonexistent/program", NULL};
	int status = -1;

	CHECK_EQ_INT(run_child(argv, 10, NULL, &status), 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 127);
}

static void test_timeout_kills_the_group(void)
{
	/* The grandchild sleeps in the same process group and must die with it. */
	const char *const argv[] = {"sh", "-c", "sleep 30 & sleep 30", NULL};
	char how[64];
	int status = -1;

	CHECK_EQ_INT(run_child(argv, 0.3, NULL, &status), SPAWN_ETIMEDOUT);
	CHECK_EQ_STR(spawn_status_str(status, how, sizeof(how)), "killed by signal 9 (Killed)");
	CHECK_EQ_STR(spawn_strerror(SPAWN_ETIMEDOUT), "timed out (killed)");
}

static void test_other_child_keeps_its_status(void)
{
	const char *const quick[] = {"sh", "-c", "exit 5", NULL};
	const char *const slow[] = {"sh", "-c", "sleep 0.3; exit 6", NULL};
	pid_t a = spawn(quick, NULL), b = spawn(slow, NULL);
	int status = -1;

	CHECK(a > 0 && b > 0);
	/* Waiting for b reaps a, which ends first; a's status must survive. */
	CHECK_EQ_INT(spawn_wait(b, 10, &status), 0);
	CHECK_EQ_INT(WEXITSTATUS(status), 6);
	CHECK_EQ_INT(spawn_wait(a, 10, &status), 0);
	CHECK_EQ_INT(WEXITSTATUS(status), 5);
	CHECK_EQ_INT(spawn_wait(a, 10, &status), -ECHILD);
}

static void test_orphans_are_reaped(void)
{
	/* The shell exits at once; its background child becomes ours and exits later. */
	const char *const argv[] = {"sh", "-c", "sleep 0.2 & exit 0", NULL};
	int status = -1, dropped = 0;

	CHECK_EQ_INT(run_child(argv, 10, NULL, &status), 0);
	for (int i = 0; i < 50 && !dropped; i++) {
		usleep(50 * 1000);
		dropped += reap_all();
	}
	CHECK_EQ_INT(dropped, 1);
	CHECK_EQ_INT(waitpid(-1, NULL, WNOHANG), -1); /* nothing left: no zombie */
}

static void test_redirection(void)
{
	const char *const argv[] = {"sh", "-c", "echo out; echo err >&2", NULL};
	char path[] = "/tmp/iomatrix-spawn-XXXXXX", buf[64] = "";
	int fd = mkstemp(path);
	struct spawn_opts o = {-1, fd, fd, false};
	int status = -1;
	ssize_t n;

	CHECK(fd >= 0);
	CHECK_EQ_INT(run_child(argv, 10, &o, &status), 0);
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	CHECK(n > 0);
	CHECK_EQ_STR(buf, "out\nerr\n");
	close(fd);
	unlink(path);
}

int main(void)
{
	CHECK_EQ_INT(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	CHECK_EQ_INT(spawn_init(), 0);
	RUN_TEST(test_exit_status);
	RUN_TEST(test_missing_program_exits_127);
	RUN_TEST(test_timeout_kills_the_group);
	RUN_TEST(test_other_child_keeps_its_status);
	RUN_TEST(test_orphans_are_reaped);
	RUN_TEST(test_redirection);
	CHECK_EXIT();
}
