/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The matrix as PID 1 runs it: load iomatrix.matrix= from the image,
 * choose the disks (disk_select.h), expand the matrix for them at
 * iomatrix.scale=, then every run in run_order.h's order (every cell's
 * first repeat, then every cell's second, ...): a cell iomatrix.cells=
 * leaves out or the machine cannot run is recorded skipped with why (once
 * per repeat, so a result set sees every cell); the others run
 * (cell_run.h), each repeat its own record, written as it is made
 * (results_channels.h). A run an earlier boot of the run recorded is not
 * made again; the one it died in is recorded crashed (resume.h).
 * A summary table ends it. Errors in the settings (an unknown matrix, a
 * bad cell selection, an iomatrix.disks word that matches no disk) are
 * fatal: one line and the power-off. A cell's error never is.
 */
#ifndef IOMATRIX_RUNNER_RUN_MATRIX_RUN_H
#define IOMATRIX_RUNNER_RUN_MATRIX_RUN_H

#include "runner/cmdline.h"
#include "runner/setup/disks.h"

void matrix_run(const struct appliance_config *cfg, const struct disk_list *found);

#endif
