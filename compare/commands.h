/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host command's subcommands of this stage (compare/cmd_compare.c, compare/cmd_report.c), as host/main.c
 * dispatches them: argv[0] is the subcommand's name; the return value is
 * the process exit status.
 */
#ifndef IOMATRIX_COMPARE_COMMANDS_H
#define IOMATRIX_COMPARE_COMMANDS_H

int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);

#endif
