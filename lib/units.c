// SPDX-License-Identifier: GPL-2.0
/* Numbers, units and arithmetic as fio reads them; see units.h. */
#include "lib/units.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define MAX_NESTING 32

struct expr {
	const char *s;
	const char *p;
	enum units_kind kind;
	unsigned kb_base;
	uint64_t time_unit_ns;
	int depth;
	int saw_time_unit; /* a bare time is in the default unit only if no number has one */
	char *err;
	size_t errlen;
	int failed;
};

static void efail(struct expr *e, const char *fmt, ...)
{
	va_list ap;

	if (e->failed)
		return;
	e->failed = 1;
	va_start(ap, fmt);
	vsnprintf(e->err, e->errlen, fmt, ap);
	va_end(ap);
}

static void skip_blanks(struct expr *e)
{
	while (isspace((unsigned char)*e->p))
		e->p++;
}

struct suffix {
	const char *name;
	int power;     /* of the kilo, for sizes */
	int binary;    /* always 1024, whatever kb_base says */
	uint64_t ns;   /* for times */
};

static const struct suffix size_suffixes[] = {
	{ "", 0, 0, 0 },     { "b", 0, 0, 0 },    { "k", 1, 0, 0 },    { "kb", 1, 0, 0 },
	{ "ki", 1, 1, 0 },   { "kib", 1, 1, 0 },  { "m", 2, 0, 0 },    { "mb", 2, 0, 0 },
	{ "mi", 2, 1, 0 },   { "mib", 2, 1, 0 },  { "g", 3, 0, 0 },    { "gb", 3, 0, 0 },
	{ "gi", 3, 1, 0 },   { "gib", 3, 1, 0 },  { "t", 4, 0, 0 },    { "tb", 4, 0, 0 },
	{ "ti", 4, 1, 0 },   { "tib", 4, 1, 0 },  { "p", 5, 0, 0 },    { "pb", 5, 0, 0 },
	{ "pi", 5, 1, 0 },   { "pib", 5, 1, 0 },
};

static const struct suffix time_suffixes[] = {
	{ "ns", 0, 0, 1ULL },
	{ "nsec", 0, 0, 1ULL },
	{ "us", 0, 0, 1000ULL },
	{ "usec", 0, 0, 1000ULL },
	{ "ms", 0, 0, 1000000ULL },
	{ "msec", 0, 0, 1000000ULL },
	{ "s", 0, 0, 1000000000ULL },
	{ "sec", 0, 0, 1000000000ULL },
	{ "m", 0, 0, 60000000000ULL },
	{ "min", 0, 0, 60000000000ULL },
	{ "h", 0, 0, 3600000000000ULL },
	{ "d", 0, 0, 86400000000000ULL },
};

/* The multiplier a unit suffix stands for; the empty suffix included. */
static int suffix_value(struct expr *e, const char *word, size_t len, long double *mult)
{
	char w[16];

	if (len >= sizeof(w)) {
		efail(e, "unknown unit '%.*s'", (int)len, word);
		return -1;
	}
	memcpy(w, word, len);
	w[len] = '\0';
	if (e->kind == UNITS_TIME) {
		if (!len) {
			*mult = 1;
			return 0;
		}
		for (size_t i = 0; i < sizeof(time_suffixes) / sizeof(time_suffixes[0]); i++)
			if (!strcasecmp(w, time_suffixes[i].name)) {
				*mult = (long double)time_suffixes[i].ns;
				e->saw_time_unit = 1;
				return 0;
			}
		efail(e, "unknown time unit '%s' (ns, us, ms, s, m, h, d)", w);
		return -1;
	}
	for (size_t i = 0; i < sizeof(size_suffixes) / sizeof(size_suffixes[0]); i++) {
		const struct suffix *sf = &size_suffixes[i];
		long double base, m = 1;

		if (strcasecmp(w, sf->name))
			continue;
		base = sf->binary ? 1024 : e->kb_base;
		for (int p = 0; p < sf->power; p++)
			m *= base;
		*mult = m;
		return 0;
	}
	efail(e, "unknown unit '%s' (k, m, g, t, p; KiB; kB)", w);
	return -1;
}

static long double parse_expr(struct expr *e);

static long double apply_suffix(struct expr *e, long double v)
{
	const char *start = e->p;
	long double mult;

	while (isalpha((unsigned char)*e->p))
		e->p++;
	if (suffix_value(e, start, e->p - start, &mult))
		return 0;
	return v * mult;
}

static long double parse_number(struct expr *e)
{
	long double v = 0;
	const char *p = e->p;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2])) {
		p += 2;
		while (isxdigit((unsigned char)*p)) {
			int d = isdigit((unsigned char)*p) ? *p - '0' : tolower(*p) - 'a' + 10;

			v = v * 16 + d;
			p++;
		}
		e->p = p;
		return v;
	}
	if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1]))) {
		if (*p)
			efail(e, "expected a number at '%s'", p);
		else
			efail(e, "expected a number");
		return 0;
	}
	while (isdigit((unsigned char)*p))
		v = v * 10 + (*p++ - '0');
	if (*p == '.') {
		long double scale = 0.1L;

		p++;
		while (isdigit((unsigned char)*p)) {
			v += (*p++ - '0') * scale;
			scale /= 10;
		}
	}
	e->p = p;
	return v;
}

static long double parse_primary(struct expr *e)
{
	long double v;

	skip_blanks(e);
	if (*e->p == '(') {
		if (++e->depth > MAX_NESTING) {
			efail(e, "expression nested too deeply");
			return 0;
		}
		e->p++;
		v = parse_expr(e);
		skip_blanks(e);
		if (*e->p != ')') {
			efail(e, "missing ')'");
			return 0;
		}
		e->p++;
		e->depth--;
		/* "(1+3)k" multiplies the group; a bare group is unitless. */
		if (isalpha((unsigned char)*e->p))
			return apply_suffix(e, v);
		return v;
	}
	v = parse_number(e);
	if (e->failed)
		return 0;
	return apply_suffix(e, v);
}

/* Unary minus binds tighter than '^' on its right: -2^2 = 4, as in fio's parser. */
static long double parse_unary(struct expr *e)
{
	skip_blanks(e);
	if (*e->p == '-') {
		e->p++;
		if (++e->depth > MAX_NESTING) {
			efail(e, "expression nested too deeply");
			return 0;
		}
		long double v = -parse_unary(e);
		e->depth--;
		return v;
	}
	if (*e->p == '+') {
		e->p++;
		return parse_unary(e);
	}
	return parse_primary(e);
}

static long double parse_power(struct expr *e)
{
	long double v = parse_unary(e);

	skip_blanks(e);
	if (*e->p == '^' && !e->failed) {
		e->p++;
		if (++e->depth > MAX_NESTING) {
			efail(e, "expression nested too deeply");
			return 0;
		}
		long double x = parse_power(e);
		e->depth--;
		return powl(v, x);
	}
	return v;
}

static long double parse_term(struct expr *e)
{
	long double v = parse_power(e);

	for (;;) {
		char op;
		long double r;

		skip_blanks(e);
		op = *e->p;
		if (e->failed || (op != '*' && op != '/' && op != '%'))
			return v;
		e->p++;
		r = parse_power(e);
		if (op == '*') {
			v *= r;
		} else if (r == 0) {
			efail(e, "division by zero");
			return 0;
		} else if (op == '/') {
			v /= r;
		} else {
			v = fmodl(v, r);
		}
	}
}

static long double parse_expr(struct expr *e)
{
	long double v = parse_term(e);

	for (;;) {
		char op;

		skip_blanks(e);
		op = *e->p;
		if (e->failed || (op != '+' && op != '-'))
			return v;
		e->p++;
		long double r = parse_term(e);
		v = op == '+' ? v + r : v - r;
	}
}

int units_eval(const char *s, enum units_kind kind, unsigned kb_base, uint64_t time_unit_ns,
	       long double *out, char *err, size_t errlen)
{
	struct expr e = { .s = s, .p = s, .kind = kind, .kb_base = kb_base ? kb_base : 1024,
			  .time_unit_ns = time_unit_ns ? time_unit_ns : 1, .err = err,
			  .errlen = errlen };
	long double v;

	if (!s) {
		snprintf(err, errlen, "a value is needed");
		return -1;
	}
	v = parse_expr(&e);
	skip_blanks(&e);
	if (!e.failed && *e.p)
		efail(&e, "unexpected '%s' in '%s'", e.p, s);
	if (!e.failed && !isfinite((double)v))
		efail(&e, "'%s' is not a finite number", s);
	if (e.failed)
		return -1;
	if (kind == UNITS_TIME && !e.saw_time_unit)
		v *= (long double)e.time_unit_ns;
	*out = v;
	return 0;
}

static int to_u64(const char *s, long double v, uint64_t *out, char *err, size_t errlen)
{
	if (v < 0) {
		snprintf(err, errlen, "'%s' is negative", s);
		return -1;
	}
	if (v >= 18446744073709551616.0L) {
		snprintf(err, errlen, "'%s' is too large", s);
		return -1;
	}
	*out = (uint64_t)(v + 0.5L);
	return 0;
}

int units_size(const char *s, unsigned kb_base, uint64_t *out, char *err, size_t errlen)
{
	long double v;

	if (units_eval(s, UNITS_SIZE, kb_base, 0, &v, err, errlen))
		return -1;
	return to_u64(s, v, out, err, errlen);
}

int units_time_us(const char *s, uint64_t default_unit_ns, uint64_t *out_us, char *err,
		  size_t errlen)
{
	long double v;

	if (units_eval(s, UNITS_TIME, 1024, default_unit_ns, &v, err, errlen))
		return -1;
	return to_u64(s, v / 1000, out_us, err, errlen);
}

int units_int(const char *s, unsigned kb_base, long long *out, char *err, size_t errlen)
{
	long double v;

	if (units_eval(s, UNITS_PLAIN, kb_base, 0, &v, err, errlen))
		return -1;
	if (v > 9.2e18L || v < -9.2e18L) {
		snprintf(err, errlen, "'%s' is out of range", s);
		return -1;
	}
	*out = (long long)(v < 0 ? v - 0.5L : v + 0.5L);
	return 0;
}

int units_float(const char *s, double *out, char *err, size_t errlen)
{
	long double v;

	/* UNITS_SIZE with kb_base 1000 would read "1k" as 1000: floats have no units. */
	if (units_eval(s, UNITS_SIZE, 1000, 0, &v, err, errlen))
		return -1;
	*out = (double)v;
	return 0;
}

int units_bool(const char *s, enum units_bool_words words, bool *out)
{
	static const struct {
		const char *word;
		bool value, kernel_only;
	} table[] = {
		{ "1", true, false },	 { "0", false, false },	 { "yes", true, false },
		{ "no", false, false },	 { "on", true, false },	 { "off", false, false },
		{ "true", true, false }, { "false", false, false }, { "y", true, true },
		{ "n", false, true },
	};

	if (!s) {
		*out = true;
		return 0;
	}
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		if (table[i].kernel_only && words != UNITS_BOOL_KERNEL)
			continue;
		if (!strcasecmp(s, table[i].word)) {
			*out = table[i].value;
			return 0;
		}
	}
	return -1;
}

static long long mb_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || psize <= 0)
		return 0;
	return (long long)pages * psize / (1024 * 1024);
}

char *units_expand_keywords(const char *s)
{
	static const char *const names[] = { "$ncpus", "$mb_memory", "$pagesize" };
	size_t cap = strlen(s) + 1, n = 0;
	char *out = malloc(cap);

	if (!out)
		return NULL;
	while (*s) {
		size_t i, klen = 0;
		long long val = 0;

		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			klen = strlen(names[i]);
			if (!strncmp(s, names[i], klen) && !isalnum((unsigned char)s[klen]) &&
			    s[klen] != '_')
				break;
		}
		if (i == sizeof(names) / sizeof(names[0])) {
			out[n++] = *s++;
			continue;
		}
		if (i == 0)
			val = sysconf(_SC_NPROCESSORS_ONLN);
		else if (i == 1)
			val = mb_memory();
		else
			val = sysconf(_SC_PAGESIZE);
		char num[32];
		int len = snprintf(num, sizeof(num), "%lld", val);
		char *grown = realloc(out, cap + len);

		if (!grown) {
			free(out);
			return NULL;
		}
		out = grown;
		cap += len;
		memcpy(out + n, num, len);
		n += len;
		s += klen;
	}
	out[n] = '\0';
	return out;
}
