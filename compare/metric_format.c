// SPDX-License-Identifier: GPL-2.0
/* Scaling and printing metric values. */
#include <math.h>
#include <stdio.h>

#include "compare/metric_format.h"

struct step {
	double div;
	const char *suffix;
};

static const struct step bytes_steps[] = {
	{ 1024.0 * 1024 * 1024, "GiB/s" }, { 1024.0 * 1024, "MiB/s" }, { 1024.0, "KiB/s" },
	{ 1, "B/s" },
};
static const struct step iops_steps[] = { { 1e6, "M" }, { 1e3, "k" }, { 1, "" } };
static const struct step ns_steps[] = { { 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" } };
static const struct step ratio_steps[] = { { 1, "x" } };
static const struct step pct_steps[] = { { 1, "%" } };

static const struct {
	const struct step *steps;
	size_t n;
	const char *base;
} unit_steps[] = {
	[UNIT_BYTES_PER_S] = { bytes_steps, 4, "B/s" },
	[UNIT_IOPS] = { iops_steps, 3, "IO/s" },
	[UNIT_NS] = { ns_steps, 4, "ns" },
	[UNIT_RATIO] = { ratio_steps, 1, "ratio" },
	[UNIT_PERCENT] = { pct_steps, 1, "%" },
};

struct unit_scale unit_pick(enum metric_unit u, double ref)
{
	const struct step *s = unit_steps[u].steps;
	size_t n = unit_steps[u].n;

	for (size_t i = 0; i < n; i++)
		if (fabs(ref) >= s[i].div)
			return (struct unit_scale){ s[i].div, s[i].suffix };
	return (struct unit_scale){ s[n - 1].div, s[n - 1].suffix };
}

const char *unit_base_name(enum metric_unit u)
{
	return unit_steps[u].base;
}

void unit_label(char *buf, size_t len, enum metric_unit u, struct unit_scale s)
{
	if (u == UNIT_IOPS)
		snprintf(buf, len, "%s%sIO/s", s.suffix, *s.suffix ? " " : "");
	else
		snprintf(buf, len, "%s", s.suffix);
}

void unit_number(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (a >= 1000)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 100)
		snprintf(buf, len, "%.1f", v);
	else if (a >= 10)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.3f", v);
}

void unit_format(char *buf, size_t len, enum metric_unit u, double value, double ref)
{
	struct unit_scale s = unit_pick(u, ref);
	char num[32];

	unit_number(num, sizeof(num), value / s.div);
	if (!isfinite(value))
		snprintf(buf, len, "-");
	else if (u == UNIT_IOPS || u == UNIT_RATIO || u == UNIT_PERCENT)
		snprintf(buf, len, "%s%s", num, s.suffix);
	else
		snprintf(buf, len, "%s %s", num, s.suffix);
}
