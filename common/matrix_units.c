// SPDX-License-Identifier: GPL-2.0
/* Sizes and durations; see matrix_units.h. */
#include "matrix_units.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct unit {
	const char *name;
	double factor;
};

static const struct unit size_units[] = {
	{"", 1},
	{"b", 1},
	{"k", 1024.0},
	{"kb", 1024.0},
	{"kib", 1024.0},
	{"m", 1048576.0},
	{"mb", 1048576.0},
	{"mib", 1048576.0},
	{"g", 1073741824.0},
	{"gb", 1073741824.0},
	{"gib", 1073741824.0},
	{"t", 1099511627776.0},
	{"tb", 1099511627776.0},
	{"tib", 1099511627776.0},
};

static const struct unit time_units[] = {
	{"", 1}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1}, {"m", 60}, {"h", 3600}, {"d", 86400},
};

static const struct unit *find_unit(const struct unit *t, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcasecmp(t[i].name, name))
			return &t[i];
	return NULL;
}

int mx_parse_size(const char *s, uint64_t *out)
{
	const struct unit *u;
	unsigned long long n = 0;
	const char *p = s;

	if (!isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		if (n > (UINT64_MAX - 9) / 10)
			return -1;
		n = n * 10 + (unsigned)(*p - '0');
	}
	u = find_unit(size_units, sizeof(size_units) / sizeof(size_units[0]), p);
	if (!u)
		return -1;
	if (n && (double)n * u->factor >= 18446744073709551616.0)
		return -1;
	*out = (uint64_t)n * (uint64_t)u->factor;
	return 0;
}

int mx_parse_duration(const char *s, double *seconds)
{
	const struct unit *u;
	char *end;
	double v;

	if (!isdigit((unsigned char)*s) && *s != '.')
		return -1;
	v = strtod(s, &end);
	if (end == s || !isfinite(v) || v < 0 || v > 1e9)
		return -1;
	u = find_unit(time_units, sizeof(time_units) / sizeof(time_units[0]), end);
	if (!u)
		return -1;
	*seconds = v * u->factor;
	return 0;
}

void mx_format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *names[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
	double v = (double)bytes;
	int i = 0;

	while (v >= 1024 && i < 6) {
		v /= 1024;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	else
		snprintf(buf, len, v < 10 && v != floor(v) ? "%.1f %s" : "%.0f %s", v, names[i]);
}

void mx_format_size_exact(uint64_t bytes, char *buf, size_t len)
{
	static const char suffix[] = "kmgt";
	int i = -1;

	while (bytes && bytes % 1024 == 0 && i < 3) {
		bytes /= 1024;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, "%llu", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)bytes, suffix[i]);
}

void mx_format_duration(double seconds, char *buf, size_t len)
{
	long s = lround(seconds);

	if (seconds < 10)
		snprintf(buf, len, "%.1f s", seconds);
	else if (s < 60)
		snprintf(buf, len, "%ld s", s);
	else if (s < 3600)
		snprintf(buf, len, "%ldm %02lds", s / 60, s % 60);
	else
		snprintf(buf, len, "%ldh %02ldm", s / 3600, (s % 3600) / 60);
}
