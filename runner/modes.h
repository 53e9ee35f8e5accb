/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runner's entry points. main() picks one: PID 1 runs the appliance,
 * "iomatrix-runner dd ..." runs the dd-style writers, anything else is the
 * fio-style command line. Each returns the process exit status (the
 * appliance never returns: it powers the machine off).
 */
#ifndef IOMATRIX_RUNNER_MODES_H
#define IOMATRIX_RUNNER_MODES_H

#include <stdio.h>

int appliance_main(int argc, char **argv); /* runner/appliance.c */
int fio_main(int argc, char **argv);       /* runner/engine/fio_cli.c */
int dd_main(int argc, char **argv);        /* runner/engine/dd_cli.c */
/* dd's --help, from its option table: the runner's --help shows it too. */
void dd_print_usage(FILE *f);

#endif
