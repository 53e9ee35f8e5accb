// SPDX-License-Identifier: GPL-2.0
/*
 * iomatrix-runner: one binary, two modes. As PID 1 it runs the appliance;
 * anywhere else it is a fio-style benchmark tool taking job files and
 * options, or (first argument "dd") the dd-style concurrent writers. The
 * appliance runs its workloads by starting itself as a child, so a
 * workload that crashes or hangs cannot take PID 1 with it.
 */
#include <string.h>
#include <unistd.h>

#include "runner/modes.h"

int main(int argc, char **argv)
{
	if (getpid() == 1)
		return appliance_main(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "dd"))
		return dd_main(argc - 1, argv + 1);
	return fio_main(argc, argv);
}
