// SPDX-License-Identifier: GPL-2.0
/* iomatrix qemu: placeholder until its issue lands. */
#include <stdio.h>

#include "commands.h"

int cmd_qemu(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "iomatrix %s: not built yet\n", argv[0]);
	return 1;
}
