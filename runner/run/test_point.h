/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test-only switches (docs/appliance.md): make the machine die on purpose
 * in a given cell, on the run's first boot only (the results log counts
 * boots; without one, every boot is a first), so that the boot after shows
 * what resuming does.
 *
 *   iomatrix.test_crash=CELL[:STAGE]   the kernel panics (sysrq 'c' through
 *       /proc/sysrq-trigger): in the workload stage one second after the
 *       workload started, with its IO in flight; in setup or teardown as
 *       the stage starts.
 *   iomatrix.test_hang=CELL[:STAGE]    PID 1 stops feeding the watchdog and
 *       sleeps. The kernel keeps running: this tests the watchdog, the
 *       reset and the resume after it, not a kernel that hangs by itself.
 *
 * STAGE is setup, workload (the default) or teardown; the first repeat of
 * the cell is the one.
 */
#ifndef IOMATRIX_RUNNER_RUN_TEST_POINT_H
#define IOMATRIX_RUNNER_RUN_TEST_POINT_H

#include "runner/run/cell_result.h"
#include "runner/cmdline.h"

/* Arms the switches cfg names when boot (of the run, from 1) is the first; says so. */
void test_points_arm(const struct appliance_config *cfg, unsigned boot);

/* Called as each step of a run starts (cell_run's hook). */
void test_point_reached(const struct cell_result *r, const char *stage);

#endif
