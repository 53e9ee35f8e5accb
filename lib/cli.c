// SPDX-License-Identifier: GPL-2.0
/* Table-driven command-line options. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cli.h"

static const struct cli_opt *find_long(const struct cli_cmd *cmd, const char *name, size_t len)
{
	for (size_t i = 0; i < cmd->nopts; i++)
		if (strlen(cmd->opts[i].name) == len && !strncmp(cmd->opts[i].name, name, len))
			return &cmd->opts[i];
	return NULL;
}

static const struct cli_opt *find_short(const struct cli_cmd *cmd, char c)
{
	for (size_t i = 0; i < cmd->nopts; i++)
		if (cmd->opts[i].short_name && cmd->opts[i].short_name == c)
			return &cmd->opts[i];
	return NULL;
}

static int set_value(const struct cli_cmd *cmd, const struct cli_opt *o, const char *val,
		     void *dst)
{
	char *p = (char *)dst + o->offset, *end;

	switch (o->kind) {
	case CLI_FLAG:
		*(bool *)p = true;
		return 0;
	case CLI_STRING:
		*(const char **)p = val;
		return 0;
	case CLI_DOUBLE: {
		double d;

		errno = 0;
		d = strtod(val, &end);
		if (errno || end == val || *end || !isfinite(d) || d < o->min || d > o->max) {
			fprintf(stderr, "iomatrix %s: --%s %s: not a number from %g to %g\n",
				cmd->name, o->name, val, o->min, o->max);
			return -1;
		}
		*(double *)p = d;
		return 0;
	}
	case CLI_CHOICE:
		for (int i = 0; o->choices[i]; i++) {
			if (!strcmp(o->choices[i], val)) {
				*(int *)p = i;
				return 0;
			}
		}
		fprintf(stderr, "iomatrix %s: --%s %s: not one of", cmd->name, o->name, val);
		for (int i = 0; o->choices[i]; i++)
			fprintf(stderr, "%s %s", i ? "," : "", o->choices[i]);
		fputc('\n', stderr);
		return -1;
	}
	return -1;
}

int cli_parse(const struct cli_cmd *cmd, int argc, char **argv, void *dst, char **pos,
	      size_t *npos)
{
	bool only_pos = false;

	*npos = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
		const struct cli_opt *o = NULL;

		if (only_pos || a[0] != '-' || !a[1]) {
			if (*npos == cmd->max_pos) {
				fprintf(stderr, "iomatrix %s: %s: too many arguments\n", cmd->name,
					a);
				return -1;
			}
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
		if (a[1] == '-') {
			const char *eq = strchr(a + 2, '=');

			o = find_long(cmd, a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2));
			val = eq ? eq + 1 : NULL;
		} else if (!a[2]) {
			o = find_short(cmd, a[1]);
		}
		if (!o) {
			fprintf(stderr, "iomatrix %s: %s: unknown option (iomatrix %s --help)\n",
				cmd->name, a, cmd->name);
			return -1;
		}
		if (o->kind == CLI_FLAG && val) {
			fprintf(stderr, "iomatrix %s: --%s takes no value\n", cmd->name, o->name);
			return -1;
		}
		if (o->kind != CLI_FLAG && !val) {
			if (i + 1 == argc) {
				fprintf(stderr, "iomatrix %s: %s needs a value (%s)\n", cmd->name,
					a, o->arg);
				return -1;
			}
			val = argv[++i];
		}
		if (set_value(cmd, o, val, dst))
			return -1;
	}
	if (*npos < cmd->min_pos) {
		fprintf(stderr, "usage: iomatrix %s %s (iomatrix %s --help)\n", cmd->name,
			cmd->synopsis, cmd->name);
		return -1;
	}
	return 0;
}

void cli_usage(const struct cli_cmd *cmd, FILE *f)
{
	fprintf(f, "usage: iomatrix %s %s [OPTIONS]\n\n%s\n\noptions:\n", cmd->name, cmd->synopsis,
		cmd->about);
	for (size_t i = 0; i < cmd->nopts; i++) {
		const struct cli_opt *o = &cmd->opts[i];
		char left[64];

		const char *arg = o->kind == CLI_FLAG ? "" : o->arg;

		if (o->short_name)
			snprintf(left, sizeof(left), "-%c, --%s %s", o->short_name, o->name, arg);
		else
			snprintf(left, sizeof(left), "    --%s %s", o->name, arg);
		fprintf(f, "  %-26s %s", left, o->help);
		if (o->kind == CLI_CHOICE) {
			fputs(" (", f);
			for (int k = 0; o->choices[k]; k++)
				fprintf(f, "%s%s", k ? "|" : "", o->choices[k]);
			fputs(")", f);
		}
		fputc('\n', f);
	}
}
