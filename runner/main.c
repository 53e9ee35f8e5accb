// SPDX-License-Identifier: GPL-2.0
/*
 * iomatrix-runner: one binary, two modes. As PID 1 it runs the appliance;
 * anywhere else it is a fio-style benchmark tool taking job files and
 * options.
 */
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	if (getpid() == 1) {
		/* The appliance: built by the foundation issue. */
		return 1;
	}
	fprintf(stderr, "iomatrix-runner: the fio-style engine is not built yet\n");
	return 1;
}
