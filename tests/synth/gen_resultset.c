// SPDX-License-Identifier: GPL-2.0
/*
 * gen-resultset: writes a synthetic result set in the exact format of
 * docs/records.md, for testing compare and report without the appliance.
 *
 * Each cell has a "true" performance that depends only on its key, so two
 * sets made with different --seed values are an A/A pair: same cells, same
 * truth, independent noise. Noise is log-normal (what multiplicative
 * run-to-run effects give), with a coefficient of variation per cell drawn
 * from --cv LO-HI. --change PCT multiplies the throughput of chosen cells
 * (and divides their latencies), and --injected FILE lists those cells.
 *
 * --runs N writes N result sets, OUT/run-1 ... OUT/run-N: N boots of one
 * kernel. Each boot moves each cell by a log-normal factor of its own (the
 * boot effect, CV per cell from --boot-cv LO-HI, default 0) that all the
 * cell's repeats in that boot share, on top of the noise of each repeat
 * (--cv): what a real A/A on QEMU showed (docs/compare.md). One run with
 * --boot-cv is one boot: its repeats share the boot's factor.
 *
 *   gen-resultset OUT [--profile P] [--seed N] [--repeats N] [--cv LO[-HI]]
 *                 [--runs N] [--boot-cv LO[-HI]]
 *                 [--change PCT (--change-every K | --change-where DIM=VAL)]
 *                 [--injected FILE] [--drop-cells N] [--fail-cells N]
 *                 [--skip DIM=VAL] [--add-dim DIM=VAL] [--truth-ignores DIM]
 *                 [--matrix NAME] [--kernel RELEASE]
 *
 * --truth-ignores DIM makes cells that differ only in DIM share their truth,
 * so `compare --versus DIM=A,B` on one set is an A/A comparison.
 */
#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/cli.h"
#include "lib/json_out.h"

#define MAX_DIMS 8
#define MAX_VALS 16

struct dim {
	const char *name;
	const char *vals[MAX_VALS];
};

/* The workloads a profile's cells run; the dims say which one. */
enum wl_kind { WL_DD, WL_FIO };

struct profile {
	const char *name;
	const char *matrix;
	struct dim dims[MAX_DIMS];
};

/* Dimension sets shaped like the seed studies (shared/seeds): see docs/compare.md. */
static const struct profile profiles[] = {
	{ "mixed", "synthetic",
	  { { "array", { "jbod", "raid0", "raid5" } },
	    { "fs", { "ext4", "xfs", "btrfs" } },
	    { "workload", { "1dd", "10dd", "100dd", "randread", "randwrite", "randrw", "read" } },
	    { "bs", { "4k", "64k" } },
	    { "iodepth", { "1", "8", "32" } } } },
	{ "seed000", "seed000-dio",
	  { { "fs", { "ext4" } },
	    { "workload", { "randrw" } },
	    { "ioengine", { "psync", "libaio" } },
	    { "bs", { "4k", "16k", "64k", "512k", "1m" } } } },
	{ "seed001", "seed001-rasync",
	  { { "readahead", { "0", "64", "128", "256" } },
	    { "workload", { "randread" } },
	    { "iodepth", { "1", "2", "4", "8", "16", "32", "64", "128" } } } },
	{ "seed002", "seed002-dd",
	  { { "array", { "raid5", "raid0", "jbod" } },
	    { "fs", { "ext4", "ext3", "ext2", "btrfs", "xfs" } },
	    { "workload", { "100dd", "10dd", "1dd" } } } },
	{ "seed004", "seed004-dioread",
	  { { "workload", { "read", "randrw", "rw" } },
	    { "bs", { "4k", "1m" } },
	    { "mount", { "default", "dioread_nolock" } },
	    { "threads", { "1", "8", "24" } } } },
};

struct opts {
	const char *out;
	const struct profile *prof;
	uint64_t seed;
	int repeats;
	int runs;
	double cv_lo, cv_hi;
	double boot_cv_lo, boot_cv_hi;
	double change;
	int change_every;
	const char *change_where;
	const char *injected;
	int drop_cells;
	int fail_cells;
	const char *skip;
	const char *truth_ignores; /* a dimension the truth does not depend on (--versus tests) */
	const char *add_dim;	/* "name=value" */
	char add_dim_name[64];
	const char *matrix;
	const char *kernel;
};

/* --- randomness: splitmix64, reproducible everywhere -------------------- */

static uint64_t rng_state;

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double uniform(void)
{
	return ((double)(splitmix(&rng_state) >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

static double uniform_from(uint64_t *s)
{
	return ((double)(splitmix(s) >> 11) + 0.5) / 9007199254740992.0;
}

/* A mean-one log-normal factor with coefficient of variation cv. */
static double lognormal(double cv)
{
	double s = sqrt(log(1 + cv * cv));

	return exp(s * normal() - s * s / 2);
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

/* A number in [lo, hi) fixed by the key: the cell's truth, the same in every set. */
static double keyed(const char *key, const char *salt, double lo, double hi)
{
	uint64_t s = hash_str(key) ^ hash_str(salt);

	return lo + (hi - lo) * ((double)(splitmix(&s) >> 11) / 9007199254740992.0);
}

/*
 * The boot effect of a cell in one run: a mean-one log-normal factor with CV
 * cv, from a stream of its own (seed, run, key), so that sets without boot
 * effects keep the numbers they always had.
 */
static double boot_factor(uint64_t seed, int run, const char *key, double cv)
{
	uint64_t st = hash_str(key) ^ (seed * 0xd1b54a32d192ed03ULL) ^
		      ((uint64_t)(run + 1) * 0x8cb92ba72f3d8dd7ULL);
	double s = sqrt(log(1 + cv * cv));
	double z = sqrt(-2 * log(uniform_from(&st))) * cos(2 * M_PI * uniform_from(&st));

	return cv > 0 ? exp(s * z - s * s / 2) : 1;
}

/* --- cells --------------------------------------------------------------- */

struct cell {
	char key[256];
	char truth_key[256]; /* the key without --truth-ignores: what keyed() reads */
	const char *dim_name[MAX_DIMS];
	const char *dim_val[MAX_DIMS];
	int ndims;
	int index;
	bool injected;
	bool dropped;
	bool failed;
};

static const char *cell_dim(const struct cell *c, const char *name)
{
	for (int i = 0; i < c->ndims; i++)
		if (!strcmp(c->dim_name[i], name))
			return c->dim_val[i];
	return NULL;
}

static bool is_dd(const char *workload)
{
	size_t n = strlen(workload);

	return n > 2 && !strcmp(workload + n - 2, "dd");
}

static int ndims_of(const struct profile *p)
{
	int n = 0;

	while (n < MAX_DIMS && p->dims[n].name)
		n++;
	return n;
}

static int nvals_of(const struct dim *d)
{
	int n = 0;

	while (n < MAX_VALS && d->vals[n])
		n++;
	return n;
}

static bool matches(const struct cell *c, const char *spec)
{
	char name[64];
	const char *eq = spec ? strchr(spec, '=') : NULL;
	const char *v;

	if (!eq || (size_t)(eq - spec) >= sizeof(name))
		return false;
	memcpy(name, spec, (size_t)(eq - spec));
	name[eq - spec] = '\0';
	v = cell_dim(c, name);
	return v && !strcmp(v, eq + 1);
}

/* Expands the profile: every combination, dd cells without fio's bs/iodepth. */
static int expand(const struct opts *o, struct cell **out)
{
	const struct profile *p = o->prof;
	int nd = ndims_of(p), idx[MAX_DIMS] = { 0 }, n = 0;
	struct cell *cells = NULL;

	for (;;) {
		struct cell c = { .ndims = 0 };
		bool dup = false;
		size_t len = 0;

		for (int d = 0; d < nd; d++) {
			const char *wl = c.ndims ? cell_dim(&c, "workload") : NULL;

			if (wl && is_dd(wl) && (!strcmp(p->dims[d].name, "bs") ||
						!strcmp(p->dims[d].name, "iodepth"))) {
				/* dd has neither: only the first value makes a cell. */
				dup |= idx[d] != 0;
				continue;
			}
			c.dim_name[c.ndims] = p->dims[d].name;
			c.dim_val[c.ndims] = p->dims[d].vals[idx[d]];
			c.ndims++;
		}
		if (o->add_dim && c.ndims < MAX_DIMS) {
			c.dim_name[c.ndims] = o->add_dim_name;
			c.dim_val[c.ndims] = strchr(o->add_dim, '=') + 1;
			c.ndims++;
		}
		for (int d = 0; d < c.ndims; d++)
			len += (size_t)snprintf(c.key + len, sizeof(c.key) - len, "%s%s=%s",
						d ? " " : "", c.dim_name[d], c.dim_val[d]);
		len = 0;
		for (int d = 0; d < c.ndims; d++)
			if (!o->truth_ignores || strcmp(c.dim_name[d], o->truth_ignores))
				len += (size_t)snprintf(
					c.truth_key + len, sizeof(c.truth_key) - len, "%s%s=%s",
					len ? " " : "", c.dim_name[d], c.dim_val[d]);
		if (!dup && !(o->skip && matches(&c, o->skip))) {
			struct cell *grown = realloc(cells, (size_t)(n + 1) * sizeof(*cells));

			if (!grown)
				return -1;
			cells = grown;
			c.index = n;
			cells[n++] = c;
		}
		/* Odometer: the last dimension turns fastest, as in the matrix order. */
		int d = nd - 1;

		while (d >= 0 && ++idx[d] == nvals_of(&p->dims[d]))
			idx[d--] = 0;
		if (d < 0)
			break;
	}
	*out = cells;
	return n;
}

/* --- the truth of a cell -------------------------------------------------- */

static double parse_size(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	switch (*end) {
	case 'k': case 'K': return v * 1024;
	case 'm': case 'M': return v * 1048576;
	default: return v;
	}
}

static int dim_int(const struct cell *c, const char *name, int dflt)
{
	const char *v = cell_dim(c, name);

	return v ? atoi(v) : dflt;
}

static double array_factor(const struct cell *c)
{
	const char *a = cell_dim(c, "array");

	if (!a)
		return 1;
	return !strcmp(a, "raid0") ? 2.2 : !strcmp(a, "raid5") ? 1.4 : 1.0;
}

/* Total IOPS of a fio cell: a device that saturates with queue depth. */
static double true_iops(const struct cell *c, double bs)
{
	int qd = dim_int(c, "iodepth", 1) * dim_int(c, "threads", 1);
	const char *eng = cell_dim(c, "ioengine");
	double peak = 260000 * pow(4096 / bs, 0.75) * array_factor(c);
	double ra = dim_int(c, "readahead", 128);

	if (eng && !strcmp(eng, "psync"))
		qd = 8;
	peak *= 1 - 0.15 * fabs(ra - 64) / 256;
	return peak * qd / (qd + 6.0) * keyed(c->truth_key, "iops", 0.8, 1.2);
}

static double true_dd_bw(const struct cell *c)
{
	int writers = atoi(cell_dim(c, "workload"));

	return 180e6 * array_factor(c) * (1 + 0.1 * log10(writers)) *
	       keyed(c->truth_key, "ddbw", 0.7, 1.3);
}

/* --- writing one record --------------------------------------------------- */

struct run {
	const struct opts *o;
	const struct cell *c;
	int repeat;
	long seq;
	int ncells;
	double cv;
	double factor;	/* this repeat's throughput factor, change included */
};

static void write_common_head(struct jw *j, const struct run *r, const char *run_id)
{
	const struct cell *c = r->c;

	jw_int(j, "iomatrix_record", 1);
	jw_str(j, "run_id", run_id);
	jw_int(j, "seq", r->seq);
	jw_str(j, "matrix", r->o->matrix ? r->o->matrix : r->o->prof->matrix);
	jw_obj_begin(j, "cell");
	jw_int(j, "index", c->index);
	jw_int(j, "count", r->ncells);
	jw_str(j, "key", c->key);
	jw_obj_begin(j, "dims");
	for (int d = 0; d < c->ndims; d++)
		jw_str(j, c->dim_name[d], c->dim_val[d]);
	jw_obj_end(j);
	jw_obj_end(j);
	jw_int(j, "repeat", r->repeat);
	jw_str(j, "status", c->failed ? "failed" : "ok");
	if (c->failed)
		jw_str(j, "error", "mkfs.xfs: /dev/md0: exit status 1 (synthetic failure)");
	else
		jw_null(j, "error");
	jw_obj_begin(j, "kernel");
	jw_str(j, "release", r->o->kernel);
	jw_str(j, "version", "#1 SMP PREEMPT_DYNAMIC Debian (synthetic)");
	jw_str(j, "cmdline", "console=ttyS0 iomatrix.matrix=synthetic");
	jw_obj_end(j);
	jw_obj_begin(j, "machine");
	jw_str(j, "cpu_model", "QEMU Virtual CPU version 2.5+");
	jw_int(j, "cpus", 2);
	jw_int(j, "mem_kb", 2014000);
	jw_obj_end(j);
}

static int ndisks_of(const struct cell *c)
{
	const char *a = cell_dim(c, "array");

	return a && strcmp(a, "jbod") ? 3 : 1;
}

static void write_setup(struct jw *j, const struct cell *c)
{
	const char *a = cell_dim(c, "array");
	const char *fs = cell_dim(c, "fs");
	const char *mnt = cell_dim(c, "mount");
	int nd = ndisks_of(c);
	char name[16];

	jw_arr_begin(j, "disks");
	for (int i = 0; i < nd; i++) {
		snprintf(name, sizeof(name), "vd%c", 'a' + i);
		jw_obj_begin(j, NULL);
		jw_str(j, "name", name);
		jw_str(j, "model", "");
		snprintf(name, sizeof(name), "iomatrix%d", i);
		jw_str(j, "serial", name);
		jw_uint(j, "size_bytes", 1073741824ULL);
		jw_obj_end(j);
	}
	jw_arr_end(j);
	if (a && strcmp(a, "jbod")) {
		jw_obj_begin(j, "array");
		jw_str(j, "device", "md0");
		jw_str(j, "level", a);
		jw_arr_begin(j, "members");
		jw_str(j, NULL, "vda");
		jw_str(j, NULL, "vdb");
		jw_str(j, NULL, "vdc");
		jw_arr_end(j);
		jw_int(j, "chunk_kb", 512);
		jw_str(j, "resync", "assume-clean");
		jw_obj_end(j);
	} else {
		jw_null(j, "array");
	}
	jw_obj_begin(j, "fs");
	jw_str(j, "type", fs ? fs : "ext4");
	jw_str(j, "mkfs_options",
	       fs && strncmp(fs, "ext", 3) ? "" : "-E lazy_itable_init=0,lazy_journal_init=0");
	jw_str(j, "mount_options", mnt && strcmp(mnt, "default") ? mnt : "");
	jw_obj_end(j);
}

static void write_percentiles(struct jw *j, double median_ns, double tail_factor)
{
	static const double pcts[] = { 1,  5,  10, 20, 30,   40,   50,    60,   70,
				       80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99 };
	static const double z[] = { -2.326, -1.645, -1.282, -0.842, -0.524, -0.253, 0, 0.253, 0.524,
				    0.842, 1.282, 1.645, 2.326, 2.576, 3.090, 3.291, 3.719 };
	char key[32];

	jw_obj_begin(j, "percentile");
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		double v = median_ns * exp(0.45 * z[i]) * (z[i] > 2 ? tail_factor : 1);

		snprintf(key, sizeof(key), "%f", pcts[i]);
		jw_uint(j, key, (unsigned long long)llround(v));
	}
	jw_obj_end(j);
}

static void write_lat(struct jw *j, const char *key, double mean, double n)
{
	jw_obj_begin(j, key);
	jw_uint(j, "min", (unsigned long long)llround(mean * 0.2));
	jw_uint(j, "max", (unsigned long long)llround(mean * 40));
	jw_double(j, "mean", mean);
	jw_double(j, "stddev", mean * 0.6);
	jw_uint(j, "N", (unsigned long long)llround(n));
	jw_obj_end(j);
}

static void write_dir(struct jw *j, const char *dir, double iops, double bs, double runtime_ms,
		      double lat_ns, double cv)
{
	double ios = iops * runtime_ms / 1000, bw = iops * bs;

	jw_obj_begin(j, dir);
	jw_uint(j, "io_bytes", (unsigned long long)llround(ios * bs));
	jw_uint(j, "io_kbytes", (unsigned long long)llround(ios * bs / 1024));
	jw_uint(j, "bw_bytes", (unsigned long long)llround(bw));
	jw_uint(j, "bw", (unsigned long long)llround(bw / 1024));
	jw_double(j, "iops", iops);
	jw_uint(j, "runtime", (unsigned long long)(ios > 0 ? runtime_ms : 0));
	jw_uint(j, "total_ios", (unsigned long long)llround(ios));
	jw_uint(j, "short_ios", 0);
	jw_uint(j, "drop_ios", 0);
	if (ios > 0) {
		double slat = 1500, clat = lat_ns - slat;

		write_lat(j, "slat_ns", slat, ios);
		jw_obj_begin(j, "clat_ns");
		jw_uint(j, "min", (unsigned long long)llround(clat * 0.2));
		jw_uint(j, "max", (unsigned long long)llround(clat * 40));
		jw_double(j, "mean", clat);
		jw_double(j, "stddev", clat * 0.6);
		jw_uint(j, "N", (unsigned long long)llround(ios));
		/* Tails wander more than means from run to run. */
		write_percentiles(j, clat * 0.9, lognormal(cv * 1.5));
		jw_obj_end(j);
		write_lat(j, "lat_ns", lat_ns, ios);
	} else {
		write_lat(j, "slat_ns", 0, 0);
		write_lat(j, "clat_ns", 0, 0);
		write_lat(j, "lat_ns", 0, 0);
	}
	jw_uint(j, "bw_min", (unsigned long long)llround(bw / 1024 * 0.8));
	jw_uint(j, "bw_max", (unsigned long long)llround(bw / 1024 * 1.2));
	jw_double(j, "bw_agg", 100.0);
	jw_double(j, "bw_mean", bw / 1024);
	jw_double(j, "bw_dev", bw / 1024 * 0.05);
	jw_int(j, "bw_samples", ios > 0 ? 20 : 0);
	jw_int(j, "iops_min", (long long)llround(iops * 0.8));
	jw_int(j, "iops_max", (long long)llround(iops * 1.2));
	jw_double(j, "iops_mean", iops);
	jw_double(j, "iops_stddev", iops * 0.05);
	jw_int(j, "iops_samples", ios > 0 ? 20 : 0);
	jw_obj_end(j);
}

static void write_fio(struct jw *j, const struct run *r, double *write_bytes)
{
	const struct cell *c = r->c;
	const char *wl = cell_dim(c, "workload");
	const char *eng = cell_dim(c, "ioengine");
	const char *bss = cell_dim(c, "bs");
	double bs = bss ? parse_size(bss) : 4096;
	int njobs = dim_int(c, "threads", 1), qd = dim_int(c, "iodepth", 1);
	bool rd = strstr(wl, "read") || strstr(wl, "rw"),
	     wr = strstr(wl, "write") || strstr(wl, "rw");
	double total = true_iops(c, bs) * r->factor, runtime_ms = 10000;
	double rshare = rd && wr ? 0.5 : rd ? 1 : 0;
	double cpu_ns_per_io = 2500 * keyed(c->truth_key, "cpu", 0.8, 1.2) * pow(bs / 4096, 0.3);

	if (eng && !strcmp(eng, "psync"))
		njobs = 8, qd = 1;
	*write_bytes = 0;
	jw_obj_begin(j, "fio");
	jw_str(j, "fio version", "iomatrix-runner");
	jw_int(j, "timestamp", 1764475200);
	jw_int(j, "timestamp_ms", 1764475200000LL);
	jw_str(j, "time", "Sun Nov 30 04:00:00 2026");
	jw_arr_begin(j, "jobs");
	for (int k = 0; k < njobs; k++) {
		/* Jobs share the device unevenly; the shares sum to one. */
		double share = 1.0 / njobs * (1 + 0.04 * (k % 2 ? 1 : -1) * (njobs % 2 ? 0 : 1));
		double iops = total * share, riops = iops * rshare, wiops = iops - riops;
		double lat = (double)qd / iops * 1e9;
		/* One job is one thread: at most one CPU. */
		double cpu_pct = fmin(98, cpu_ns_per_io * iops / 1e9 * 100 * lognormal(r->cv));
		char name[32];

		snprintf(name, sizeof(name), "%s-%s", wl, bss ? bss : "4k");
		jw_obj_begin(j, NULL);
		jw_str(j, "jobname", name);
		jw_int(j, "groupid", 0);
		jw_int(j, "error", 0);
		jw_int(j, "eta", 0);
		jw_int(j, "elapsed", 11);
		jw_obj_begin(j, "job options");
		jw_str(j, "rw", wl);
		jw_str(j, "bs", bss ? bss : "4k");
		jw_str(j, "ioengine", eng ? eng : "io_uring");
		jw_obj_end(j);
		write_dir(j, "read", riops, bs, runtime_ms, lat, r->cv);
		write_dir(j, "write", wiops, bs, runtime_ms, lat * 1.1, r->cv);
		write_dir(j, "trim", 0, bs, runtime_ms, 0, r->cv);
		jw_obj_begin(j, "sync");
		jw_uint(j, "total_ios", 0);
		write_lat(j, "lat_ns", 0, 0);
		jw_obj_end(j);
		jw_uint(j, "job_runtime", (unsigned long long)runtime_ms);
		jw_double(j, "usr_cpu", cpu_pct * 0.3);
		jw_double(j, "sys_cpu", cpu_pct * 0.7);
		jw_uint(j, "ctx", (unsigned long long)llround(iops * runtime_ms / 1000));
		jw_uint(j, "majf", 0);
		jw_uint(j, "minf", 12);
		jw_obj_end(j);
		*write_bytes += wiops * runtime_ms / 1000 * bs;
	}
	jw_arr_end(j);
	jw_obj_end(j);
}

static void write_dd(struct jw *j, const struct run *r, double *write_bytes)
{
	const struct cell *c = r->c;
	int writers = atoi(cell_dim(c, "workload"));
	double size = writers >= 100 ? 10485760.0 : 104857600.0;
	double io = size * writers, bw = true_dd_bw(c) * r->factor;
	double elapsed = io / bw * 1e9;

	*write_bytes = io;
	jw_obj_begin(j, "dd");
	jw_int(j, "writers", writers);
	jw_int(j, "bs", 1048576);
	jw_uint(j, "size_per_writer", (unsigned long long)size);
	jw_int(j, "runtime_ms", 0);
	jw_uint(j, "io_bytes", (unsigned long long)io);
	jw_uint(j, "elapsed_ns", (unsigned long long)llround(elapsed));
	jw_uint(j, "write_ns", (unsigned long long)llround(elapsed * 0.8));
	jw_uint(j, "sync_ns", (unsigned long long)llround(elapsed * 0.2));
	jw_uint(j, "bw_bytes", (unsigned long long)llround(bw));
	jw_uint(j, "bw", (unsigned long long)llround(bw / 1024));
	jw_arr_begin(j, "per_writer");
	for (int w = 0; w < writers; w++) {
		char file[64];
		double e = elapsed * (0.97 + 0.03 * uniform());

		snprintf(file, sizeof(file), "/mnt/t0/dd.%d", w);
		jw_obj_begin(j, NULL);
		jw_str(j, "file", file);
		jw_uint(j, "io_bytes", (unsigned long long)size);
		jw_uint(j, "elapsed_ns", (unsigned long long)llround(e));
		jw_uint(j, "bw_bytes", (unsigned long long)llround(size / e * 1e9));
		jw_obj_end(j);
	}
	jw_arr_end(j);
	jw_obj_end(j);
}

static void write_counters(struct jw *j, const struct run *r, double write_bytes, double secs)
{
	const struct cell *c = r->c;
	const char *a = cell_dim(c, "array");
	int nd = ndisks_of(c);
	double amp = (a && !strcmp(a, "raid5") ? 1.5 : 1.0) * 1.02 * lognormal(0.01);
	char name[8];

	jw_obj_begin(j, "vmstat_delta");
	jw_uint(j, "pgpgout", (unsigned long long)llround(write_bytes / 1024));
	jw_uint(j, "pgpgin", 120);
	jw_obj_end(j);
	jw_obj_begin(j, "diskstats_delta");
	for (int i = 0; i < nd; i++) {
		snprintf(name, sizeof(name), "vd%c", 'a' + i);
		jw_obj_begin(j, name);
		jw_uint(j, "reads", 16);
		jw_uint(j, "sectors_written",
			(unsigned long long)llround(write_bytes * amp / nd / 512));
		jw_uint(j, "io_ticks_ms", (unsigned long long)llround(secs * 1000 * 0.9));
		jw_obj_end(j);
	}
	jw_obj_end(j);
	jw_obj_begin(j, "cpu");
	jw_double(j, "user_pct", 1.2 * lognormal(r->cv));
	jw_double(j, "system_pct", 30.5 * lognormal(r->cv));
	jw_double(j, "iowait_pct", 40.1);
	jw_double(j, "idle_pct", 28.2);
	jw_obj_end(j);
}

static int write_record(const struct run *r, const char *run_id)
{
	char path[4096];
	FILE *f;
	struct jw j;
	const char *wl = cell_dim(r->c, "workload");
	bool dd = wl && is_dd(wl);
	double write_bytes = 0, secs = 10.01;

	snprintf(path, sizeof(path), "%s/records/%06ld.json", r->o->out, r->seq);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "gen-resultset: %s: %s\n", path, strerror(errno));
		return -1;
	}
	jw_init(&j, f, true);
	jw_obj_begin(&j, NULL);
	write_common_head(&j, r, run_id);
	write_setup(&j, r->c);
	jw_obj_begin(&j, "times");
	jw_int(&j, "start_unix", 1764475200 + r->seq * 12);
	jw_double(&j, "setup_s", 1.92);
	jw_double(&j, "workload_s", secs);
	jw_double(&j, "teardown_s", 0.41);
	jw_obj_end(&j);
	if (r->c->failed) {
		jw_null(&j, "workload");
	} else {
		jw_obj_begin(&j, "workload");
		jw_str(&j, "kind", dd ? "dd" : "fio");
		if (dd)
			write_dd(&j, r, &write_bytes);
		else
			write_fio(&j, r, &write_bytes);
		jw_obj_end(&j);
	}
	write_counters(&j, r, write_bytes, secs);
	jw_obj_end(&j);
	if (jw_end(&j) || fputc('\n', f) == EOF || fclose(f)) {
		fprintf(stderr, "gen-resultset: %s: write failed\n", path);
		return -1;
	}
	return 0;
}

static int write_manifest(const struct opts *o, const char *run_id, long counts_ok,
			  long failed, long missing)
{
	char path[4096];
	FILE *f;
	struct jw j;

	snprintf(path, sizeof(path), "%s/manifest.json", o->out);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "gen-resultset: %s: %s\n", path, strerror(errno));
		return -1;
	}
	jw_init(&j, f, true);
	jw_obj_begin(&j, NULL);
	jw_int(&j, "iomatrix_result_set", 1);
	jw_str(&j, "run_id", run_id);
	jw_str(&j, "matrix", o->matrix ? o->matrix : o->prof->matrix);
	jw_obj_begin(&j, "kernel");
	jw_str(&j, "release", o->kernel);
	jw_str(&j, "version", "#1 SMP PREEMPT_DYNAMIC Debian (synthetic)");
	jw_obj_end(&j);
	jw_str(&j, "created", "2026-11-30T04:00:00Z");
	jw_str(&j, "source", "synthetic: tests/synth/gen_resultset.c");
	jw_obj_begin(&j, "counts");
	jw_int(&j, "ok", counts_ok);
	jw_int(&j, "failed", failed);
	jw_int(&j, "timeout", 0);
	jw_int(&j, "skipped", 0);
	jw_int(&j, "crashed", 0);
	jw_int(&j, "missing", missing);
	jw_obj_end(&j);
	jw_arr_begin(&j, "damaged");
	jw_arr_end(&j);
	jw_obj_end(&j);
	if (jw_end(&j) || fputc('\n', f) == EOF || fclose(f)) {
		fprintf(stderr, "gen-resultset: %s: write failed\n", path);
		return -1;
	}
	return 0;
}

/* mkdir -p: the tests write sets into fresh temporary trees. */
static int mkdir_p(const char *dir)
{
	char p[4096];

	snprintf(p, sizeof(p), "%s", dir);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) && errno != EEXIST)
			return -1;
		*s = '/';
	}
	return mkdir(p, 0755) && errno != EEXIST ? -1 : 0;
}

/* "LO[-HI]" in percent, as fractions. */
static void parse_range(const char *arg, double *lo, double *hi)
{
	char *end;

	*lo = *hi = strtod(arg, &end) / 100;
	if (*end == '-')
		*hi = strtod(end + 1, NULL) / 100;
}

/* What the table parses; parse_args makes struct opts of it. */
struct args {
	const char *profile, *cv, *boot_cv;
	int seed;
	struct opts o;
};

#define A(f) offsetof(struct args, f)
#define O(f) offsetof(struct args, o.f)

static const struct cli_opt options[] = {
	{ .name = "profile", .kind = CLI_STRING, .offset = A(profile), .arg = "P",
	  .help = "mixed, seed000, seed001, seed002 or seed004 (default mixed)" },
	{ .name = "seed", .kind = CLI_INT, .offset = A(seed), .min = 0, .max = INT32_MAX,
	  .arg = "N", .help = "the noise's seed (default 1)" },
	{ .name = "repeats", .kind = CLI_INT, .offset = O(repeats), .min = 1, .max = 100000,
	  .arg = "N", .help = "runs of every cell (default 5)" },
	{ .name = "cv", .kind = CLI_STRING, .offset = A(cv), .arg = "LO[-HI]",
	  .help = "each cell's noise, in percent (default 3-10)" },
	{ .name = "runs", .kind = CLI_INT, .offset = O(runs), .min = 1, .max = 100, .arg = "N",
	  .help = "result sets OUT/run-1 ... OUT/run-N, one boot each" },
	{ .name = "boot-cv", .kind = CLI_STRING, .offset = A(boot_cv), .arg = "LO[-HI]",
	  .help = "each cell's boot effect, in percent (default 0)" },
	{ .name = "change", .kind = CLI_DOUBLE, .offset = O(change), .min = -100, .max = 1e6,
	  .arg = "PCT", .help = "change the throughput of chosen cells by PCT percent" },
	{ .name = "change-every", .kind = CLI_INT, .offset = O(change_every), .min = 0,
	  .max = INT32_MAX, .arg = "K", .help = "the cells --change changes: every Kth" },
	{ .name = "change-where", .kind = CLI_STRING, .offset = O(change_where), .arg = "DIM=VAL",
	  .help = "or those with DIM=VAL" },
	{ .name = "injected", .kind = CLI_STRING, .offset = O(injected), .arg = "FILE",
	  .help = "list the changed cells in FILE" },
	{ .name = "drop-cells", .kind = CLI_INT, .offset = O(drop_cells), .min = 0,
	  .max = INT32_MAX, .arg = "N", .help = "leave N cells out" },
	{ .name = "fail-cells", .kind = CLI_INT, .offset = O(fail_cells), .min = 0,
	  .max = INT32_MAX, .arg = "N", .help = "N cells whose workload failed" },
	{ .name = "skip", .kind = CLI_STRING, .offset = O(skip), .arg = "DIM=VAL",
	  .help = "cells with DIM=VAL skipped" },
	{ .name = "add-dim", .kind = CLI_STRING, .offset = O(add_dim), .arg = "DIM=VAL",
	  .help = "one more dimension, one value" },
	{ .name = "truth-ignores", .kind = CLI_STRING, .offset = O(truth_ignores), .arg = "DIM",
	  .help = "cells that differ only in DIM share their truth" },
	{ .name = "matrix", .kind = CLI_STRING, .offset = O(matrix), .arg = "NAME",
	  .help = "the matrix's name in the manifest" },
	{ .name = "kernel", .kind = CLI_STRING, .offset = O(kernel), .arg = "RELEASE",
	  .help = "the kernel release in the manifest (default 6.1.0-synthetic)" },
};

static const struct cli_cmd gen_cmd = {
	.prog = "gen-resultset",
	.synopsis = "OUT",
	.about = "A synthetic result set in the format of docs/records.md (a test helper).",
	.opts = options,
	.nopts = sizeof(options) / sizeof(options[0]),
	.min_pos = 1,
	.max_pos = 1,
};

static int parse_args(int argc, char **argv, struct opts *o)
{
	struct args a = { .seed = 1 };
	char *out;
	size_t npos;
	int r;

	a.o = (struct opts){ .prof = &profiles[0], .repeats = 5, .runs = 1, .cv_lo = 0.03,
			     .cv_hi = 0.10, .kernel = "6.1.0-synthetic" };
	r = cli_parse(&gen_cmd, argc, argv, &a, &out, &npos);
	if (r > 0)
		exit(0);
	if (r < 0)
		return -1;
	*o = a.o;
	o->out = out;
	o->seed = (uint64_t)a.seed;
	if (a.profile) {
		o->prof = NULL;
		for (size_t i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++)
			if (!strcmp(profiles[i].name, a.profile))
				o->prof = &profiles[i];
		if (!o->prof) {
			fprintf(stderr, "gen-resultset: --profile %s: unknown\n", a.profile);
			return -1;
		}
	}
	if (a.cv)
		parse_range(a.cv, &o->cv_lo, &o->cv_hi);
	if (a.boot_cv)
		parse_range(a.boot_cv, &o->boot_cv_lo, &o->boot_cv_hi);
	if (o->add_dim) {
		const char *eq = strchr(o->add_dim, '=');

		if (!eq || eq == o->add_dim || (size_t)(eq - o->add_dim) >= sizeof(o->add_dim_name)) {
			fprintf(stderr, "gen-resultset: --add-dim %s: not DIM=VALUE\n", o->add_dim);
			return -1;
		}
		memcpy(o->add_dim_name, o->add_dim, (size_t)(eq - o->add_dim));
		o->add_dim_name[eq - o->add_dim] = '\0';
	}
	return 0;
}

/* One result set in o->out: one boot (run) of the cells. */
static int write_run(const struct opts *o, struct cell *cells, int n, int run)
{
	char path[4096], run_id[32];
	long seq = 1, ok = 0, failed = 0, missing = 0;

	/* Run 0 keeps the stream a set of one run always had. */
	rng_state = o->seed * 0x2545f4914f6cdd1dULL + 7 + (uint64_t)run * 0x9e3779b97f4a7c15ULL;
	snprintf(run_id, sizeof(run_id), "%016llx", (unsigned long long)splitmix(&rng_state));
	snprintf(path, sizeof(path), "%s/records", o->out);
	if (mkdir_p(path)) {
		fprintf(stderr, "gen-resultset: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		struct cell *c = &cells[i];
		struct run r = { .o = o, .c = c, .ncells = n };
		double boot = boot_factor(o->seed, run, c->truth_key,
					  keyed(c->truth_key, "bootcv", o->boot_cv_lo,
						o->boot_cv_hi));

		r.cv = keyed(c->truth_key, "cv", o->cv_lo, o->cv_hi);
		missing += c->dropped;
		for (int rep = 0; rep < o->repeats; rep++) {
			if (c->dropped)
				continue;
			r.repeat = rep;
			r.seq = seq++;
			r.factor = lognormal(r.cv) * boot * (c->injected ? 1 + o->change / 100 : 1);
			if (write_record(&r, run_id))
				return -1;
			if (c->failed)
				failed++;
			else
				ok++;
		}
	}
	return write_manifest(o, run_id, ok, failed, missing);
}

int main(int argc, char **argv)
{
	struct opts o;
	struct cell *cells;
	int n;
	FILE *inj = NULL;

	if (parse_args(argc, argv, &o))
		return 2;
	n = expand(&o, &cells);
	if (n <= 0) {
		fprintf(stderr, "gen-resultset: profile %s expands to no cell\n", o.prof->name);
		return 1;
	}
	if (o.injected && !(inj = fopen(o.injected, "w"))) {
		fprintf(stderr, "gen-resultset: %s: %s\n", o.injected, strerror(errno));
		return 1;
	}
	/* Dropped and failed cells are spread over the matrix, from its end. */
	for (int i = 0; i < o.drop_cells && i < n; i++)
		cells[n - 1 - i * (n / (o.drop_cells + o.fail_cells + 1))].dropped = true;
	for (int i = 0; i < o.fail_cells && i < n; i++)
		cells[(i + 1) * (n / (o.fail_cells + 2))].failed = true;
	for (int i = 0; i < n; i++) {
		struct cell *c = &cells[i];

		c->injected = o.change != 0 &&
			      ((o.change_every > 0 && i % o.change_every == o.change_every / 2) ||
			       (o.change_where && matches(c, o.change_where)));
		if (inj && c->injected)
			fprintf(inj, "%s\n", c->key);
	}
	if (inj && fclose(inj)) {
		fprintf(stderr, "gen-resultset: %s: write failed\n", o.injected);
		return 1;
	}
	if (o.runs == 1) {
		if (write_run(&o, cells, n, 0))
			return 1;
	} else {
		char dir[4096];
		struct opts one = o;

		one.out = dir;
		for (int run = 0; run < o.runs; run++) {
			snprintf(dir, sizeof(dir), "%s/run-%d", o.out, run + 1);
			if (write_run(&one, cells, n, run))
				return 1;
		}
	}
	free(cells);
	return 0;
}
