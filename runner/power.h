/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How every appliance run ends: stop the md arrays it made, sync, say the
 * power-off line and reboot(RB_POWER_OFF). PID 1 must never exit (the
 * kernel would panic), so a fatal error is one "iomatrix: FATAL: ..." line
 * and then the same power-off. With iomatrix.shell, a busybox sh runs on
 * the console first, and the power-off follows when it exits.
 */
#ifndef IOMATRIX_RUNNER_POWER_H
#define IOMATRIX_RUNNER_POWER_H

#include <stdbool.h>

/* Seconds mdadm --stop may take per array before it is killed. */
#define POWER_MD_STOP_TIMEOUT 30.0

void power_set_shell(bool on);

__attribute__((noreturn)) void power_off(void);

__attribute__((noreturn, format(printf, 1, 2))) void fatal(const char *fmt, ...);

#endif
