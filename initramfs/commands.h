/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host command's subcommands of this stage (initramfs/cmd_image.c), as host/main.c
 * dispatches them: argv[0] is the subcommand's name; the return value is
 * the process exit status.
 */
#ifndef IOMATRIX_INITRAMFS_COMMANDS_H
#define IOMATRIX_INITRAMFS_COMMANDS_H

int cmd_image(int argc, char **argv);

#endif
