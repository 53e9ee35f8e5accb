// SPDX-License-Identifier: GPL-2.0
/* Placeholder until its issue lands. */
#include <stdio.h>

#include "modes.h"

int dd_main(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "%s: dd mode is not built yet\n", argv[0]);
	return 1;
}
