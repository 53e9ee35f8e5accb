// SPDX-License-Identifier: GPL-2.0
/* lib/cli: each kind of option, and the usage errors, one stderr line each. */
#include <fcntl.h>
#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "lib/cli.h"

struct args {
	bool flag;
	const char *str;
	int n;
	uint64_t size, time_us;
	const char *list[3];
	int nlist;
	int mode;
	int choice;
	const char *out;
	double d;
};

static const char *const colours[] = { "red", "green", NULL };

#define OFF(f) offsetof(struct args, f)

static const struct cli_opt opts[] = {
	{ .name = "flag", .short_name = 'f', .kind = CLI_FLAG, .offset = OFF(flag), .help = "f" },
	{ .name = "str", .kind = CLI_STRING, .offset = OFF(str), .arg = "S", .help = "s" },
	{ .name = "count", .kind = CLI_INT, .offset = OFF(n), .min = 1, .max = 64, .arg = "N",
	  .help = "n" },
	{ .name = "size", .kind = CLI_SIZE, .offset = OFF(size), .min = 4096, .max = 1 << 30,
	  .arg = "SIZE", .help = "size" },
	{ .name = "time", .kind = CLI_TIME, .offset = OFF(time_us), .min = 1, .arg = "T",
	  .help = "time" },
	{ .name = "disk", .kind = CLI_LIST, .offset = OFF(list), .max = 3, .arg = "PATH",
	  .help = "repeatable", .count_offset = OFF(nlist) },
	{ .name = "on", .kind = CLI_SET, .offset = OFF(mode), .help = "on", .value = 1 },
	{ .name = "off", .kind = CLI_SET, .offset = OFF(mode), .help = "off", .value = 0 },
	{ .name = "colour", .kind = CLI_CHOICE, .offset = OFF(choice), .choices = colours,
	  .arg = "C", .help = "c" },
	{ .short_name = 'o', .kind = CLI_STRING, .offset = OFF(out), .arg = "FILE", .help = "o" },
	{ .name = "size-max", .kind = CLI_SIZE, .offset = OFF(size), .arg = "SIZE",
	  .help = "no upper bound" },
};

static const struct cli_cmd cmd = {
	.prog = "prog",
	.name = "t",
	.synopsis = "[X]",
	.about = "about",
	.more = "more text\n",
	.opts = opts,
	.nopts = sizeof(opts) / sizeof(opts[0]),
	.max_pos = 1,
};

static char errbuf[4096];

/* Parses the words into *a (zeroed, mode -1); stderr's text in errbuf. */
static int parse(const struct cli_cmd *c, struct args *a, const char *const *words)
{
	char *argv[32], *pos[4];
	FILE *tmp = tmpfile();
	int argc = 0, saved, r;
	size_t npos, n;

	argv[argc++] = (char *)"t";
	while (*words)
		argv[argc++] = (char *)*words++;
	argv[argc] = NULL;
	memset(a, 0, sizeof(*a));
	a->mode = -1;
	fflush(stderr);
	saved = dup(2);
	dup2(fileno(tmp), 2);
	r = cli_parse(c, argc, argv, a, pos, &npos);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(errbuf, 1, sizeof(errbuf) - 1, tmp);
	errbuf[n] = '\0';
	fclose(tmp);
	return r;
}

#define PARSE(a, ...) parse(&cmd, (a), (const char *const[]){ __VA_ARGS__, NULL })

static int lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void test_kinds(void)
{
	struct args a;

	CHECK_EQ_INT(PARSE(&a, "-f", "--str=x", "--count", "1", "--size", "64k", "--time",
			   "500ms", "--disk", "a", "--disk=b", "--on", "--colour", "green", "-oout",
			   "pos"),
		     0);
	CHECK(a.flag);
	CHECK_EQ_STR(a.str, "x");
	CHECK_EQ_INT(a.n, 1);
	CHECK_EQ_INT(a.size, 65536);
	CHECK_EQ_INT(a.time_us, 500000);
	CHECK_EQ_INT(a.nlist, 2);
	CHECK_EQ_STR(a.list[0], "a");
	CHECK_EQ_STR(a.list[1], "b");
	CHECK_EQ_INT(a.mode, 1);
	CHECK_EQ_INT(a.choice, 1);
	CHECK_EQ_STR(a.out, "out");
	CHECK_EQ_STR(errbuf, "");
	/* a bare time is in seconds; the last of --on/--off wins */
	CHECK_EQ_INT(PARSE(&a, "--time", "2", "--on", "--off", "-o", "f"), 0);
	CHECK_EQ_INT(a.time_us, 2000000);
	CHECK_EQ_INT(a.mode, 0);
	CHECK_EQ_STR(a.out, "f");
	/* a scalar given twice keeps the last; sizes take units, at the bounds */
	CHECK_EQ_INT(PARSE(&a, "--count", "3", "--count", "64", "--size", "1G"), 0);
	CHECK_EQ_INT(a.n, 64);
	CHECK_EQ_INT(a.size, 1 << 30);
	CHECK_EQ_INT(PARSE(&a, "--size", "4096"), 0);
	CHECK_EQ_INT(a.size, 4096);
	CHECK_EQ_INT(PARSE(&a, "--size", "512MiB"), 0);
	CHECK_EQ_INT(a.size, 512ULL << 20);
	CHECK_EQ_INT(PARSE(&a, "--size", "1g"), 0);
	CHECK_EQ_INT(a.size, 1 << 30);
	CHECK_EQ_INT(PARSE(&a, "--size-max", "16T"), 0);
	CHECK_EQ_INT(a.size, 16ULL << 40);
	/* a unique prefix, as getopt_long; "--" ends the options */
	CHECK_EQ_INT(PARSE(&a, "--col", "red", "--", "-f"), 0);
	CHECK_EQ_INT(a.choice, 0);
	CHECK(!a.flag);
}

/* A word of short options as getopt reads it: flags grouped, the last may take a value. */
static void test_grouped_short(void)
{
	static const struct cli_opt g_opts[] = {
		{ .name = "flag", .short_name = 'f', .kind = CLI_FLAG, .offset = OFF(flag),
		  .help = "f" },
		{ .name = "on", .short_name = 'q', .kind = CLI_SET, .offset = OFF(mode),
		  .help = "q", .value = 1 },
		{ .short_name = 'o', .kind = CLI_STRING, .offset = OFF(out), .arg = "FILE",
		  .help = "o" },
	};
	struct cli_cmd g = cmd;
	struct args a;

	g.opts = g_opts;
	g.nopts = sizeof(g_opts) / sizeof(g_opts[0]);
	CHECK_EQ_INT(parse(&g, &a, (const char *const[]){ "-fq", NULL }), 0);
	CHECK(a.flag);
	CHECK_EQ_INT(a.mode, 1);
	CHECK_EQ_INT(parse(&g, &a, (const char *const[]){ "-qf", "pos", NULL }), 0);
	CHECK(a.flag);
	CHECK_EQ_INT(a.mode, 1);
	CHECK_EQ_INT(parse(&g, &a, (const char *const[]){ "-qo", "FILE", NULL }), 0);
	CHECK_EQ_INT(a.mode, 1);
	CHECK_EQ_STR(a.out, "FILE");
	CHECK(!a.flag);
	CHECK_EQ_INT(parse(&g, &a, (const char *const[]){ "-fqoFILE", NULL }), 0);
	CHECK(a.flag);
	CHECK_EQ_STR(a.out, "FILE");
	/* the value takes the rest of the word, letters and all */
	CHECK_EQ_INT(parse(&g, &a, (const char *const[]){ "-ofq", NULL }), 0);
	CHECK_EQ_STR(a.out, "fq");
	CHECK(!a.flag);
	CHECK_EQ_STR(errbuf, "");
	/* errors: a value missing at the end, an unknown letter inside */
	CHECK_EQ_INT(parse(&g, &a, (const char *const[]){ "-qo", NULL }), -1);
	CHECK_EQ_STR(errbuf, "prog t: -o needs a value (FILE)\n");
	CHECK_EQ_INT(parse(&g, &a, (const char *const[]){ "-fzq", NULL }), -1);
	CHECK_EQ_STR(errbuf, "prog t: unknown option -z in -fzq (prog t --help)\n");
	CHECK_EQ_INT(parse(&g, &a, (const char *const[]){ "-zf", NULL }), -1);
	CHECK_EQ_STR(errbuf, "prog t: unknown option -zf (prog t --help)\n");
	g.getopt_words = true;
	CHECK_EQ_INT(parse(&g, &a, (const char *const[]){ "-fz", NULL }), -1);
	CHECK_EQ_STR(errbuf, "prog t: option -z is unknown\n");
	g.getopt_words = false;
	/* -h among the flags is the help, as getopt's optstring "...h" */
	fflush(stdout);
	{
		int saved = dup(1), null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		CHECK_EQ_INT(parse(&g, &a, (const char *const[]){ "-fh", NULL }), 1);
		fflush(stdout);
		dup2(saved, 1);
		close(saved);
		close(null);
	}
}

static void test_bad_values(void)
{
	struct args a;

	CHECK_EQ_INT(PARSE(&a, "--count", "many"), -1);
	CHECK_EQ_STR(errbuf, "prog t: --count many: not a number from 1 to 64\n");
	CHECK_EQ_INT(PARSE(&a, "--count", "0"), -1);
	CHECK_EQ_INT(PARSE(&a, "--count", "65"), -1);
	CHECK_EQ_INT(PARSE(&a, "--count", "-1"), -1);
	/* an integer is strtol's decimal: no fractions, units, hex or expressions */
	CHECK_EQ_INT(PARSE(&a, "--count", "1.5"), -1);
	CHECK_EQ_STR(errbuf, "prog t: --count 1.5: not a number from 1 to 64\n");
	CHECK_EQ_INT(PARSE(&a, "--count", "0x10"), -1);
	CHECK_EQ_INT(PARSE(&a, "--count", "(1+1)"), -1);
	CHECK_EQ_INT(PARSE(&a, "--count", "1k"), -1);
	CHECK_EQ_INT(PARSE(&a, "--count", "2 "), -1);
	CHECK_EQ_INT(PARSE(&a, "--count", "+5"), 0);
	CHECK_EQ_INT(a.n, 5);
	CHECK_EQ_INT(PARSE(&a, "--count", "064"), 0); /* base 10, not octal */
	CHECK_EQ_INT(a.n, 64);
	CHECK_EQ_INT(PARSE(&a, "--size", "4095"), -1);
	CHECK_EQ_STR(errbuf, "prog t: --size 4095: not a size from 4K to 1G (e.g. 4k, 512M, 2G)\n");
	CHECK_EQ_INT(PARSE(&a, "--size", "2X"), -1);
	CHECK_EQ_INT(PARSE(&a, "--size", "-1G"), -1);
	CHECK_EQ_INT(PARSE(&a, "--size", "(1+1)k"), -1);
	CHECK_EQ_INT(PARSE(&a, "--size", "1025M"), -1);
	CHECK_EQ_INT(PARSE(&a, "--size-max", "99999999999T"), -1); /* past 64 bits */
	CHECK_EQ_INT(PARSE(&a, "--size-max", "0"), 0);
	/* a point first, as lib/units reads it; not a dash or a point alone */
	CHECK_EQ_INT(PARSE(&a, "--size", ".5M"), 0);
	CHECK_EQ_INT(a.size, 512 << 10);
	CHECK_EQ_INT(PARSE(&a, "--time", ".5s"), 0);
	CHECK_EQ_INT(a.time_us, 500000);
	CHECK_EQ_INT(PARSE(&a, "--time", ".25"), 0);
	CHECK_EQ_INT(a.time_us, 250000);
	CHECK_EQ_INT(PARSE(&a, "--time", "-1s"), -1);
	CHECK_EQ_INT(PARSE(&a, "--time", "--size"), -1);
	CHECK_EQ_INT(PARSE(&a, "--time", ".s"), -1);
	CHECK_EQ_INT(PARSE(&a, "--size", "-0"), -1);
	CHECK_EQ_INT(PARSE(&a, "--time", "0"), -1);
	CHECK_EQ_STR(errbuf,
		     "prog t: --time 0: not a time of at least 1us (e.g. 10, 10s, 500ms, 2m)\n");
	CHECK_EQ_INT(PARSE(&a, "--time", "soon"), -1);
	CHECK_EQ_INT(PARSE(&a, "--colour", "blue"), -1);
	CHECK_EQ_STR(errbuf, "prog t: --colour blue: not one of red, green\n");
	CHECK_EQ_INT(PARSE(&a, "-o", "x", "-f", "--count", "2", "--count", "x"), -1);
	CHECK_EQ_INT(lines(errbuf), 1);
}

static void test_usage_errors(void)
{
	struct args a;

	CHECK_EQ_INT(PARSE(&a, "--bogus"), -1);
	CHECK_EQ_STR(errbuf, "prog t: unknown option --bogus (prog t --help)\n");
	CHECK_EQ_INT(PARSE(&a, "-z"), -1);
	CHECK_EQ_INT(PARSE(&a, "-fq"), -1); /* -q is no option */
	CHECK_EQ_STR(errbuf, "prog t: unknown option -q in -fq (prog t --help)\n");
	CHECK_EQ_INT(PARSE(&a, "--str"), -1);
	CHECK_EQ_STR(errbuf, "prog t: --str needs a value (S)\n");
	CHECK_EQ_INT(PARSE(&a, "-o"), -1);
	CHECK_EQ_STR(errbuf, "prog t: -o needs a value (FILE)\n");
	CHECK_EQ_INT(PARSE(&a, "--flag=1"), -1);
	CHECK_EQ_STR(errbuf, "prog t: --flag takes no value\n");
	CHECK_EQ_INT(PARSE(&a, "--on=yes"), -1);
	CHECK_EQ_INT(PARSE(&a, "--si", "4k"), -1);
	CHECK_EQ_STR(errbuf, "prog t: option --si is ambiguous (prog t --help)\n");
	CHECK_EQ_INT(PARSE(&a, "one", "two"), -1);
	CHECK_EQ_STR(errbuf, "prog t: two: too many arguments\n");
	/* repeated past the list's room */
	CHECK_EQ_INT(PARSE(&a, "--disk", "a", "--disk", "b", "--disk", "c"), 0);
	CHECK_EQ_INT(a.nlist, 3);
	CHECK_EQ_INT(PARSE(&a, "--disk", "a", "--disk", "b", "--disk", "c", "--disk", "d"), -1);
	CHECK_EQ_STR(errbuf, "prog t: --disk given more than 3 times\n");
}

static void test_getopt_words(void)
{
	struct cli_cmd g = cmd;
	struct args a;

	g.getopt_words = true;
	CHECK_EQ_INT(parse(&g, &a, (const char *const[]){ "--frobnicate=1", NULL }), -1);
	CHECK_EQ_STR(errbuf, "prog t: option --frobnicate is unknown\n");
	CHECK_EQ_INT(parse(&g, &a, (const char *const[]){ "-z", NULL }), -1);
	CHECK_EQ_STR(errbuf, "prog t: option -z is unknown\n");
	CHECK_EQ_INT(parse(&g, &a, (const char *const[]){ "-o", NULL }), -1);
	CHECK_EQ_STR(errbuf, "prog t: option -o needs a value\n");
	CHECK_EQ_INT(parse(&g, &a, (const char *const[]){ "--flag=x", NULL }), -1);
	CHECK_EQ_STR(errbuf, "prog t: option --flag takes no value\n");
}

/* A command's own words for a bad value, as `iomatrix plan` has always said them. */
static void test_bad_words(void)
{
	static const struct cli_opt worded[] = {
		{ .name = "n", .kind = CLI_INT, .offset = OFF(n), .min = 0, .max = 64, .arg = "N",
		  .help = "n", .bad = "0-64" },
		{ .name = "size", .kind = CLI_SIZE, .offset = OFF(size), .arg = "SIZE",
		  .help = "size", .bad = "a size: 1g, 512m" },
		{ .name = "time", .kind = CLI_TIME, .offset = OFF(time_us), .min = 1, .arg = "T",
		  .help = "time", .bad = "a time" },
		{ .name = "x", .kind = CLI_STRING, .offset = OFF(str), .arg = "X", .help = "x" },
		/* DBL_MIN: above 0 (strtod's ERANGE refuses the subnormals below it) */
		{ .name = "scale", .kind = CLI_DOUBLE, .offset = OFF(d), .min = DBL_MIN, .max = 1,
		  .arg = "X", .help = "x", .bad = "above 0, at most 1" },
	};
	struct cli_cmd w = cmd;
	struct args a;

	w.opts = worded;
	w.nopts = sizeof(worded) / sizeof(worded[0]);
	CHECK_EQ_INT(parse(&w, &a, (const char *const[]){ "--n", "65", NULL }), -1);
	CHECK_EQ_STR(errbuf, "prog t: bad --n '65' (0-64)\n");
	CHECK_EQ_INT(parse(&w, &a, (const char *const[]){ "--n=x", NULL }), -1);
	CHECK_EQ_STR(errbuf, "prog t: bad --n 'x' (0-64)\n");
	CHECK_EQ_INT(parse(&w, &a, (const char *const[]){ "--n", "1.5", NULL }), -1);
	CHECK_EQ_STR(errbuf, "prog t: bad --n '1.5' (0-64)\n");
	CHECK_EQ_INT(parse(&w, &a, (const char *const[]){ "--size", "1q", NULL }), -1);
	CHECK_EQ_STR(errbuf, "prog t: bad --size '1q' (a size: 1g, 512m)\n");
	CHECK_EQ_INT(parse(&w, &a, (const char *const[]){ "--time", "0", NULL }), -1);
	CHECK_EQ_STR(errbuf, "prog t: bad --time '0' (a time)\n");
	CHECK_EQ_INT(parse(&w, &a, (const char *const[]){ "--scale", "0", NULL }), -1);
	CHECK_EQ_STR(errbuf, "prog t: bad --scale '0' (above 0, at most 1)\n");
	CHECK_EQ_INT(parse(&w, &a, (const char *const[]){ "--scale", "1.5", NULL }), -1);
	CHECK_EQ_INT(parse(&w, &a, (const char *const[]){ "--scale", "nan", NULL }), -1);
	CHECK_EQ_INT(parse(&w, &a, (const char *const[]){ "--scale", "1e-9", NULL }), 0);
	CHECK_EQ_INT(parse(&w, &a, (const char *const[]){ "--scale", "1", NULL }), 0);
	CHECK(a.d == 1);
	/* the values it takes are the kind's, whatever the words */
	CHECK_EQ_INT(parse(&w, &a, (const char *const[]){ "--n", "0", "--size", "0", NULL }), 0);
	CHECK_EQ_INT(parse(&w, &a, (const char *const[]){ "--size", "1.5g", NULL }), 0);
	CHECK_EQ_INT(a.size, 3ULL << 29);
	/* other usage errors keep their words */
	CHECK_EQ_INT(parse(&w, &a, (const char *const[]){ "--n", NULL }), -1);
	CHECK_EQ_STR(errbuf, "prog t: --n needs a value (N)\n");
}

/* A program without subcommands: its name alone. */
static void test_no_subcommand(void)
{
	struct cli_cmd g = cmd;
	struct args a;

	g.name = NULL;
	CHECK_EQ_INT(parse(&g, &a, (const char *const[]){ "--bogus", NULL }), -1);
	CHECK_EQ_STR(errbuf, "prog: unknown option --bogus (prog --help)\n");
	CHECK_EQ_INT(parse(&g, &a, (const char *const[]){ "--count", "x", NULL }), -1);
	CHECK_EQ_STR(errbuf, "prog: --count x: not a number from 1 to 64\n");
	g.min_pos = 1;
	CHECK_EQ_INT(parse(&g, &a, (const char *const[]){ NULL }), -1);
	CHECK_EQ_STR(errbuf, "usage: prog [X] (prog --help)\n");
}

static void test_help(void)
{
	struct cli_cmd g = cmd;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cli_usage(&cmd, f);
	fflush(f);
	CHECK(!strncmp(text, "usage: prog t [X] [OPTIONS]\n\nabout\n\noptions:\n", 45));
	/* every option with its argument, the choices, --help itself, the text after */
	CHECK(strstr(text, "\n  -f, --flag                  f\n"));
	CHECK(strstr(text, "\n      --disk PATH             repeatable\n"));
	CHECK(strstr(text, "\n      --colour C              c (red|green)\n"));
	CHECK(strstr(text, "\n  -o FILE                     o\n"));
	CHECK(strstr(text, "\n  -h, --help                  print this help\n"));
	CHECK(len > 10 && !strcmp(text + len - 11, "\nmore text\n"));
	fclose(f);
	free(text);
	/* no synopsis: the options in brackets */
	g.synopsis = NULL;
	f = open_memstream(&text, &len);
	cli_usage(&g, f);
	fflush(f);
	CHECK(!strncmp(text,
		       "prog t [--flag] [--str S] [--count N] [--size SIZE] [--time T] [--disk PATH] "
		       "[--on]\n       [--off] [--colour C] [-o FILE] [--size-max SIZE]\n\nabout\n",
		       136));
	fclose(f);
	free(text);
}

int main(void)
{
	RUN_TEST(test_kinds);
	RUN_TEST(test_grouped_short);
	RUN_TEST(test_bad_values);
	RUN_TEST(test_usage_errors);
	RUN_TEST(test_getopt_words);
	RUN_TEST(test_bad_words);
	RUN_TEST(test_no_subcommand);
	RUN_TEST(test_help);
	CHECK_EXIT();
}
