// SPDX-License-Identifier: GPL-2.0
/* Parsing option values by their type in the table; see job_options.h. */
#include "matrix/job_options.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/units.h"

#define FIELD(o, d, type) ((type *)((char *)(o) + (d)->off))

const struct option_def *option_find(const char *name)
{
	for (size_t i = 0; i < option_count; i++) {
		const struct option_def *d = &option_table[i];

		if (!strcmp(d->name, name) || (d->alias && !strcmp(d->alias, name)))
			return d;
	}
	return NULL;
}

int option_is_flag(const struct option_def *d)
{
	return d->type == OT_BOOL || d->type == OT_INV_BOOL;
}

static int bad(char *err, size_t errlen, const struct option_def *d, const char *value,
	       const char *why)
{
	snprintf(err, errlen, "option '%s': bad value '%s': %s", d->name, value ? value : "",
		 why);
	return -1;
}

/* Splits s at sep into at most n fields (copies into buf); returns the count. */
static int split(const char *s, char sep, char *buf, size_t buflen, char **fields, int n)
{
	int count = 0;
	char *p;

	snprintf(buf, buflen, "%s", s);
	p = buf;
	while (count < n) {
		char *next = strchr(p, sep);

		fields[count++] = p;
		if (!next)
			break;
		*next = '\0';
		p = next + 1;
	}
	return count;
}

/*
 * Which directions field i of n per-direction fields ("R,W,T") sets: one
 * value sets all three, a second one sets writes and trims, a third trims.
 */
static int field_covers(int i, int n, int dir)
{
	if (n == 1)
		return 1;
	if (n == 2 && i == 1)
		return dir >= 1;
	return dir == i;
}

static int parse_bs_value(const struct job_options *o, const char *s, uint32_t *out, char *err,
			  size_t errlen)
{
	uint64_t v;

	if (units_size(s, o->kb_base, &v, err, errlen))
		return -1;
	if (v == 0 || v > (1u << 30)) {
		snprintf(err, errlen, "block size %s is not in 1..1G", s);
		return -1;
	}
	*out = (uint32_t)v;
	return 0;
}

static int set_bs(struct job_options *o, const struct option_def *d, const char *value,
		  char *err, size_t errlen)
{
	char buf[256], why[UNITS_ERR_LEN], *f[DDIR_NR + 1];
	int n = split(value, ',', buf, sizeof(buf), f, DDIR_NR + 1);

	if (n > DDIR_NR)
		return bad(err, errlen, d, value, "at most three values (read,write,trim)");
	for (int i = 0; i < n; i++) {
		uint32_t bs;

		if (!*f[i])
			continue; /* "bs=,8k" keeps the read size */
		if (parse_bs_value(o, f[i], &bs, why, sizeof(why)))
			return bad(err, errlen, d, value, why);
		for (int dir = 0; dir < DDIR_NR; dir++)
			if (field_covers(i, n, dir)) {
				o->bs[dir] = o->bs_min[dir] = o->bs_max[dir] = bs;
				o->bssplit_n[dir] = 0;
			}
	}
	return 0;
}

static int set_bsrange(struct job_options *o, const struct option_def *d, const char *value,
		       char *err, size_t errlen)
{
	char buf[256], why[UNITS_ERR_LEN], *f[DDIR_NR + 1];
	int n = split(value, ',', buf, sizeof(buf), f, DDIR_NR + 1);

	if (n > DDIR_NR)
		return bad(err, errlen, d, value, "at most three ranges (read,write,trim)");
	for (int i = 0; i < n; i++) {
		char *dash = strchr(f[i], '-');
		uint32_t lo, hi;

		if (!*f[i])
			continue;
		if (!dash)
			return bad(err, errlen, d, value, "a range is MIN-MAX");
		*dash = '\0';
		if (parse_bs_value(o, f[i], &lo, why, sizeof(why)) ||
		    parse_bs_value(o, dash + 1, &hi, why, sizeof(why)))
			return bad(err, errlen, d, value, why);
		if (lo > hi)
			return bad(err, errlen, d, value, "MIN is larger than MAX");
		for (int dir = 0; dir < DDIR_NR; dir++)
			if (field_covers(i, n, dir)) {
				o->bs_min[dir] = lo;
				o->bs_max[dir] = hi;
				o->bs[dir] = lo;
				o->bssplit_n[dir] = 0;
			}
	}
	return 0;
}

static int set_bssplit_dir(struct job_options *o, int dir, const struct option_def *d,
			   const char *value, char *part, char *err, size_t errlen)
{
	char buf[512], why[UNITS_ERR_LEN], *f[BSSPLIT_MAX + 1];
	int n = split(part, ':', buf, sizeof(buf), f, BSSPLIT_MAX + 1);
	uint32_t total = 0, blanks = 0;

	if (n > BSSPLIT_MAX)
		return bad(err, errlen, d, value, "too many block sizes");
	for (int i = 0; i < n; i++) {
		struct bssplit_entry *e = &o->bssplit[dir][i];
		char *slash = strchr(f[i], '/');
		long long pct = -1;

		if (slash) {
			*slash = '\0';
			if (*(slash + 1)) {
				if (units_int(slash + 1, 1000, &pct, why, sizeof(why)))
					return bad(err, errlen, d, value, why);
				if (pct < 0 || pct > 100)
					return bad(err, errlen, d, value,
						   "a percentage is 0..100");
			}
		}
		if (parse_bs_value(o, f[i], &e->bs, why, sizeof(why)))
			return bad(err, errlen, d, value, why);
		if (pct < 0) {
			e->pct = UINT32_MAX; /* filled in below */
			blanks++;
		} else {
			e->pct = (uint32_t)pct;
			total += e->pct;
		}
	}
	if (total > 100)
		return bad(err, errlen, d, value, "the percentages add up to more than 100");
	/* Sizes without a percentage share what is left, as in fio. */
	for (int i = 0; i < n; i++) {
		struct bssplit_entry *e = &o->bssplit[dir][i];

		if (e->pct == UINT32_MAX)
			e->pct = (100 - total) / blanks;
	}
	total = 0;
	for (int i = 0; i < n; i++)
		total += o->bssplit[dir][i].pct;
	if (total != 100 && n)
		o->bssplit[dir][n - 1].pct += 100 - total;
	o->bssplit_n[dir] = (uint32_t)n;
	uint32_t lo = UINT32_MAX, hi = 0;
	for (int i = 0; i < n; i++) {
		uint32_t bs = o->bssplit[dir][i].bs;
		lo = bs < lo ? bs : lo;
		hi = bs > hi ? bs : hi;
	}
	if (n) {
		o->bs_min[dir] = lo;
		o->bs_max[dir] = hi;
		o->bs[dir] = lo;
	}
	return 0;
}

static int set_bssplit(struct job_options *o, const struct option_def *d, const char *value,
		       char *err, size_t errlen)
{
	char buf[1024], *f[DDIR_NR + 1];
	int n = split(value, ',', buf, sizeof(buf), f, DDIR_NR + 1);

	if (n > DDIR_NR)
		return bad(err, errlen, d, value, "at most three lists (read,write,trim)");
	for (int i = 0; i < n; i++) {
		if (!*f[i])
			continue;
		if (set_bssplit_dir(o, i, d, value, f[i], err, errlen))
			return -1;
		for (int dir = 0; dir < DDIR_NR; dir++) {
			if (dir == i || !field_covers(i, n, dir))
				continue;
			memcpy(o->bssplit[dir], o->bssplit[i], sizeof(o->bssplit[0]));
			o->bssplit_n[dir] = o->bssplit_n[i];
			o->bs_min[dir] = o->bs_min[i];
			o->bs_max[dir] = o->bs_max[i];
			o->bs[dir] = o->bs[i];
		}
	}
	return 0;
}

static int set_rate(struct job_options *o, const struct option_def *d, const char *value,
		    char *err, size_t errlen, int iops)
{
	char buf[256], why[UNITS_ERR_LEN], *f[DDIR_NR + 1];
	int n = split(value, ',', buf, sizeof(buf), f, DDIR_NR + 1);

	if (n > DDIR_NR)
		return bad(err, errlen, d, value, "at most three values (read,write,trim)");
	for (int i = 0; i < n; i++) {
		uint64_t v;

		if (!*f[i])
			continue;
		if (iops) {
			long long x;

			if (units_int(f[i], 1000, &x, why, sizeof(why)))
				return bad(err, errlen, d, value, why);
			if (x < 0 || x > UINT32_MAX)
				return bad(err, errlen, d, value, "out of range");
			v = (uint64_t)x;
		} else if (units_size(f[i], o->kb_base, &v, why, sizeof(why))) {
			return bad(err, errlen, d, value, why);
		}
		/* A single value limits reads and writes alike, as in fio. */
		for (int dir = 0; dir < DDIR_NR; dir++) {
			if (!field_covers(i, n, dir))
				continue;
			if (iops)
				o->rate_iops[dir] = (uint32_t)v;
			else
				o->rate[dir] = v;
		}
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int set_pct_list(struct job_options *o, const struct option_def *d, const char *value,
			char *err, size_t errlen)
{
	char buf[1024], why[UNITS_ERR_LEN], *f[PCT_LIST_MAX + 1];
	int n = split(value, ':', buf, sizeof(buf), f, PCT_LIST_MAX + 1);

	if (n > PCT_LIST_MAX)
		return bad(err, errlen, d, value, "at most 64 percentiles");
	for (int i = 0; i < n; i++) {
		double p;

		if (units_float(f[i], &p, why, sizeof(why)))
			return bad(err, errlen, d, value, why);
		if (!(p > 0 && p <= 100))
			return bad(err, errlen, d, value, "a percentile is in (0, 100]");
		o->percentile_list[i] = p;
	}
	qsort(o->percentile_list, n, sizeof(double), cmp_double);
	o->percentile_n = (uint32_t)n;
	return 0;
}

static int set_dist(struct job_options *o, const struct option_def *d, const char *value,
		    char *err, size_t errlen)
{
	const char *colon = strchr(value, ':');
	char why[UNITS_ERR_LEN];
	size_t len = colon ? (size_t)(colon - value) : strlen(value);
	double p = 0;

	if (len == 6 && !strncmp(value, "random", 6) && !colon) {
		o->random_distribution = DIST_RANDOM;
		o->dist_param = 0;
		return 0;
	}
	if (!colon)
		return bad(err, errlen, d, value, "random, zipf:THETA or pareto:H");
	if (units_float(colon + 1, &p, why, sizeof(why)))
		return bad(err, errlen, d, value, why);
	if (len == 4 && !strncmp(value, "zipf", 4)) {
		if (!(p > 0) || p == 1.0)
			return bad(err, errlen, d, value, "zipf's theta is > 0 and not 1");
		o->random_distribution = DIST_ZIPF;
	} else if (len == 6 && !strncmp(value, "pareto", 6)) {
		if (!(p > 0 && p < 1))
			return bad(err, errlen, d, value, "pareto's h is in (0, 1)");
		o->random_distribution = DIST_PARETO;
	} else {
		return bad(err, errlen, d, value, "random, zipf:THETA or pareto:H");
	}
	o->dist_param = p;
	return 0;
}

static int set_enum(struct job_options *o, const struct option_def *d, const char *value,
		    char *err, size_t errlen)
{
	char list[512] = "";
	size_t n = 0;

	for (const struct opt_choice *c = d->choices; c->name; c++) {
		if (!strcmp(c->name, value)) {
			*FIELD(o, d, uint32_t) = c->value;
			return 0;
		}
		n += snprintf(list + n, n < sizeof(list) ? sizeof(list) - n : 0, "%s%s",
			      c == d->choices ? "" : ", ", c->name);
		if (n >= sizeof(list))
			n = sizeof(list) - 1;
	}
	snprintf(err, errlen, "option '%s': bad value '%s': one of %s", d->name, value, list);
	return -1;
}

static int set_str(struct job_options *o, const struct option_def *d, const char *value,
		   char *err, size_t errlen)
{
	char **p = FIELD(o, d, char *);
	char *copy = strdup(value);

	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	free(*p);
	*p = copy;
	return 0;
}

int option_set(struct job_options *o, const struct option_def *d, const char *value, char *err,
	       size_t errlen)
{
	char why[UNITS_ERR_LEN];
	bool b;

	if (!value && !option_is_flag(d)) {
		snprintf(err, errlen, "option '%s' needs a value", d->name);
		return -1;
	}
	switch (d->type) {
	case OT_STR:
		if (set_str(o, d, value, err, errlen))
			return -1;
		break;
	case OT_BOOL:
	case OT_INV_BOOL:
		if (units_bool(value, UNITS_BOOL_FIO, &b))
			return bad(err, errlen, d, value, "a flag is 0 or 1");
		*FIELD(o, d, uint32_t) = d->type == OT_BOOL ? b : !b;
		break;
	case OT_U32:
	case OT_MIX_WRITE: {
		long long v;

		if (units_int(value, o->kb_base, &v, why, sizeof(why)))
			return bad(err, errlen, d, value, why);
		if (v < d->min || (d->max && v > d->max) || v > UINT32_MAX) {
			snprintf(why, sizeof(why), "must be in %lld..%lld", d->min,
				 d->max ? d->max : (long long)UINT32_MAX);
			return bad(err, errlen, d, value, why);
		}
		*FIELD(o, d, uint32_t) = d->type == OT_MIX_WRITE ? 100 - (uint32_t)v : (uint32_t)v;
		break;
	}
	case OT_U64: {
		long long v;

		if (units_int(value, o->kb_base, &v, why, sizeof(why)))
			return bad(err, errlen, d, value, why);
		if (v < 0)
			return bad(err, errlen, d, value, "must not be negative");
		*FIELD(o, d, uint64_t) = (uint64_t)v;
		break;
	}
	case OT_SIZE:
		if (units_size(value, o->kb_base, FIELD(o, d, uint64_t), why, sizeof(why)))
			return bad(err, errlen, d, value, why);
		break;
	case OT_SIZE_PCT: {
		size_t len = strlen(value);
		uint32_t *pct = (uint32_t *)((char *)o + d->off2);

		if (len && value[len - 1] == '%') {
			char num[64];
			double p;

			snprintf(num, sizeof(num), "%.*s", (int)(len - 1), value);
			if (units_float(num, &p, why, sizeof(why)))
				return bad(err, errlen, d, value, why);
			if (!(p > 0 && p <= 100))
				return bad(err, errlen, d, value, "a percentage is in (0, 100]");
			*pct = (uint32_t)(p * 1000 + 0.5); /* thousandths of a percent */
			*FIELD(o, d, uint64_t) = 0;
		} else {
			if (units_size(value, o->kb_base, FIELD(o, d, uint64_t), why, sizeof(why)))
				return bad(err, errlen, d, value, why);
			*pct = 0;
		}
		break;
	}
	case OT_TIME:
		if (units_time_us(value, d->time_unit_ns, FIELD(o, d, uint64_t), why, sizeof(why)))
			return bad(err, errlen, d, value, why);
		break;
	case OT_ENUM:
		return set_enum(o, d, value, err, errlen);
	case OT_BS:
		return set_bs(o, d, value, err, errlen);
	case OT_BSRANGE:
		return set_bsrange(o, d, value, err, errlen);
	case OT_BSSPLIT:
		return set_bssplit(o, d, value, err, errlen);
	case OT_RATE:
		return set_rate(o, d, value, err, errlen, 0);
	case OT_RATE_IOPS:
		return set_rate(o, d, value, err, errlen, 1);
	case OT_PCT_LIST:
		return set_pct_list(o, d, value, err, errlen);
	case OT_DIST:
		return set_dist(o, d, value, err, errlen);
	}
	return 0;
}

int job_options_init(struct job_options *o)
{
	char err[256];

	memset(o, 0, sizeof(*o));
	o->kb_base = 1024;
	for (size_t i = 0; i < option_count; i++) {
		const struct option_def *d = &option_table[i];

		if (d->def && option_set(o, d, d->def, err, sizeof(err))) {
			fprintf(stderr, "bug: default of %s: %s\n", d->name, err);
			return -1;
		}
	}
	memset(o->given, 0, sizeof(o->given));
	return 0;
}

int job_options_copy(struct job_options *dst, const struct job_options *src)
{
	memcpy(dst, src, sizeof(*dst));
	for (size_t i = 0; i < option_count; i++) {
		const struct option_def *d = &option_table[i];
		char **p;

		if (d->type != OT_STR)
			continue;
		p = FIELD(dst, d, char *);
		if (*p && !(*p = strdup(*p))) {
			/* Leave dst freeable: clear the strings not copied yet. */
			for (size_t j = i + 1; j < option_count; j++)
				if (option_table[j].type == OT_STR)
					*FIELD(dst, &option_table[j], char *) = NULL;
			return -1;
		}
	}
	return 0;
}

void job_options_free(struct job_options *o)
{
	for (size_t i = 0; i < option_count; i++) {
		const struct option_def *d = &option_table[i];

		if (d->type == OT_STR) {
			free(*FIELD(o, d, char *));
			*FIELD(o, d, char *) = NULL;
		}
	}
}

static const char *type_name(enum opt_type t)
{
	static const char *const names[] = {
		[OT_STR] = "string",	     [OT_BOOL] = "flag",	 [OT_INV_BOOL] = "flag",
		[OT_U32] = "integer",	     [OT_U64] = "integer",	 [OT_SIZE] = "size",
		[OT_SIZE_PCT] = "size or %", [OT_TIME] = "time",	 [OT_ENUM] = "choice",
		[OT_BS] = "size list",	     [OT_BSRANGE] = "range list", [OT_BSSPLIT] = "split list",
		[OT_RATE] = "size list",     [OT_RATE_IOPS] = "int list", [OT_PCT_LIST] = "float list",
		[OT_DIST] = "distribution",  [OT_MIX_WRITE] = "integer",
	};
	return names[t];
}

static void print_one(FILE *f, const struct option_def *d, int verbose)
{
	fprintf(f, "%-28s: %s\n", d->name, d->help);
	if (!verbose)
		return;
	if (d->alias)
		fprintf(f, "%-28s: %s\n", "alias", d->alias);
	fprintf(f, "%-28s: %s\n", "type", type_name(d->type));
	fprintf(f, "%-28s: %s\n", "category", d->category);
	if (d->def)
		fprintf(f, "%-28s: %s\n", "default", d->def);
	if (d->type == OT_U32 && d->max)
		fprintf(f, "%-28s: %lld..%lld\n", "range", d->min, d->max);
	if (d->choices)
		for (const struct opt_choice *c = d->choices; c->name; c++)
			fprintf(f, "%28s: %-12s %s\n", "choice", c->name, c->help);
}

int option_print_help(FILE *f, const char *name)
{
	if (!name || !strcmp(name, "all")) {
		for (size_t i = 0; i < option_count; i++)
			print_one(f, &option_table[i], 0);
		return 0;
	}
	const struct option_def *d = option_find(name);

	if (!d)
		return -1;
	print_one(f, d, 1);
	return 0;
}

const char *option_choice_name(const char *option, uint32_t value)
{
	const struct option_def *d = option_find(option);

	if (!d || !d->choices)
		return "?";
	for (const struct opt_choice *c = d->choices; c->name; c++)
		if (c->value == value)
			return c->name;
	return "?";
}
