// SPDX-License-Identifier: GPL-2.0
/*
 * iomatrix image: build the appliance's initramfs for a kernel. The
 * options are one table; usage and parsing both come from it.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "initramfs/commands.h"
#include "lib/errmsg.h"
#include "initramfs/image_build.h"
#include "initramfs/image_tools.h"

struct image_options {
	const char *release;
	const char *modules_dir;
	const char *runner;
	const char *data_dir;
	const char *compress;
	const char *kernel_config;
	const char *output;
	bool quiet;
	bool help;
};

static const struct image_option {
	const char *name; /* one letter: a short option */
	const char *arg;  /* NULL: a flag */
	size_t offset;
	bool in_synopsis;
	const char *help;
} image_option_table[] = {
	{ "release", "R", offsetof(struct image_options, release), true,
	  "kernel release; default: the newest in /lib/modules with /boot/vmlinuz-R, or the only "
	  "one under --modules-dir" },
	{ "modules-dir", "DIR", offsetof(struct image_options, modules_dir), true,
	  "take modules from DIR/lib/modules/R, as 'make modules_install INSTALL_MOD_PATH=DIR' "
	  "leaves them; default: /lib/modules/R" },
	{ "runner", "PATH", offsetof(struct image_options, runner), true,
	  "the runner, /init in the image; default: iomatrix-runner in this program's directory "
	  "(build/)" },
	{ "data-dir", "DIR", offsetof(struct image_options, data_dir), true,
	  "project tree whose matrix/*.matrix and configs/jobs/*.fio go to /etc/iomatrix/; "
	  "default: the parent of this program's directory" },
	{ "compress", "zstd|xz|gzip|none", offsetof(struct image_options, compress), true,
	  "default: the first of zstd, xz, gzip the kernel config enables (CONFIG_RD_*); gzip "
	  "when no config is found" },
	{ "kernel-config", "FILE", offsetof(struct image_options, kernel_config), true,
	  "the kernel's .config; default: /boot/config-R, or under --modules-dir DIR: "
	  "DIR/boot/config-R, DIR/lib/modules/R/build/.config, DIR/lib/modules/R/config, "
	  "DIR/config-R, DIR/.config" },
	{ "o", "FILE", offsetof(struct image_options, output), true,
	  "write the image to FILE (whole or not at all); default: image/initramfs-R.cpio.EXT "
	  "in this program's directory (build/image/)" },
	{ "quiet", NULL, offsetof(struct image_options, quiet), true,
	  "print no size breakdown (notes and errors still go to stderr)" },
	{ "help", NULL, offsetof(struct image_options, help), false, "print this help" },
};

#define N_OPTIONS (sizeof(image_option_table) / sizeof(image_option_table[0]))
#define SYNOPSIS_WIDTH 90
#define HELP_COLUMN    33
#define HELP_WIDTH     100

static void option_spelling(const struct image_option *o, char *out, size_t outlen)
{
	snprintf(out, outlen, "%s%s%s%s", o->name[1] ? "--" : "-", o->name, o->arg ? " " : "",
		 o->arg ? o->arg : "");
}

/* text from column HELP_COLUMN, wrapped at word boundaries before HELP_WIDTH */
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

static void usage(FILE *f, const char *cmd)
{
	char prefix[64];
	size_t col, indent;

	indent = (size_t)snprintf(prefix, sizeof(prefix), "iomatrix %s", cmd);
	fputs(prefix, f);
	col = indent;
	for (size_t i = 0; i < N_OPTIONS; i++) {
		char spell[64];
		size_t len;

		if (!image_option_table[i].in_synopsis)
			continue;
		option_spelling(&image_option_table[i], spell, sizeof(spell));
		len = strlen(spell) + 3;
		if (col + len > SYNOPSIS_WIDTH) {
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent;
		}
		fprintf(f, " [%s]", spell);
		col += len;
	}
	fprintf(f, "\n\nBuild the appliance's initramfs (a newc cpio) for a kernel: the runner as "
		   "/init,\nbusybox, mdadm, mkfs tools with their libraries, and the kernel modules "
		   "with\ntheir dependencies and soft dependencies (docs/image.md).\n\n");
	for (size_t i = 0; i < N_OPTIONS; i++) {
		char spell[64];

		option_spelling(&image_option_table[i], spell, sizeof(spell));
		fprintf(f, "  %-*s", HELP_COLUMN - 2, spell);
		print_wrapped(f, image_option_table[i].help);
	}
	fprintf(f, "\nenvironment:\n  %-*s", HELP_COLUMN - 2, "SOURCE_DATE_EPOCH");
	print_wrapped(f, "the mtime of every entry, in seconds (default 0)");
	fprintf(f, "  %-*s", HELP_COLUMN - 2, TOOL_PATH_ENV);
	print_wrapped(f, "where busybox, mdadm and the mkfs tools are looked up (default "
			 TOOL_PATH_DEFAULT ")");
}

/* Fill opts from argv through the table. Returns 0, 1 for --help, -1 on error. */
static int parse_options(int argc, char **argv, struct image_options *opts)
{
	struct option longopts[N_OPTIONS + 1];
	char shortopts[2 * N_OPTIONS + 2] = "+";
	size_t nlong = 0;

	memset(opts, 0, sizeof(*opts));
	memset(longopts, 0, sizeof(longopts));
	for (size_t i = 0; i < N_OPTIONS; i++) {
		const struct image_option *o = &image_option_table[i];

		if (!o->name[1]) {
			size_t n = strlen(shortopts);

			shortopts[n] = o->name[0];
			shortopts[n + 1] = o->arg ? ':' : '\0';
			shortopts[n + 2] = '\0';
			continue;
		}
		longopts[nlong++] = (struct option){ o->name, o->arg ? required_argument : no_argument,
						     NULL, 256 + (int)i };
	}
	opterr = 0;
	optind = 1;
	for (;;) {
		int c = getopt_long(argc, argv, shortopts, longopts, NULL);
		const struct image_option *o = NULL;

		if (c == -1)
			break;
		if (c >= 256) {
			o = &image_option_table[c - 256];
		} else {
			for (size_t i = 0; i < N_OPTIONS; i++)
				if (!image_option_table[i].name[1] && image_option_table[i].name[0] == c)
					o = &image_option_table[i];
		}
		if (!o) {
			/* '?': optopt is the short option, a long one's val, or 0 if unknown */
			if (optopt >= 256)
				fprintf(stderr, "iomatrix %s: option --%s %s\n", argv[0],
					image_option_table[optopt - 256].name,
					image_option_table[optopt - 256].arg ? "needs a value"
									     : "takes no value");
			else if (optopt)
				fprintf(stderr, "iomatrix %s: option -%c %s\n", argv[0], optopt,
					strchr(shortopts, optopt) ? "needs a value" : "is unknown");
			else
				fprintf(stderr, "iomatrix %s: option %s is unknown\n", argv[0],
					argv[optind - 1]);
			return -1;
		}
		if (o->arg)
			*(const char **)((char *)opts + o->offset) = optarg;
		else
			*(bool *)((char *)opts + o->offset) = true;
	}
	if (optind < argc) {
		fprintf(stderr, "iomatrix %s: unexpected argument '%s'\n", argv[0], argv[optind]);
		return -1;
	}
	return opts->help ? 1 : 0;
}

/* The directory this program is in, from /proc/self/exe. */
static int exe_dir(char *out, size_t outlen)
{
	ssize_t n = readlink("/proc/self/exe", out, outlen - 1);
	char *slash;

	if (n <= 0)
		return -1;
	out[n] = '\0';
	slash = strrchr(out, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	return 0;
}

static int source_date_epoch(uint32_t *mtime, char *err, size_t errlen)
{
	const char *s = getenv("SOURCE_DATE_EPOCH");
	unsigned long long v;
	char *end;

	*mtime = 0;
	if (!s || !*s)
		return 0;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > UINT32_MAX || s[0] == '-')
		return errmsg(err, errlen, "SOURCE_DATE_EPOCH=%s: not seconds since 1970 that fit "
			      "a cpio header", s);
	*mtime = (uint32_t)v;
	return 0;
}

static void report(const struct image_result *res, double seconds)
{
	printf("iomatrix image: %s\n", res->output);
	printf("  kernel %s, %zu modules (%zu as soft dependencies), %s, config %s, %.1f s\n",
	       res->release, res->module_count, res->soft_count, res->compression->setting,
	       res->config_path[0] ? res->config_path : "not found", seconds);
	for (size_t i = 0; i < res->info.count; i++)
		printf("  %s\n", res->info.names[i]);
	if (res->builtin.count) {
		printf("  built into the kernel:");
		for (size_t i = 0; i < res->builtin.count; i++)
			printf(" %s", res->builtin.names[i]);
		printf("\n");
	}
	size_meter_print(&res->sizes, stdout);
}

int cmd_image(int argc, char **argv)
{
	struct image_options opts;
	char dir[PATH_MAX], runner[PATH_MAX + 32], data[PATH_MAX + 8], out_dir[PATH_MAX + 8];
	char err[ERRMSG_LEN];
	struct image_request req = { 0 };
	struct image_result res;
	struct timespec t0, t1;
	char *notes = NULL;
	size_t notes_len = 0;
	int r = parse_options(argc, argv, &opts);

	if (r) {
		usage(r > 0 ? stdout : stderr, argv[0]);
		return r > 0 ? 0 : 2;
	}
	if (exe_dir(dir, sizeof(dir))) {
		fprintf(stderr, "iomatrix %s: cannot read /proc/self/exe\n", argv[0]);
		return 1;
	}
	snprintf(runner, sizeof(runner), "%s/iomatrix-runner", dir);
	snprintf(data, sizeof(data), "%s/..", dir);
	snprintf(out_dir, sizeof(out_dir), "%s/image", dir);
	req.release = opts.release;
	req.modules_dir = opts.modules_dir;
	req.runner = opts.runner ? opts.runner : runner;
	req.data_dir = opts.data_dir ? opts.data_dir : data;
	req.compress = opts.compress;
	req.kernel_config = opts.kernel_config;
	req.output = opts.output;
	req.output_dir = out_dir;
	if (source_date_epoch(&req.mtime, err, sizeof(err))) {
		fprintf(stderr, "iomatrix %s: %s\n", argv[0], err);
		return 1;
	}
	/* Notes wait for the end: a failure then prints its one line alone. */
	req.notes = open_memstream(&notes, &notes_len);
	if (!req.notes) {
		fprintf(stderr, "iomatrix %s: out of memory\n", argv[0]);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	r = image_build(&req, &res, err, sizeof(err));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fclose(req.notes);
	if (r) {
		fprintf(stderr, "iomatrix %s: %s\n", argv[0], err);
		free(notes);
		return 1;
	}
	fputs(notes, stderr);
	free(notes);
	if (!opts.quiet)
		report(&res, (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	image_result_free(&res);
	return 0;
}
