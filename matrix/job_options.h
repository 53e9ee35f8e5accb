/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The options of one fio-style job, and the one table that describes them.
 *
 * Every option is one entry of option_table (option_table.c): its name,
 * alias, type, where its value lands in struct job_options (offsetof),
 * default, range, help and category. Parsing, validation, --cmdhelp and
 * the defaults all come from that table.
 */
#ifndef IOMATRIX_MATRIX_JOB_OPTIONS_H
#define IOMATRIX_MATRIX_JOB_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum ddir { DDIR_READ, DDIR_WRITE, DDIR_TRIM, DDIR_NR };

/* rw= values: bit 0 reads, bit 1 writes, bit 2 random offsets. */
#define RW_BIT_READ  1u
#define RW_BIT_WRITE 2u
#define RW_BIT_RAND  4u
enum rw_mode {
	RW_READ = RW_BIT_READ,
	RW_WRITE = RW_BIT_WRITE,
	RW_RW = RW_BIT_READ | RW_BIT_WRITE,
	RW_RANDREAD = RW_BIT_READ | RW_BIT_RAND,
	RW_RANDWRITE = RW_BIT_WRITE | RW_BIT_RAND,
	RW_RANDRW = RW_BIT_READ | RW_BIT_WRITE | RW_BIT_RAND,
};

enum engine_id { ENGINE_PSYNC, ENGINE_SYNC, ENGINE_LIBAIO, ENGINE_IO_URING, ENGINE_NULL };
enum rand_dist { DIST_RANDOM, DIST_ZIPF, DIST_PARETO };
enum verify_kind { VERIFY_NONE, VERIFY_CRC32C };
enum clock_source { CLOCK_SRC_CLOCK_GETTIME, CLOCK_SRC_CPU };
enum fallocate_mode { FALLOC_NONE, FALLOC_NATIVE, FALLOC_POSIX, FALLOC_KEEP, FALLOC_TRUNCATE };

#define BSSPLIT_MAX   16
#define PCT_LIST_MAX  64 /* fio's FIO_IO_U_LIST_MAX_LEN */
#define OPTION_MAX    128

struct bssplit_entry {
	uint32_t bs;
	uint32_t pct;
};

struct job_options {
	char *name;
	char *description;
	char *filename;
	char *directory;
	uint32_t nrfiles;
	uint64_t size;
	uint32_t size_pct; /* size=N% of the file or device; 0 when given in bytes */
	uint64_t filesize;
	uint64_t io_size;
	uint64_t offset;
	uint32_t offset_pct;
	uint32_t rw;
	uint32_t rwmixread;
	uint32_t bs[DDIR_NR];
	uint32_t bs_min[DDIR_NR]; /* bsrange; equal to bs when no range is given */
	uint32_t bs_max[DDIR_NR];
	struct bssplit_entry bssplit[DDIR_NR][BSSPLIT_MAX];
	uint32_t bssplit_n[DDIR_NR];
	uint32_t ioengine;
	uint32_t iodepth;
	uint32_t iodepth_batch_submit;
	uint32_t iodepth_batch_complete_min;
	uint32_t iodepth_batch_complete_max;
	uint32_t numjobs;
	uint32_t thread;
	uint32_t direct;
	uint32_t sync;
	uint64_t runtime_us;
	uint32_t time_based;
	uint64_t ramp_time_us;
	uint64_t startdelay_us;
	uint32_t loops;
	uint64_t randseed;
	uint32_t randrepeat;
	uint32_t allrandrepeat;
	uint32_t norandommap;
	uint32_t random_distribution;
	double dist_param; /* zipf theta or pareto h */
	uint32_t fsync;
	uint32_t fdatasync;
	uint32_t end_fsync;
	uint32_t fsync_on_close;
	uint32_t invalidate;
	uint32_t fadvise_hint;
	uint32_t fallocate;
	uint32_t create_on_open;
	uint32_t overwrite;
	uint32_t unlink;
	uint32_t group_reporting;
	uint32_t new_group;
	uint32_t stonewall;
	double percentile_list[PCT_LIST_MAX];
	uint32_t percentile_n;
	uint32_t clat_percentiles;
	uint32_t lat_percentiles;
	uint32_t hipri;
	uint32_t fixedbufs;
	uint32_t registerfiles;
	uint32_t sqthread_poll;
	uint32_t userspace_reap;
	uint64_t rate[DDIR_NR];
	uint32_t rate_iops[DDIR_NR];
	uint32_t zero_buffers;
	uint32_t refill_buffers;
	uint32_t scramble_buffers;
	uint32_t verify;
	uint32_t verify_fatal;
	uint32_t do_verify;
	uint32_t kb_base;
	uint32_t clocksource;
	uint8_t given[OPTION_MAX]; /* set by a job file or the command line, by table index */
};

enum opt_type {
	OT_STR,       /* char *, owned */
	OT_BOOL,      /* uint32_t 0/1; a bare flag means 1 */
	OT_INV_BOOL,  /* uint32_t, stores !value (buffered= sets direct) */
	OT_U32,       /* uint32_t integer with k/m multipliers, checked against min/max */
	OT_U64,       /* uint64_t plain integer */
	OT_SIZE,      /* uint64_t bytes */
	OT_SIZE_PCT,  /* uint64_t bytes at off, or a percentage into uint32_t at off2 */
	OT_TIME,      /* uint64_t microseconds; bare numbers in time_unit_ns */
	OT_ENUM,      /* uint32_t, one of choices */
	OT_BS,        /* uint32_t[3]: "4k" or "4k,64k" (read,write,trim) */
	OT_BSRANGE,   /* bs_min/bs_max: "4k-64k" or "4k-8k,16k-64k" */
	OT_BSSPLIT,   /* bssplit: "4k/50:64k/50" per direction, ',' between directions */
	OT_RATE,      /* uint64_t[3] bytes/s, per direction */
	OT_RATE_IOPS, /* uint32_t[3], per direction */
	OT_PCT_LIST,  /* percentile_list: "50:99:99.9" */
	OT_DIST,      /* random_distribution: "random", "zipf:1.2", "pareto:0.9" */
	OT_MIX_WRITE, /* rwmixwrite=N sets rwmixread=100-N */
};

struct opt_choice {
	const char *name;
	uint32_t value;
	const char *help;
};

struct option_def {
	const char *name;
	const char *alias;
	enum opt_type type;
	size_t off;
	size_t off2;
	const char *def; /* the default, parsed like a given value; NULL: zero */
	long long min, max; /* for OT_U32 (max 0: no check) */
	uint64_t time_unit_ns;
	const struct opt_choice *choices;
	const char *help;
	const char *category;
};

extern const struct option_def option_table[];
extern const size_t option_count;

/* The entry for a name or alias, or NULL. */
const struct option_def *option_find(const char *name);
static inline size_t option_index(const struct option_def *d)
{
	return (size_t)(d - option_table);
}

/* Whether a bare "--name" (no value) is complete: flags take no argument. */
int option_is_flag(const struct option_def *d);

/*
 * Parses value (NULL for a bare flag) into o. Returns 0, or -1 with a
 * message naming the option and the cause (no location) in err.
 */
int option_set(struct job_options *o, const struct option_def *d, const char *value, char *err,
	       size_t errlen);

/* Defaults from the table; returns -1 only on a bug in the table. */
int job_options_init(struct job_options *o);
/* Deep copy (strings duplicated); -1 when out of memory. */
int job_options_copy(struct job_options *dst, const struct job_options *src);
void job_options_free(struct job_options *o);

/* --cmdhelp: all options (name NULL or "all"), or one; -1 if unknown. */
int option_print_help(FILE *f, const char *name);

/* Name of an enum value (rw, ioengine ...) for reports. */
const char *option_choice_name(const char *option, uint32_t value);

static inline int rw_reads(const struct job_options *o)
{
	return (o->rw & RW_BIT_READ) != 0;
}
static inline int rw_writes(const struct job_options *o)
{
	return (o->rw & RW_BIT_WRITE) != 0;
}
static inline int rw_random(const struct job_options *o)
{
	return (o->rw & RW_BIT_RAND) != 0;
}

#endif
