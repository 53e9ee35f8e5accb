/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The metrics the host tools compare: one table (metrics.c) holds each
 * metric's name, unit, the direction that is better, how repeats are
 * averaged and how the value is read from a record (docs/records.md,
 * "Metrics the host tools compare"). Adding a metric is one entry.
 */
#ifndef IOMATRIX_COMPARE_METRICS_H
#define IOMATRIX_COMPARE_METRICS_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

enum better {
	BETTER_HIGHER,
	BETTER_LOWER,
};

/*
 * Rates (bytes/s, IO/s) are averaged with the harmonic mean: every repeat
 * does the same work, so the rate of all repeats together is the total work
 * over the total time, which is the harmonic mean of the per-repeat rates.
 * Times and counts use the arithmetic mean.
 */
enum mean_kind {
	MEAN_ARITHMETIC,
	MEAN_HARMONIC,
};

enum metric_unit {
	UNIT_BYTES_PER_S,
	UNIT_IOPS,
	UNIT_NS,
	UNIT_RATIO,
	UNIT_PERCENT,
};

struct metric {
	const char *name;
	enum metric_unit unit;
	enum better better;
	enum mean_kind mean;
	bool by_default;	/* compared when --metric is not given */
	const char *from;	/* where the value comes from, for --help and docs */
	/* true and *out set when the record has this metric */
	bool (*extract)(const struct metric *m, json_object *record, double *out);
	const char *dir;	/* "read" / "write" for fio metrics */
	const char *pct;	/* fio percentile key, "99.000000" */
};

extern const struct metric metric_table[];
extern const size_t metric_count;

const struct metric *metric_find(const char *name);
bool metric_get(const struct metric *m, json_object *record, double *out);

/*
 * The completion-latency percentiles of one direction ("read"/"write") of a
 * fio record, from the job with most IOs, in ascending percentile order.
 * Returns how many were stored (at most max), 0 when there are none.
 */
size_t metric_clat_percentiles(json_object *record, const char *dir, double *pct, double *ns,
			       size_t max);

#endif
