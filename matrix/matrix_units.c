// SPDX-License-Identifier: GPL-2.0
/* Sizes and durations; see matrix_units.h. */
#include "matrix/matrix_units.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/units.h"

/*
 * One reading of numbers in the whole tree: matrix values end up in fio
 * options (--set bs=...), so they are read exactly as the engine reads
 * them, with fio's default kb_base.
 */
int mx_parse_size(const char *s, uint64_t *out)
{
	char err[UNITS_ERR_LEN];

	if (!isdigit((unsigned char)*s))
		return -1; /* no expressions, percentages or keywords in a matrix */
	return units_size(s, 1024, out, err, sizeof(err));
}

int mx_parse_duration(const char *s, double *seconds)
{
	char err[UNITS_ERR_LEN];
	uint64_t us;

	if (!isdigit((unsigned char)*s) && *s != '.')
		return -1;
	if (units_time_us(s, 1000000000ULL, &us, err, sizeof(err)))
		return -1;
	*seconds = (double)us / 1e6;
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
