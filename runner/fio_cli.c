// SPDX-License-Identifier: GPL-2.0
/* Placeholder until its issue lands. */
#include <stdio.h>

#include "modes.h"

int fio_main(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "%s: fio mode is not built yet\n", argv[0]);
	return 1;
}
