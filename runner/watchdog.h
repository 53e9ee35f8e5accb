/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hardware watchdog (/dev/watchdog: i6300esb in QEMU, whatever the
 * machine has on metal), fed while the matrix makes progress, so that a
 * kernel that hangs is reset and the next boot resumes the run.
 *
 * A thread of PID 1 feeds it every second, but only until a deadline PID 1
 * moves forward at every step of a cell: the step's own limit (the cell's
 * time limit for setup and workload, CELL_TEARDOWN_STEP_TIMEOUT for each
 * teardown step) plus WATCHDOG_MARGIN. So:
 *
 *   - a kernel that hangs (the thread cannot run) is reset after the
 *     watchdog's timeout;
 *   - a step stuck past its limit and past the kill of its process group
 *     (a process in D state, a system call that never returns in PID 1)
 *     is reset at the deadline plus the timeout;
 *   - a slow system call in PID 1 (a mount, a sync) is not: the thread
 *     feeds on while PID 1 waits in the kernel, within the deadline.
 *
 * Disarmed (magic close, 'V') before the power-off and before a debug
 * shell; a kernel built with CONFIG_WATCHDOG_NOWAYOUT cannot disarm it.
 */
#ifndef IOMATRIX_RUNNER_WATCHDOG_H
#define IOMATRIX_RUNNER_WATCHDOG_H

#include <stdbool.h>
#include <stddef.h>

#define WATCHDOG_DEVICE	      "/dev/watchdog"
#define WATCHDOG_AUTO_TIMEOUT 60   /* seconds, iomatrix.watchdog=auto */
#define WATCHDOG_MARGIN	      60.0 /* seconds past a step's limit */
#define WATCHDOG_ERR_LEN      256

/*
 * Opens path, sets its timeout (seconds; the driver may round it: *actual
 * gets what it took) and starts feeding until now + first_allow seconds.
 * Returns 0, or -1 with why in err.
 */
int watchdog_start(const char *path, int timeout, double first_allow, int *actual, char *err,
		   size_t errlen);

/* Feeding goes on until now + seconds (no-op when not started). */
void watchdog_allow(double seconds);

/* No more feeding: the watchdog fires after its timeout (iomatrix.test_hang). */
void watchdog_stop_feeding(void);

/* Stops the thread and disarms the watchdog with the magic close. */
void watchdog_disarm(void);

bool watchdog_running(void);
int watchdog_timeout(void);

#endif
