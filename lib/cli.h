/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command-line options from one table per command (as fio's options.c): the
 * parser, the checks and --help all read the same entries. A value lands in
 * the command's own struct at the entry's offset.
 */
#ifndef IOMATRIX_HOST_CLI_H
#define IOMATRIX_HOST_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum cli_kind {
	CLI_FLAG,   /* bool */
	CLI_STRING, /* const char * */
	CLI_DOUBLE, /* double, within [min, max] */
	CLI_CHOICE, /* int: the index into choices */
};

struct cli_opt {
	const char *name;	     /* --name */
	char short_name;	     /* -c, or 0 */
	enum cli_kind kind;
	size_t offset;
	const char *const *choices;  /* CLI_CHOICE: NULL-terminated */
	double min, max;	     /* CLI_DOUBLE */
	const char *arg;	     /* the value's name in --help */
	const char *help;
};

struct cli_cmd {
	const char *name;	/* "compare" */
	const char *synopsis;	/* "BASE NEW [NEW...]" */
	const char *about;	/* a paragraph for --help */
	const struct cli_opt *opts;
	size_t nopts;
	size_t min_pos, max_pos;
};

/*
 * Parses argv (argv[0] is the command). Positional arguments are collected in
 * pos (argv's strings). 0 to go on, 1 when --help was printed, -1 on a usage
 * error (already reported on stderr).
 */
int cli_parse(const struct cli_cmd *cmd, int argc, char **argv, void *dst, char **pos,
	      size_t *npos);
void cli_usage(const struct cli_cmd *cmd, FILE *f);

#endif
