/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One side of a comparison: the result sets of one or more boots (runs) of
 * one kernel. A kernel comparison is always between boots, so the boots of
 * a side are what tells the noise between boots (docs/compare.md, "The
 * unit of replication").
 *
 * A side is written PATH[,PATH...]. A PATH that is not a result set (no
 * manifest.json) but a directory whose subdirectories are result sets
 * stands for all of those, in name order. A path that exists as it is is
 * taken whole, even with a comma in its name.
 *
 * One run loads as rs_load() does. Several runs are merged into one set:
 * its cells hold the records of every run (rs_record.run says which, runs
 * in the order given, each run's repeats in order), runs[] owns the runs.
 * The runs must be one matrix (same name and size); runs of different
 * kernels are compared as one, with a warning line in the set.
 */
#ifndef IOMATRIX_COMPARE_RS_SIDE_H
#define IOMATRIX_COMPARE_RS_SIDE_H

#include <stddef.h>

#include "records/rs_load.h"

/* 0, or -1 with err naming the path and the cause. */
int rs_side_load(const char *spec, struct result_set *side, char *err, size_t errlen);

/*
 * What to call a side when the kernels do not tell the sides apart (an
 * A/A): the directory's name; for a list of runs, the last part of what
 * their paths share ("base" for x/base-1,x/base-2; "a" for runs/a/1,
 * runs/a/2), else the last path's name. Allocated; NULL when out of memory.
 */
char *rs_side_name(const struct result_set *rs);

#endif
