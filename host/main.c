// SPDX-License-Identifier: GPL-2.0
/*
 * iomatrix: the host command. One table lists the subcommands; each lives in
 * the folder of its stage (STAGE/cmd_NAME.c, declared in STAGE/commands.h).
 */
#include <stdio.h>
#include <string.h>

#include "compare/commands.h"
#include "initramfs/commands.h"
#include "matrix/commands.h"
#include "qemu/commands.h"
#include "records/commands.h"

struct subcommand {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct subcommand subcommands[] = {
	{ "image", cmd_image, "build the appliance's initramfs for a kernel" },
	{ "qemu", cmd_qemu, "boot a kernel and the appliance in QEMU" },
	{ "plan", cmd_plan, "list the cells a matrix expands to, with an estimated duration" },
	{ "extract", cmd_extract, "recover records from a serial log or results disk" },
	{ "compare", cmd_compare, "compare result sets from two or more kernels" },
	{ "report", cmd_report, "render one result set in full" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: iomatrix COMMAND [ARGS]   (iomatrix COMMAND --help for more)\n\n"
		   "commands:\n");
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		fprintf(f, "  %-9s %s\n", subcommands[i].name, subcommands[i].summary);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "iomatrix: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
