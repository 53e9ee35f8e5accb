/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host command's subcommands. Each lives in host/cmd_<name>.c and gets
 * argv with argv[0] set to the subcommand's name; it returns the process
 * exit status.
 */
#ifndef IOMATRIX_HOST_COMMANDS_H
#define IOMATRIX_HOST_COMMANDS_H

int cmd_image(int argc, char **argv);
int cmd_qemu(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_extract(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);

#endif
