/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Synthetic records for tests: what the appliance would write for one cell
 * (the keys of docs/records.md), with a fio-like workload section padded to a
 * chosen size, and a deterministic random source. Used by unit tests and by
 * tests/helpers/results_gen.c; never part of the product.
 */
#ifndef IOMATRIX_TESTS_SYNTH_RECORD_H
#define IOMATRIX_TESTS_SYNTH_RECORD_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/json_out.h"

/* splitmix64: small, seedable, good enough to place corruption. */
static inline uint64_t synth_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n). */
static inline uint64_t synth_below(uint64_t *state, uint64_t n)
{
	return n ? synth_rand(state) % n : 0;
}

struct synth_run {
	const char *run_id;
	const char *matrix;
	const char *release;
	uint32_t cells; /* cell.count */
};

/*
 * The record with sequence number seq (from 1): cell (seq - 1) % cells + 1
 * (cells are numbered from 1, as `iomatrix plan` does), repeat
 * (seq - 1) / cells. About `target` bytes of JSON. Returns a
 * malloc'd, NUL-terminated text (length in *len), NULL when out of memory.
 */
static inline char *synth_record(const struct synth_run *run, uint32_t seq, const char *status,
				 size_t target, size_t *len)
{
	uint32_t index = (seq - 1) % run->cells + 1, repeat = (seq - 1) / run->cells;
	uint64_t rnd = seq * 7919ull;
	char *buf = NULL, key[128];
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	struct jw j;

	if (!f)
		return NULL;
	snprintf(key, sizeof(key), "fs=ext4 array=raid5 disks=3 workload=w%u", index);
	jw_init(&j, f, true);
	jw_obj_begin(&j, NULL);
	jw_int(&j, "iomatrix_record", 1);
	jw_str(&j, "run_id", run->run_id);
	jw_uint(&j, "seq", seq);
	jw_str(&j, "matrix", run->matrix);
	jw_obj_begin(&j, "cell");
	jw_uint(&j, "index", index);
	jw_uint(&j, "count", run->cells);
	jw_str(&j, "key", key);
	jw_obj_begin(&j, "dims");
	jw_str(&j, "fs", "ext4");
	jw_str(&j, "array", "raid5");
	jw_obj_end(&j);
	jw_obj_end(&j);
	jw_uint(&j, "repeat", repeat);
	jw_str(&j, "status", status);
	if (strcmp(status, "ok"))
		jw_str(&j, "error", "synthetic: cell did not complete");
	else
		jw_null(&j, "error");
	jw_obj_begin(&j, "kernel");
	jw_str(&j, "release", run->release);
	jw_str(&j, "version", "#1 SMP PREEMPT_DYNAMIC Debian");
	jw_str(&j, "cmdline", "console=ttyS0 iomatrix.matrix=quick");
	jw_obj_end(&j);
	jw_obj_begin(&j, "times");
	jw_uint(&j, "start_unix", 1764475200ull + seq * 60);
	jw_double(&j, "setup_s", 1.92);
	jw_double(&j, "workload_s", 10.01);
	jw_obj_end(&j);
	jw_obj_begin(&j, "workload");
	jw_str(&j, "kind", "fio");
	jw_obj_begin(&j, "fio");
	jw_str(&j, "fio version", "iomatrix");
	jw_arr_begin(&j, "jobs");
	/* Pad with what makes real records big: per-job latency percentiles. */
	for (uint32_t job = 0; ftell(f) < (long)target; job++) {
		jw_obj_begin(&j, NULL);
		jw_uint(&j, "job", job);
		jw_obj_begin(&j, "read");
		jw_uint(&j, "bw_bytes", synth_below(&rnd, 1u << 30));
		jw_double(&j, "iops", (double)synth_below(&rnd, 1000000) / 7.0);
		jw_obj_begin(&j, "percentile");
		for (int p = 1; p <= 20; p++) {
			char pk[32];

			snprintf(pk, sizeof(pk), "%d.%06d", p * 5 - 1,
				 (int)synth_below(&rnd, 1000000));
			jw_uint(&j, pk, synth_below(&rnd, 100000000));
		}
		jw_obj_end(&j);
		jw_obj_end(&j);
		jw_obj_end(&j);
		fflush(f);
	}
	jw_arr_end(&j);
	jw_obj_end(&j);
	jw_obj_end(&j);
	jw_obj_end(&j);
	jw_end(&j);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	*len = size;
	return buf;
}

#endif
