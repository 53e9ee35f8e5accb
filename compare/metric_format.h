/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Printing metric values for people: a scale chosen from a reference value
 * (so base and new of one row share a unit), about four significant digits,
 * binary prefixes for bytes as fio prints them (KiB/s, MiB/s).
 */
#ifndef IOMATRIX_COMPARE_METRIC_FORMAT_H
#define IOMATRIX_COMPARE_METRIC_FORMAT_H

#include <stddef.h>

#include "compare/metrics.h"

struct unit_scale {
	double div;
	const char *suffix;	/* "MiB/s", "k", "us", "x", "%" */
};

struct unit_scale unit_pick(enum metric_unit u, double ref);
/* "195.2 MiB/s": value in the scale of ref (ref = value for its own scale). */
void unit_format(char *buf, size_t len, enum metric_unit u, double value, double ref);
/* The bare number in a scale, "195.2". */
void unit_number(char *buf, size_t len, double scaled);
/* The unit of a scaled axis or column: "MiB/s", "k IO/s", "us". */
void unit_label(char *buf, size_t len, enum metric_unit u, struct unit_scale s);
/* The SI unit a metric is stored in: "B/s", "IO/s", "ns", "ratio", "%". */
const char *unit_base_name(enum metric_unit u);

#endif
