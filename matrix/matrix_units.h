/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sizes and durations as matrix files and fio job files write them.
 *
 * A size is read by the engine's units_size (units.h) with fio's default
 * kb_base=1024: "4k", "4KB" and "4KiB" are 4096, "1.5g" is 1.5 GiB; it
 * must start with a digit (no expressions or percentages in a matrix).
 *
 * A duration is a decimal number with an optional unit: us, ms, s, m, h, d;
 * without a unit it is seconds, as fio's runtime= reads it.
 */
#ifndef IOMATRIX_MATRIX_MATRIX_UNITS_H
#define IOMATRIX_MATRIX_MATRIX_UNITS_H

#include <stddef.h>
#include <stdint.h>

#define MX_KIB 1024ULL
#define MX_MIB (1024ULL * 1024)
#define MX_GIB (1024ULL * 1024 * 1024)

/* 0 and *out set, or -1 (bad syntax, zero-length number, overflow). */
int mx_parse_size(const char *s, uint64_t *out);
int mx_parse_duration(const char *s, double *seconds);

/* "1.5 GiB", "512 KiB", "100 B": for people, not for parsing back. */
void mx_format_size(uint64_t bytes, char *buf, size_t len);
/*
 * The shortest exact spelling a parser above reads back: "4k", "1g",
 * "1536k", "4097".
 */
void mx_format_size_exact(uint64_t bytes, char *buf, size_t len);
/* "45 s", "12m 05s", "2h 03m". */
void mx_format_duration(double seconds, char *buf, size_t len);

#endif
