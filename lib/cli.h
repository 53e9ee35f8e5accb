/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command-line options from one table per command (as fio's options.c): the
 * parser, the checks and --help all read the same entries. A value lands in
 * the command's own struct at the entry's offset. Every subcommand of both
 * binaries (iomatrix, iomatrix-runner) parses its flags here, so the
 * grammar is one: --name VALUE, --name=VALUE, -c VALUE, -cVALUE, short flags
 * grouped as getopt allows (-fq, -qo FILE, -qoFILE), a unique
 * prefix of a long name (as getopt_long), "--" ends the options, and -h or
 * --help prints the help. An option given twice keeps the last value,
 * except CLI_LIST, which collects each.
 *
 * Plain C and lib/units only: the static musl runner links it too.
 */
#ifndef IOMATRIX_LIB_CLI_H
#define IOMATRIX_LIB_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum cli_kind {
	CLI_FLAG,   /* bool, set to true */
	CLI_STRING, /* const char * (argv's own string) */
	CLI_DOUBLE, /* double, within [min, max] */
	CLI_CHOICE, /* int: the index into choices */
	CLI_INT,    /* int, within [min, max]; decimal as strtol reads it (not 2k, 1.5, 0x10) */
	CLI_SIZE,   /* uint64_t bytes, >= min and <= max (0: no limit); 4k, 1M (units_size) */
	CLI_TIME,   /* uint64_t microseconds, as CLI_SIZE; 10 (s), 500ms, 2m (units_time_us) */
	CLI_LIST,   /* const char *[max]; the count in the int at count_offset (repeatable) */
	CLI_SET,    /* int = value: several flags for one field (--pvh, --no-pvh) */
};

struct cli_opt {
	const char *name;	     /* --name, or NULL: only the short option */
	char short_name;	     /* -c, or 0 */
	enum cli_kind kind;
	size_t offset;
	const char *const *choices;  /* CLI_CHOICE: NULL-terminated */
	double min, max;	     /* the range (see the kinds); CLI_LIST: max entries */
	const char *arg;	     /* the value's name in --help */
	const char *help;
	size_t count_offset;	     /* CLI_LIST */
	int value;		     /* CLI_SET */
	/*
	 * A value it does not take reads "bad --name 'VALUE' (BAD)" instead
	 * of the kind's own message: the words of a command whose scripts
	 * match them (iomatrix plan). CLI_DOUBLE, CLI_INT, CLI_SIZE, CLI_TIME.
	 */
	const char *bad;
};

struct cli_cmd {
	const char *prog;	/* "iomatrix" when NULL; "iomatrix-runner" */
	const char *name;	/* "compare"; NULL: a program without subcommands */
	/*
	 * "BASE NEW [NEW...]" after "usage: iomatrix compare"; "" for none.
	 * NULL: the first lines of --help are the command and every option
	 * in brackets, wrapped, as `iomatrix image` has always shown them.
	 */
	const char *synopsis;
	const char *about;	/* a paragraph for --help */
	const char *more;	/* text after the options (exit status, environment), or NULL */
	const struct cli_opt *opts;
	size_t nopts;
	size_t min_pos, max_pos;
	/*
	 * The unknown/needs-a-value/takes-no-value messages in getopt_long's
	 * words ("option --x is unknown"), for the command that used it and
	 * whose messages scripts match (tests/host/image_errors.sh).
	 */
	bool getopt_words;
};

/*
 * Parses argv (argv[0] is the command). Positional arguments are collected in
 * pos (argv's strings; room for max_pos). 0 to go on, 1 when --help was
 * printed, -1 on a usage error (already reported on stderr, one line).
 */
int cli_parse(const struct cli_cmd *cmd, int argc, char **argv, void *dst, char **pos,
	      size_t *npos);
void cli_usage(const struct cli_cmd *cmd, FILE *f);

#endif
