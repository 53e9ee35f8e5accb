// SPDX-License-Identifier: GPL-2.0
/* The test-only crash and hang switches; see test_point.h. */
#include "runner/run/test_point.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "runner/console.h"
#include "runner/watchdog.h"

#define SYSRQ_TRIGGER "/proc/sysrq-trigger"

struct test_point {
	const char *key;
	const char *value;
	int cell;
	const char *stage;
	bool armed;
};

static struct test_point crash = {.key = "test_crash"}, hang = {.key = "test_hang"};

static void arm(struct test_point *t, const char *value, unsigned boot)
{
	t->armed = false;
	t->value = value;
	if (cmdline_testpoint_parse(value, &t->cell, &t->stage))
		return;
	if (boot > 1) {
		con_say("test: iomatrix.%s=%s: not on boot %u of the run (only the first)", t->key,
			value, boot);
		return;
	}
	t->armed = true;
	con_say("test: iomatrix.%s=%s armed: cell [#%d] %s, TEST ONLY", t->key, value, t->cell,
		t->stage);
}

void test_points_arm(const struct appliance_config *cfg, unsigned boot)
{
	arm(&crash, cfg->test_crash, boot);
	arm(&hang, cfg->test_hang, boot);
}

static void sysrq_crash(void)
{
	int fd = open(SYSRQ_TRIGGER, O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write(fd, "c", 1) != 1)
		con_say("test: %s: %s: the kernel did not crash", SYSRQ_TRIGGER, strerror(errno));
	if (fd >= 0)
		close(fd);
}

static bool reached(struct test_point *t, const struct cell_result *r, const char *stage)
{
	if (!t->armed || r->cell->index != t->cell || r->repeat != 0 || strcmp(stage, t->stage))
		return false;
	t->armed = false; /* once */
	return true;
}

void test_point_reached(const struct cell_result *r, const char *stage)
{
	if (reached(&crash, r, stage)) {
		con_say("test: crashing the kernel in cell [#%d] %s (sysrq c, "
			"iomatrix.test_crash=%s)",
			r->cell->index, stage, crash.value);
		if (strcmp(stage, "workload")) {
			sysrq_crash();
			return;
		}
		/* A second into the workload, its IO in flight; an orphan PID 1 never waits for. */
		if (fork() == 0) {
			sleep(1);
			sysrq_crash();
			_exit(0);
		}
	}
	if (reached(&hang, r, stage)) {
		if (watchdog_running())
			con_say("test: PID 1 hangs in cell [#%d] %s (iomatrix.test_hang=%s): "
				"no more feeding, the watchdog resets the machine within %d s",
				r->cell->index, stage, hang.value, watchdog_timeout());
		else
			con_say("test: PID 1 hangs in cell [#%d] %s (iomatrix.test_hang=%s), "
				"and no watchdog is armed: nothing will reset the machine",
				r->cell->index, stage, hang.value);
		watchdog_stop_feeding();
		for (;;)
			pause();
	}
}
