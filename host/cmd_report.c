// SPDX-License-Identifier: GPL-2.0
/* iomatrix report: placeholder until its issue lands. */
#include <stdio.h>

#include "commands.h"

int cmd_report(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "iomatrix %s: not built yet\n", argv[0]);
	return 1;
}
