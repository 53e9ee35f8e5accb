// SPDX-License-Identifier: GPL-2.0
/* Table-driven command-line options. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cli.h"
#include "lib/units.h"

#define SYNOPSIS_WIDTH 90
#define HELP_COLUMN    30
#define HELP_WIDTH     100

static const char *prog(const struct cli_cmd *cmd)
{
	return cmd->prog ? cmd->prog : "iomatrix";
}

/* "iomatrix compare", or the program alone for a command without subcommands. */
#define CMD_FMT		"%s%s%s"
#define CMD_ARGS(cmd)	prog(cmd), (cmd)->name ? " " : "", (cmd)->name ? (cmd)->name : ""

/* One line on stderr, "iomatrix compare: ...". */
static int usage_error(const struct cli_cmd *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int usage_error(const struct cli_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, CMD_FMT ": ", CMD_ARGS(cmd));
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

/* "--name", or "-c" for an option with no long name. */
static const char *spelling(const struct cli_opt *o, char *buf, size_t len)
{
	if (o->name)
		snprintf(buf, len, "--%s", o->name);
	else
		snprintf(buf, len, "-%c", o->short_name);
	return buf;
}

/* The exact name, else a unique prefix (getopt_long's rule); *ambiguous when two fit. */
static const struct cli_opt *find_long(const struct cli_cmd *cmd, const char *name, size_t len,
				       bool *ambiguous)
{
	const struct cli_opt *prefix = NULL;

	*ambiguous = false;
	for (size_t i = 0; i < cmd->nopts; i++) {
		const char *n = cmd->opts[i].name;

		if (!n || strncmp(n, name, len))
			continue;
		if (!n[len])
			return &cmd->opts[i];
		if (prefix)
			*ambiguous = true;
		prefix = &cmd->opts[i];
	}
	return *ambiguous ? NULL : prefix;
}

static const struct cli_opt *find_short(const struct cli_cmd *cmd, char c)
{
	for (size_t i = 0; i < cmd->nopts; i++)
		if (cmd->opts[i].short_name && cmd->opts[i].short_name == c)
			return &cmd->opts[i];
	return NULL;
}

/* A value out of range or unreadable, in the command's own words (o->bad). */
static int bad_value(const struct cli_cmd *cmd, const struct cli_opt *o, const char *spell,
		     const char *val)
{
	return usage_error(cmd, "bad %s '%s' (%s)", spell, val, o->bad);
}

/* 4096 as "4K", 1 << 30 as "1G": how a range reads in a message. */
static void format_size(double v, char *buf, size_t len)
{
	static const char units[] = "KMGTP";
	uint64_t n = (uint64_t)v;
	int u = -1;

	while (n && !(n % 1024) && u < 4) {
		n /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%llu", (unsigned long long)n);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)n, units[u]);
}

static void format_time(double us, char *buf, size_t len)
{
	uint64_t n = (uint64_t)us;

	if (n && !(n % 1000000))
		snprintf(buf, len, "%llus", (unsigned long long)(n / 1000000));
	else if (n && !(n % 1000))
		snprintf(buf, len, "%llums", (unsigned long long)(n / 1000));
	else
		snprintf(buf, len, "%lluus", (unsigned long long)n);
}

/* CLI_SIZE and CLI_TIME: parsed by lib/units, then held to the range. */
static int set_amount(const struct cli_cmd *cmd, const struct cli_opt *o, const char *val,
		      uint64_t *out)
{
	void (*format)(double, char *, size_t) = o->kind == CLI_SIZE ? format_size : format_time;
	const char *what = o->kind == CLI_SIZE ? "size" : "time";
	const char *eg = o->kind == CLI_SIZE ? "4k, 512M, 2G" : "10, 10s, 500ms, 2m";
	char why[UNITS_ERR_LEN], lo[32], hi[32], spell[64];
	uint64_t v;
	int r;

	spelling(o, spell, sizeof(spell));
	/*
	 * A digit first, or a point and a digit (.5s, as units_* read it):
	 * not "-1G" or an option's name taken as the value, nor "(1+1)k".
	 */
	if (!isdigit((unsigned char)val[0]) &&
	    !(val[0] == '.' && isdigit((unsigned char)val[1])))
		r = -1;
	else if (o->kind == CLI_SIZE)
		r = units_size(val, 1024, &v, why, sizeof(why));
	else
		r = units_time_us(val, 1000000000ULL, &v, why, sizeof(why));
	if (r || (double)v < o->min || (o->max && (double)v > o->max)) {
		if (o->bad)
			return bad_value(cmd, o, spell, val);
		format(o->min, lo, sizeof(lo));
		format(o->max, hi, sizeof(hi));
		if (o->max)
			return usage_error(cmd, "%s %s: not a %s from %s to %s (e.g. %s)", spell,
					   val, what, lo, hi, eg);
		return usage_error(cmd, "%s %s: not a %s of at least %s (e.g. %s)", spell, val,
				   what, lo, eg);
	}
	*out = v;
	return 0;
}

static int set_value(const struct cli_cmd *cmd, const struct cli_opt *o, const char *val,
		     void *dst)
{
	char *p = (char *)dst + o->offset, *end, spell[64];

	spelling(o, spell, sizeof(spell));

	switch (o->kind) {
	case CLI_FLAG:
		*(bool *)p = true;
		return 0;
	case CLI_SET:
		*(int *)p = o->value;
		return 0;
	case CLI_STRING:
		*(const char **)p = val;
		return 0;
	case CLI_LIST: {
		int *count = (int *)((char *)dst + o->count_offset);

		if (*count >= (int)o->max)
			return usage_error(cmd, "%s given more than %d times", spell,
					   (int)o->max);
		((const char **)p)[(*count)++] = val;
		return 0;
	}
	case CLI_DOUBLE: {
		double d;

		errno = 0;
		d = strtod(val, &end);
		if (errno || end == val || *end || !isfinite(d) || d < o->min || d > o->max)
			return o->bad ? bad_value(cmd, o, spell, val)
				      : usage_error(cmd, "%s %s: not a number from %g to %g",
						    spell, val, o->min, o->max);
		*(double *)p = d;
		return 0;
	}
	case CLI_INT: {
		long long n;

		/* strtol's decimal, as the commands read it before: not 1.5, 2k, 0x10 or (1+1) */
		errno = 0;
		n = strtoll(val, &end, 10);
		if (errno || end == val || *end || n < o->min || n > o->max)
			return o->bad ? bad_value(cmd, o, spell, val)
				      : usage_error(cmd, "%s %s: not a number from %.0f to %.0f",
						    spell, val, o->min, o->max);
		*(int *)p = (int)n;
		return 0;
	}
	case CLI_SIZE:
	case CLI_TIME:
		return set_amount(cmd, o, val, (uint64_t *)p);
	case CLI_CHOICE:
		for (int i = 0; o->choices[i]; i++) {
			if (!strcmp(o->choices[i], val)) {
				*(int *)p = i;
				return 0;
			}
		}
		fprintf(stderr, CMD_FMT ": %s %s: not one of", CMD_ARGS(cmd), spell, val);
		for (int i = 0; o->choices[i]; i++)
			fprintf(stderr, "%s %s", i ? "," : "", o->choices[i]);
		fputc('\n', stderr);
		return -1;
	}
	return -1;
}

static bool takes_value(const struct cli_opt *o)
{
	return o->kind != CLI_FLAG && o->kind != CLI_SET;
}

/*
 * One option word (and maybe its value, the next word): the index of the last
 * word used; -1 on a usage error, -2 for -h among grouped flags.
 */
static int parse_option(const struct cli_cmd *cmd, int argc, char **argv, int i, void *dst)
{
	const char *a = argv[i], *val = NULL;
	const struct cli_opt *o = NULL;
	char spell[64];
	size_t len = 0;
	bool ambiguous = false;

	if (a[1] == '-') {
		const char *eq = strchr(a + 2, '=');

		len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
		o = find_long(cmd, a + 2, len, &ambiguous);
		val = eq ? eq + 1 : NULL;
	} else {
		/*
		 * As getopt reads a word of short options: flags grouped (-fq),
		 * and a letter that takes a value takes the rest of the word
		 * (-oFILE, -qoFILE) or else the next word (-qo FILE).
		 */
		const char *c = a + 1;

		len = 1;
		for (;;) {
			o = find_short(cmd, *c);
			if (!o && *c == 'h')
				return -2; /* -qh: the help, as getopt's "h" */
			if (!o || takes_value(o)) {
				val = o && c[1] ? c + 1 : NULL;
				break;
			}
			if (set_value(cmd, o, NULL, dst))
				return -1;
			if (!*++c)
				return i;
		}
		if (!o && c > a + 1) {
			if (cmd->getopt_words)
				return usage_error(cmd, "option -%c is unknown", *c);
			return usage_error(cmd, "unknown option -%c in %s (" CMD_FMT " --help)", *c,
					   a, CMD_ARGS(cmd));
		}
	}
	if (!o) {
		const char *dashes = a[1] == '-' ? "--" : "-";
		int n = a[1] == '-' ? (int)len : (int)strlen(a + 1);

		if (ambiguous)
			return usage_error(cmd, "option %s%.*s is ambiguous (" CMD_FMT " --help)",
					   dashes, n, a + strlen(dashes), CMD_ARGS(cmd));
		if (cmd->getopt_words)
			return usage_error(cmd, "option %s%.*s is unknown", dashes, n,
					   a + strlen(dashes));
		return usage_error(cmd, "unknown option %s (" CMD_FMT " --help)", a, CMD_ARGS(cmd));
	}
	spelling(o, spell, sizeof(spell));
	if (!takes_value(o) && val)
		return usage_error(cmd, "%s%s takes no value", cmd->getopt_words ? "option " : "",
				   spell);
	if (takes_value(o) && !val) {
		if (i + 1 == argc) {
			if (cmd->getopt_words)
				return usage_error(cmd, "option %s needs a value", spell);
			return usage_error(cmd, "%s needs a value (%s)", spell, o->arg);
		}
		val = argv[++i];
	}
	if (set_value(cmd, o, val, dst))
		return -1;
	return i;
}

int cli_parse(const struct cli_cmd *cmd, int argc, char **argv, void *dst, char **pos,
	      size_t *npos)
{
	bool only_pos = false;

	*npos = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (only_pos || a[0] != '-' || !a[1]) {
			if (*npos == cmd->max_pos)
				return usage_error(cmd, "%s: too many arguments", a);
			pos[(*npos)++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			only_pos = true;
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			cli_usage(cmd, stdout);
			return 1;
		}
		i = parse_option(cmd, argc, argv, i, dst);
		if (i == -2) {
			cli_usage(cmd, stdout);
			return 1;
		}
		if (i < 0)
			return -1;
	}
	if (*npos < cmd->min_pos) {
		fprintf(stderr, "usage: " CMD_FMT " %s (" CMD_FMT " --help)\n", CMD_ARGS(cmd),
			cmd->synopsis ? cmd->synopsis : "", CMD_ARGS(cmd));
		return -1;
	}
	return 0;
}

/* "-f, --format F" as --help's left column shows it; the synopsis's "--format F". */
static void option_words(const struct cli_opt *o, bool both, char *buf, size_t len)
{
	const char *arg = takes_value(o) && o->arg ? o->arg : "";
	const char *sp = *arg ? " " : "";

	if (!o->name)
		snprintf(buf, len, "-%c%s%s", o->short_name, sp, arg);
	else if (both && o->short_name)
		snprintf(buf, len, "-%c, --%s%s%s", o->short_name, o->name, sp, arg);
	else
		snprintf(buf, len, "%s--%s%s%s", both ? "    " : "", o->name, sp, arg);
}

/* The command and each option in brackets, wrapped under the command's name. */
static void print_synopsis(const struct cli_cmd *cmd, FILE *f)
{
	size_t indent = strlen(prog(cmd)) + (cmd->name ? 1 + strlen(cmd->name) : 0), col = indent;

	fprintf(f, CMD_FMT, CMD_ARGS(cmd));
	for (size_t i = 0; i < cmd->nopts; i++) {
		char words[96];
		size_t len;

		option_words(&cmd->opts[i], false, words, sizeof(words));
		len = strlen(words) + 3;
		if (col + len > SYNOPSIS_WIDTH) {
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent;
		}
		fprintf(f, " [%s]", words);
		col += len;
	}
	fputc('\n', f);
}

/* text from column HELP_COLUMN on, wrapped at blanks before HELP_WIDTH */
static void print_wrapped(FILE *f, const char *text)
{
	size_t col = HELP_COLUMN;

	while (*text) {
		size_t word = strcspn(text, " ");

		if (col > HELP_COLUMN && col + 1 + word > HELP_WIDTH) {
			fprintf(f, "\n%*s", HELP_COLUMN, "");
			col = HELP_COLUMN;
		} else if (col > HELP_COLUMN) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)word, text);
		col += word;
		text += word;
		text += strspn(text, " ");
	}
	fputc('\n', f);
}

static void print_option(FILE *f, const char *left, const char *help)
{
	if (strlen(left) + 3 > HELP_COLUMN)
		fprintf(f, "  %s\n%*s", left, HELP_COLUMN, "");
	else
		fprintf(f, "  %-*s", HELP_COLUMN - 2, left);
	print_wrapped(f, help);
}

void cli_usage(const struct cli_cmd *cmd, FILE *f)
{
	if (cmd->synopsis)
		fprintf(f, "usage: " CMD_FMT "%s%s [OPTIONS]\n", CMD_ARGS(cmd),
			*cmd->synopsis ? " " : "", cmd->synopsis);
	else
		print_synopsis(cmd, f);
	fprintf(f, "\n%s\n\noptions:\n", cmd->about);
	for (size_t i = 0; i < cmd->nopts; i++) {
		const struct cli_opt *o = &cmd->opts[i];
		char left[96], help[1024];
		size_t n;

		option_words(o, true, left, sizeof(left));
		n = (size_t)snprintf(help, sizeof(help), "%s", o->help);
		if (o->kind == CLI_CHOICE) {
			for (int k = 0; o->choices[k] && n < sizeof(help); k++)
				n += (size_t)snprintf(help + n, sizeof(help) - n, "%s%s",
						      k ? "|" : " (", o->choices[k]);
			if (n < sizeof(help))
				snprintf(help + n, sizeof(help) - n, ")");
		}
		print_option(f, left, help);
	}
	print_option(f, "-h, --help", "print this help");
	if (cmd->more)
		fprintf(f, "\n%s", cmd->more);
}
