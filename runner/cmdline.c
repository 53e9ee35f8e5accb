// SPDX-License-Identifier: GPL-2.0
/* The iomatrix.* kernel command line keys: one table, one parser. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "runner/cmdline.h"
#include "runner/results/results_spec.h"

#define KEY(field, type, def, help)                                                                \
	{                                                                                          \
#field, type, offsetof(struct appliance_config, field),                            \
			sizeof(((struct appliance_config *)0)->field), def, help                   \
	}

const struct cmdline_key cmdline_keys[] = {
	KEY(matrix, CMDLINE_NAME, "quick", "the matrix to run (a matrix in the image)"),
	KEY(cells, CMDLINE_CELLS, "all",
	    "which cells of the matrix to run: all, or a selection (1,4-7,fs=ext4,array!=jbod)"),
	KEY(disks, CMDLINE_LIST, "",
	    "the disks the appliance may use (vdb,nvme0n1,...); no other disk is touched"),
	KEY(wipe, CMDLINE_BOOL, "0",
	    "allow destroying a partition table or filesystem signature found on those disks"),
	KEY(results, CMDLINE_RESULTS, "console",
	    "where records go: console, serial:TTY, kmsg[:LEVEL], disk:PARTLABEL=x|PARTUUID=x|"
	    "serial=x|NAME, comma-separated"),
	KEY(results_init, CMDLINE_INIT, "0",
	    "make a results disk without a results log one (1), even over a partition table or "
	    "filesystem (force)"),
	KEY(debug, CMDLINE_BOOL, "0", "a more verbose console (every module load, every step)"),
	KEY(shell, CMDLINE_BOOL, "0",
	    "drop to busybox sh instead of powering off (debugging; exit the shell to power off)"),
	KEY(scale, CMDLINE_SCALE, "default",
	    "shrink the matrix's sizes and runtimes by this factor (0 < scale <= 1); default: "
	    "the matrix's own"),
	KEY(repeats, CMDLINE_COUNT, "default",
	    "runs of every cell (1-1000); default: what the matrix says"),
	KEY(watchdog, CMDLINE_AUTO_SECONDS, "auto",
	    "feed /dev/watchdog with this timeout in seconds (1-3600), 0 off; auto: 60 when "
	    "there is a watchdog and a results disk"),
	KEY(test_crash, CMDLINE_TESTPOINT, "",
	    "TEST ONLY: crash the kernel (sysrq c) in CELL[:STEP] on the run's first boot"),
	KEY(test_hang, CMDLINE_TESTPOINT, "",
	    "TEST ONLY: PID 1 stops feeding the watchdog and sleeps in CELL[:STEP] on the run's "
	    "first boot"),
};
const size_t cmdline_nkeys = sizeof(cmdline_keys) / sizeof(cmdline_keys[0]);

static bool is_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '-';
}

static bool is_list_char(char c)
{
	return is_name_char(c) || c == ':' || c == '/' || c == '=';
}

static bool valid_name(const char *v)
{
	if (!*v)
		return false;
	for (; *v; v++)
		if (!is_name_char(*v))
			return false;
	return true;
}

/* Comma-separated words; an empty value is an empty list, an empty word is not. */
static bool valid_list(const char *v)
{
	bool word = false;

	if (!*v)
		return true;
	for (; *v; v++) {
		if (*v == ',') {
			if (!word)
				return false;
			word = false;
		} else if (is_list_char(*v)) {
			word = true;
		} else {
			return false;
		}
	}
	return word;
}

static bool parse_cell_number(const char **p, unsigned long *out)
{
	char *end;

	if (!isdigit((unsigned char)**p))
		return false;
	*out = strtoul(*p, &end, 10);
	if (*out > 1000000)
		return false;
	*p = end;
	return true;
}

/* A filter term: dimension=value or dimension!=value (matrix/cell_select.h). */
static bool parse_cell_filter(const char **p)
{
	const char *v = *p;

	if (!islower((unsigned char)*v))
		return false;
	while (islower((unsigned char)*v) || isdigit((unsigned char)*v) || *v == '_')
		v++;
	if (*v == '!')
		v++;
	if (*v++ != '=')
		return false;
	if (!*v || *v == ',')
		return false;
	while (*v && *v != ',') {
		if (!isalnum((unsigned char)*v) && !strchr("._+:@%-", *v))
			return false;
		v++;
	}
	*p = v;
	return true;
}

/* "all", or comma-separated N, N-M and filters; the matrix checks names and numbers. */
static bool valid_cells(const char *v)
{
	if (!strcmp(v, "all"))
		return true;
	for (;;) {
		unsigned long first, last;

		if (isdigit((unsigned char)*v)) {
			if (!parse_cell_number(&v, &first))
				return false;
			last = first;
			if (*v == '-') {
				v++;
				if (!parse_cell_number(&v, &last) || last < first)
					return false;
			}
		} else if (!parse_cell_filter(&v)) {
			return false;
		}
		if (!*v)
			return true;
		if (*v++ != ',')
			return false;
	}
}

/* "default" is 0; otherwise a plain decimal number within (0, 1]. */
static bool parse_scale(const char *v, double *out)
{
	char *end;
	double d;

	if (!strcmp(v, "default")) {
		*out = 0;
		return true;
	}
	if (!isdigit((unsigned char)v[0]) && v[0] != '.')
		return false;
	d = strtod(v, &end);
	if (*end || !(d > 0 && d <= 1))
		return false;
	*out = d;
	return true;
}

static bool parse_count(const char *v, int *out)
{
	unsigned long n;

	if (!strcmp(v, "default")) {
		*out = 0;
		return true;
	}
	if (!parse_cell_number(&v, &n) || *v || n < 1 || n > 1000)
		return false;
	*out = (int)n;
	return true;
}

static bool parse_init(const char *v, int *out)
{
	bool b;

	if (!strcmp(v, "force")) {
		*out = RESULTS_INIT_FORCE;
		return true;
	}
	if (units_bool(v, UNITS_BOOL_KERNEL, &b))
		return false;
	*out = b ? RESULTS_INIT_YES : RESULTS_INIT_NO;
	return true;
}

static bool parse_auto_seconds(const char *v, int *out)
{
	unsigned long n;
	bool b;

	if (!strcmp(v, "auto")) {
		*out = CMDLINE_AUTO;
		return true;
	}
	if (!units_bool(v, UNITS_BOOL_KERNEL, &b) && !b) {
		*out = 0;
		return true;
	}
	if (!parse_cell_number(&v, &n) || *v || n > 3600)
		return false;
	*out = (int)n;
	return true;
}

static const char *const stages[] = {"setup", "workload", "teardown"};

int cmdline_testpoint_parse(const char *value, int *cell, const char **stage)
{
	const char *v = value;
	unsigned long n;

	if (!parse_cell_number(&v, &n) || n < 1)
		return -1;
	*cell = (int)n;
	*stage = "workload";
	if (!*v)
		return 0;
	if (*v++ != ':')
		return -1;
	for (size_t i = 0; i < sizeof(stages) / sizeof(stages[0]); i++)
		if (!strcmp(v, stages[i])) {
			*stage = stages[i];
			return 0;
		}
	return -1;
}

static bool valid_testpoint(const char *v)
{
	const char *stage;
	int cell;

	return !*v || !cmdline_testpoint_parse(v, &cell, &stage);
}

static const char *type_rule(enum cmdline_type type)
{
	static const char *const rules[] = {
		[CMDLINE_BOOL] = "not a boolean (use 1/0, y/n, yes/no, on/off, true/false)",
		[CMDLINE_NAME] = "not a name (letters, digits, '_', '.', '-')",
		[CMDLINE_CELLS] = ("not a cell selection (all, or N, N-M, dimension=value and "
				   "dimension!=value separated by commas)"),
		[CMDLINE_LIST] = "not a comma-separated list of words",
		[CMDLINE_SCALE] = "not a scale (default, or a number above 0 and at most 1)",
		[CMDLINE_COUNT] = "not a count (default, or a whole number from 1 to 1000)",
		[CMDLINE_RESULTS] = "not a list of results channels",
		[CMDLINE_INIT] = "not 0, 1 or force",
		[CMDLINE_AUTO_SECONDS] = "not auto, 0 (off) or seconds from 1 to 3600",
		[CMDLINE_TESTPOINT] = "not CELL[:STAGE] (a cell number; stage " CMDLINE_STAGES ")",
	};

	return rules[type];
}

static void known_keys(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < cmdline_nkeys && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s%s", i ? ", " : "",
					 CMDLINE_PREFIX, cmdline_keys[i].name);
}

static bool has_control(const char *s)
{
	for (; s && *s; s++)
		if (iscntrl((unsigned char)*s))
			return true;
	return false;
}

/* A copy fit for one console line: control characters become '?'. */
static const char *printable(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	for (; s && *s && n + 1 < len; s++)
		buf[n++] = iscntrl((unsigned char)*s) ? '?' : *s;
	buf[n] = '\0';
	return buf;
}

int cmdline_set(struct appliance_config *cfg, const char *name, const char *value, char *err,
		size_t errlen)
{
	const struct cmdline_key *k = NULL;
	char *field, why[RESULTS_SPEC_ERR_LEN] = "";
	bool ok;

	if (has_control(name) || has_control(value)) {
		char n[128], v[128];

		snprintf(err, errlen, "%s%s=%s: control character in a key or value",
			 CMDLINE_PREFIX, printable(name, n, sizeof(n)),
			 value ? printable(value, v, sizeof(v)) : "");
		return -1;
	}

	for (size_t i = 0; i < cmdline_nkeys; i++)
		if (!strcmp(name, cmdline_keys[i].name))
			k = &cmdline_keys[i];
	if (!k) {
		char known[400];

		known_keys(known, sizeof(known));
		snprintf(err, errlen, "unknown key %s%s (known: %s)", CMDLINE_PREFIX, name, known);
		return -1;
	}
	field = (char *)cfg + k->offset;
	if (k->type == CMDLINE_BOOL) {
		if (units_bool(value, UNITS_BOOL_KERNEL, (bool *)field) == 0)
			return 0;
		snprintf(err, errlen, "%s%s=%s: %s", CMDLINE_PREFIX, name, value,
			 type_rule(k->type));
		return -1;
	}
	if (!value && k->type == CMDLINE_INIT)
		value = "1";
	if (!value) {
		snprintf(err, errlen, "%s%s needs a value (%s)", CMDLINE_PREFIX, name, k->help);
		return -1;
	}
	switch (k->type) {
	case CMDLINE_NAME:
		ok = valid_name(value);
		break;
	case CMDLINE_CELLS:
		ok = valid_cells(value);
		break;
	case CMDLINE_SCALE:
		ok = parse_scale(value, (double *)field);
		break;
	case CMDLINE_COUNT:
		ok = parse_count(value, (int *)field);
		break;
	case CMDLINE_RESULTS: {
		static struct results_spec spec;

		ok = !results_spec_parse(value, &spec, why, sizeof(why));
		break;
	}
	case CMDLINE_INIT:
		ok = parse_init(value, (int *)field);
		break;
	case CMDLINE_AUTO_SECONDS:
		ok = parse_auto_seconds(value, (int *)field);
		break;
	case CMDLINE_TESTPOINT:
		ok = valid_testpoint(value);
		break;
	default:
		ok = valid_list(value);
		break;
	}
	if (!ok) {
		snprintf(err, errlen, "%s%s=%s: %s", CMDLINE_PREFIX, name, value,
			 why[0] ? why : type_rule(k->type));
		return -1;
	}
	if (k->type == CMDLINE_SCALE || k->type == CMDLINE_COUNT || k->type == CMDLINE_INIT ||
	    k->type == CMDLINE_AUTO_SECONDS)
		return 0;
	if (strlen(value) >= k->size) {
		snprintf(err, errlen, "%s%s=%s: longer than %zu characters", CMDLINE_PREFIX, name,
			 value, k->size - 1);
		return -1;
	}
	memcpy(field, value, strlen(value) + 1);
	return 0;
}

void cmdline_defaults(struct appliance_config *cfg)
{
	char err[CMDLINE_ERR_LEN];

	memset(cfg, 0, sizeof(*cfg));
	/* The defaults are valid by construction; the unit test holds them to it. */
	for (size_t i = 0; i < cmdline_nkeys; i++)
		if (cmdline_set(cfg, cmdline_keys[i].name, cmdline_keys[i].def, err, sizeof(err)))
			abort();
}

/*
 * The next word of a command line, the kernel's way (lib/cmdline.c
 * next_arg): blanks separate words, double quotes group blanks into one
 * and are dropped. Returns the word's length in out (NUL-terminated) or 0
 * at the end.
 */
static size_t next_word(const char **p, char *out, size_t outlen)
{
	const char *s = *p;
	size_t n = 0;
	bool quoted = false;

	while (isspace((unsigned char)*s))
		s++;
	for (; *s && (quoted || !isspace((unsigned char)*s)); s++) {
		if (*s == '"') {
			quoted = !quoted;
			continue;
		}
		if (n + 1 < outlen)
			out[n++] = *s;
	}
	out[n] = '\0';
	*p = s;
	return n;
}

int cmdline_parse(struct appliance_config *cfg, const char *cmdline, char *err, size_t errlen)
{
	char word[1024];
	const char *p = cmdline;
	size_t plen = strlen(CMDLINE_PREFIX);

	while (next_word(&p, word, sizeof(word))) {
		char *eq;

		if (strncmp(word, CMDLINE_PREFIX, plen))
			continue;
		eq = strchr(word, '=');
		if (eq)
			*eq = '\0';
		if (cmdline_set(cfg, word + plen, eq ? eq + 1 : NULL, err, errlen))
			return -1;
	}
	return 0;
}

/* A setting as text, as the parser takes it back. */
static const char *format_value(const struct cmdline_key *k, const char *field, char *num,
				size_t len)
{
	switch (k->type) {
	case CMDLINE_BOOL:
		return *(const bool *)field ? "1" : "0";
	case CMDLINE_SCALE:
		if (*(const double *)field <= 0)
			return "default";
		snprintf(num, len, "%g", *(const double *)field);
		return num;
	case CMDLINE_COUNT:
		if (*(const int *)field <= 0)
			return "default";
		snprintf(num, len, "%d", *(const int *)field);
		return num;
	case CMDLINE_INIT: {
		static const char *const words[] = {"0", "1", "force"};

		return words[*(const int *)field];
	}
	case CMDLINE_AUTO_SECONDS:
		if (*(const int *)field == CMDLINE_AUTO)
			return "auto";
		snprintf(num, len, "%d", *(const int *)field);
		return num;
	default:
		return field;
	}
}

void cmdline_format(const struct appliance_config *cfg, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < cmdline_nkeys && used < len; i++) {
		const struct cmdline_key *k = &cmdline_keys[i];
		char num[32];
		const char *val = format_value(k, (const char *)cfg + k->offset, num, sizeof(num));

		used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", i ? " " : "", k->name,
					 val);
	}
}
