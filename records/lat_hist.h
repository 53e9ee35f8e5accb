/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The latency histogram's layout, shared by the engine that fills it and
 * the code that turns it into percentiles (and json+ bins).
 *
 * Log-linear, as fio's: values below 2*LAT_HIST_SUB are exact; above, each
 * power of two is cut into LAT_HIST_SUB equal buckets, so a bucket is at
 * most 1/64 of its value wide and its midpoint is within 0.8 % of any value
 * in it. Unlike fio's (which stops at about 17 s), the last group holds
 * values up to 2^64 ns: there is no upper cap. An update is a count-leading
 * zeros, two shifts and an add.
 */
#ifndef IOMATRIX_RECORDS_LAT_HIST_H
#define IOMATRIX_RECORDS_LAT_HIST_H

#include <stdint.h>

#define LAT_HIST_BITS 6
#define LAT_HIST_SUB  (1u << LAT_HIST_BITS)
#define LAT_HIST_NR   ((64 - LAT_HIST_BITS + 1) * LAT_HIST_SUB)

static inline unsigned lat_hist_index(uint64_t v)
{
	unsigned msb, err_bits;

	if (v < 2 * LAT_HIST_SUB)
		return (unsigned)v;
	msb = 63 - (unsigned)__builtin_clzll(v);
	err_bits = msb - LAT_HIST_BITS;
	return ((err_bits + 1) << LAT_HIST_BITS) + (unsigned)((v >> err_bits) & (LAT_HIST_SUB - 1));
}

/* The midpoint of bucket idx (what fio reports for a percentile in it). */
static inline uint64_t lat_hist_value(unsigned idx)
{
	unsigned err_bits;
	uint64_t base, k;

	if (idx < 2 * LAT_HIST_SUB)
		return idx;
	err_bits = (idx >> LAT_HIST_BITS) - 1;
	base = 1ULL << (err_bits + LAT_HIST_BITS);
	k = idx % LAT_HIST_SUB;
	return base + (uint64_t)((k + 0.5) * (double)(1ULL << err_bits));
}

/* The lowest value that falls into bucket idx. */
static inline uint64_t lat_hist_lower(unsigned idx)
{
	unsigned err_bits;

	if (idx < 2 * LAT_HIST_SUB)
		return idx;
	err_bits = (idx >> LAT_HIST_BITS) - 1;
	return (1ULL << (err_bits + LAT_HIST_BITS)) + ((uint64_t)(idx % LAT_HIST_SUB) << err_bits);
}

#endif
