// SPDX-License-Identifier: GPL-2.0
/*
 * The worker's IO loop. Two loops share the preparation of IOs: one for
 * synchronous engines (the IO happens inside queue, timed by two clock
 * reads) and one for asynchronous engines (fill every free slot, with a
 * commit every iodepth_batch_submit IOs, then reap what completed: a clock
 * read per commit and per reap). Nothing
 * on these paths allocates or locks (and only a job over several files
 * divides); time-driven work (bw/iops samples, the end of ramp_time and
 * runtime) waits behind one compare against the next event's time.
 */
#include "runner/engine/worker.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runner/clock.h"
#include "runner/engine/engine.h"
#include "runner/engine/files.h"
#include "runner/engine/offsets.h"
#include "runner/engine/verify.h"

#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define FIO_DEFAULT_SEED 0xb1899bedULL /* fio's seed when randseed is not given */
#define BUF_ALIGN	 4096

enum fill_result { FILL_OK, FILL_DONE, FILL_SYNC };

struct wstate {
	/*
	 * Hot: what every IO of the common job reads or writes, packed into a
	 * few cache lines, because the system call between two IOs evicts
	 * much of what the loop touched the time before.
	 */
	struct perm perm;
	uint64_t loop_bytes, bytes_per_loop;
	uint64_t fast_base; /* the one file's io_start (fill_fast) */
	uint64_t unit;
	uint64_t t_next_event;
	int (*queue)(struct engine *e, struct io_u *u);
	struct engine eng;
	struct job_stats *st;
	int stop, fast, verify;

	const struct job_options *o;
	struct job_files files;
	int *fds;
	const struct engine_ops *ops;
	int engine_ready;
	unsigned depth;
	struct io_u *pool;
	struct io_u **freel;
	unsigned nfree;
	struct io_u **done;
	struct io_u **batch; /* queued, not yet committed */
	unsigned nbatch;
	void *bufmem;
	size_t buf_len;

	struct rng rng_off, rng_mix, rng_bs, rng_data;
	uint64_t seed;
	int random, use_perm, use_skew;
	struct skew skew;
	uint64_t blocks_per_file, nblocks;
	uint64_t *seq_pos; /* per file, per direction (read, write) */
	unsigned rr_file;
	uint32_t loop;
	int all_issued;
	uint32_t rw;
	int mixed, fixed_bs;
	unsigned only_dir;

	uint64_t t_end, t_ramp_end, t_next_sample;
	int ramping;
	struct rusage ru_start;

	int slow; /* per-IO extras: rate, fsync, verify, buffer changes */
	uint32_t sync_every, writes_since_sync, last_write_file;
	int rate_limited;
	uint64_t rate_t0, rate_bytes[2], rate_ios[2];
	uint32_t run_id;    /* stamped into verify headers by this job's writes */
	uint32_t check_run; /* run id a block read back must carry (0: any) */
};

static void set_error(struct wstate *s, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void set_error(struct wstate *s, int err, const char *fmt, ...)
{
	va_list ap;

	if (s->st->error)
		return;
	s->st->error = err ? err : EIO;
	va_start(ap, fmt);
	vsnprintf(s->st->errmsg, sizeof(s->st->errmsg), fmt, ap);
	va_end(ap);
	s->stop = 1;
}

static void setup_error(struct wstate *s, const char *option, int err, const char *msg)
{
	s->st->setup_failed = 1;
	snprintf(s->st->err_option, sizeof(s->st->err_option), "%s", option);
	set_error(s, err, "%s", msg);
}

/* ---- choosing what the next IO is --------------------------------------- */

static unsigned choose_ddir(struct wstate *s)
{
	if (!s->mixed)
		return s->only_dir;
	return rng_below(&s->rng_mix, 100) < s->o->rwmixread ? DDIR_READ : DDIR_WRITE;
}

static uint32_t choose_bs(struct wstate *s, unsigned d)
{
	const struct job_options *o = s->o;

	if (o->bssplit_n[d]) {
		uint32_t r = (uint32_t)rng_below(&s->rng_bs, 100), sum = 0;

		for (uint32_t i = 0; i < o->bssplit_n[d]; i++) {
			sum += o->bssplit[d][i].pct;
			if (r < sum)
				return o->bssplit[d][i].bs;
		}
		return o->bssplit[d][o->bssplit_n[d] - 1].bs;
	}
	if (o->bs_min[d] == o->bs_max[d])
		return o->bs_min[d];
	/* fio: a multiple of the minimum, no larger than the maximum. */
	uint32_t steps = (o->bs_max[d] - o->bs_min[d]) / o->bs_min[d];

	return o->bs_min[d] * (1 + (uint32_t)rng_below(&s->rng_bs, steps + 1));
}

static void start_loop(struct wstate *s)
{
	s->loop_bytes = 0;
	memset(s->seq_pos, 0, s->files.n * 2 * sizeof(uint64_t));
	if (s->use_perm) {
		/* Each pass is a new order: the same for the same seed. */
		perm_init(&s->perm, s->nblocks, s->seed ^ (0x51ed27ULL * (s->loop + 1)));
	}
}

/* The next loop, or 0 when the job has done all of them. */
static int next_loop(struct wstate *s)
{
	s->loop++;
	s->st->loops_done = s->loop;
	if (!s->o->time_based && s->loop >= s->o->loops)
		return 0;
	if (!s->ops->diskless)
		files_invalidate(s->o, &s->files);
	start_loop(s);
	return 1;
}

/* Offset (and file) of the next IO of len bytes; 0 when this loop is done. */
static int next_offset(struct wstate *s, unsigned d, uint32_t *len, unsigned *file,
		       uint64_t *off)
{
	const struct job_file *f;
	uint64_t block, rel;

	if (s->loop_bytes >= s->bytes_per_loop)
		return 0;
	if (s->random) {
		if (s->use_perm) {
			if (!perm_next(&s->perm, &block))
				return 0;
		} else if (s->use_skew) {
			block = skew_next(&s->skew, &s->rng_off);
		} else {
			block = rng_below(&s->rng_off, s->nblocks);
		}
		if (s->files.n == 1) {
			*file = 0;
			rel = block * s->unit;
		} else {
			*file = (unsigned)(block / s->blocks_per_file);
			rel = (block % s->blocks_per_file) * s->unit;
		}
		f = &s->files.f[*file];
	} else {
		uint64_t *pos;

		*file = s->rr_file;
		if (++s->rr_file == s->files.n)
			s->rr_file = 0;
		f = &s->files.f[*file];
		pos = &s->seq_pos[*file * 2 + (d == DDIR_WRITE)];
		if (*pos >= f->io_len)
			*pos = 0; /* io_size larger than the file: wrap, as fio does */
		rel = *pos;
		*pos += *len;
	}
	if (unlikely(rel + *len > f->io_len)) {
		/*
		 * As fio: an IO never runs past the file, and a tail shorter
		 * than the smallest block is left undone (a short O_DIRECT IO
		 * would fail): the loop ends there.
		 */
		uint32_t min = s->o->bs_min[d];
		uint64_t room = f->io_len - rel;

		if (room < min)
			return 0;
		*len = (uint32_t)(room - room % min);
	}
	*off = f->io_start + rel;
	s->loop_bytes += *len;
	return 1;
}

static void rate_wait(struct wstate *s, unsigned d, uint32_t len)
{
	const struct job_options *o = s->o;
	uint64_t due = 0, t;

	if (o->rate[d])
		due = s->rate_t0 + (uint64_t)((long double)s->rate_bytes[d] * 1e9L / o->rate[d]);
	if (o->rate_iops[d]) {
		uint64_t due_iops = s->rate_t0 + s->rate_ios[d] * 1000000000ULL / o->rate_iops[d];

		if (due_iops > due)
			due = due_iops;
	}
	s->rate_bytes[d] += len;
	s->rate_ios[d]++;
	t = clock_ns();
	if (due > t && !(s->t_end && due >= s->t_end))
		clock_sleep_until(due);
}

/* Write buffers: verify headers, fresh random data, or fio's per-sector scramble. */
static void prepare_write_buffer(struct wstate *s, struct io_u *u)
{
	const struct job_options *o = s->o;

	if (o->verify) {
		verify_fill(u->buf, u->len, u->offset, s->run_id, &s->rng_data);
	} else if (o->zero_buffers) {
		return;
	} else if (o->refill_buffers) {
		uint64_t *p = u->buf;

		for (uint32_t i = 0; i < u->len / 8; i++)
			p[i] = rng_next(&s->rng_data);
	} else if (o->scramble_buffers) {
		uint64_t stamp = rng_next(&s->rng_data);

		for (uint32_t i = 0; i + 16 <= u->len; i += 512) {
			uint64_t off = u->offset + i;

			memcpy((char *)u->buf + i, &off, 8);
			memcpy((char *)u->buf + i + 8, &stamp, 8);
		}
	}
}

static enum fill_result fill_io_u(struct wstate *s, struct io_u *u)
{
	unsigned d, file;
	uint32_t len;
	uint64_t off;

	for (;;) {
		if (unlikely(s->stop))
			return FILL_DONE;
		d = choose_ddir(s);
		len = s->fixed_bs ? s->o->bs_min[d] : choose_bs(s, d);
		if (unlikely(d == DDIR_WRITE && s->sync_every &&
			     s->writes_since_sync >= s->sync_every))
			return FILL_SYNC;
		if (likely(next_offset(s, d, &len, &file, &off)))
			break;
		if (!next_loop(s))
			return FILL_DONE;
	}
	u->ddir = d;
	u->len = len;
	u->offset = off;
	u->file = file;
	u->fd = s->fds[file];
	if (unlikely(s->slow)) {
		if (d == DDIR_WRITE) {
			s->writes_since_sync++;
			s->last_write_file = file;
			prepare_write_buffer(s, u);
		}
		if (s->rate_limited)
			rate_wait(s, d, len);
	}
	return FILL_OK;
}

/*
 * The common job (one direction, one block size, one file, offsets from
 * the permutation, nothing else per IO) in a handful of instructions: the
 * io_u's other fields were set once by setup_fast and never change.
 */
static inline enum fill_result fill_fast(struct wstate *s, struct io_u *u)
{
	uint64_t block;

	if (likely(!s->stop && s->loop_bytes < s->bytes_per_loop && perm_next(&s->perm, &block))) {
		u->offset = s->fast_base + block * s->unit;
		s->loop_bytes += s->unit;
		return FILL_OK;
	}
	return fill_io_u(s, u);
}

static void setup_fast(struct wstate *s)
{
	const struct job_options *o = s->o;

	s->fast = !s->mixed && s->fixed_bs && s->files.n == 1 && s->use_perm && !s->slow &&
		  !s->sync_every && o->bs_min[s->only_dir] == s->unit;
	if (!s->fast)
		return;
	s->fast_base = s->files.f[0].io_start;
	for (unsigned i = 0; i < s->depth; i++) {
		s->pool[i].ddir = s->only_dir;
		s->pool[i].len = (uint32_t)s->unit;
		s->pool[i].file = 0;
		s->pool[i].fd = s->fds[0];
	}
}

/* ---- time-driven events ------------------------------------------------- */

static void snapshot_rusage(struct wstate *s)
{
	getrusage(RUSAGE_THREAD, &s->ru_start);
}

static uint64_t tv_us(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000ULL + (uint64_t)tv->tv_usec;
}

static void account_rusage(struct wstate *s)
{
	struct rusage now;

	if (getrusage(RUSAGE_THREAD, &now))
		return;
	s->st->usr_us += tv_us(&now.ru_utime) - tv_us(&s->ru_start.ru_utime);
	s->st->sys_us += tv_us(&now.ru_stime) - tv_us(&s->ru_start.ru_stime);
	s->st->ctx += (uint64_t)(now.ru_nvcsw + now.ru_nivcsw -
				 (s->ru_start.ru_nvcsw + s->ru_start.ru_nivcsw));
	s->st->minf += (uint64_t)(now.ru_minflt - s->ru_start.ru_minflt);
	s->st->majf += (uint64_t)(now.ru_majflt - s->ru_start.ru_majflt);
}

static void update_next_event(struct wstate *s)
{
	uint64_t next = s->ramping ? s->t_ramp_end : s->t_next_sample;

	if (s->t_end && s->t_end < next)
		next = s->t_end;
	s->t_next_event = next;
}

static void start_measuring(struct wstate *s, uint64_t now, int fresh)
{
	stats_reset(s->st, fresh);
	s->st->start_ns = now;
	s->st->last_sample_ns = now;
	s->t_next_sample = now + SAMPLE_INTERVAL_NS;
	s->rate_t0 = now;
	memset(s->rate_bytes, 0, sizeof(s->rate_bytes));
	memset(s->rate_ios, 0, sizeof(s->rate_ios));
	snapshot_rusage(s);
}

static void on_event(struct wstate *s, uint64_t now)
{
	if (s->ramping) {
		if (now >= s->t_ramp_end) {
			s->ramping = 0;
			start_measuring(s, now, 0);
		}
	} else if (now >= s->t_next_sample && !(s->t_end && now >= s->t_end)) {
		/* (at the end of runtime fio takes no last sample either) */
		stats_sample(s->st, s->rw, now);
		s->t_next_sample += SAMPLE_INTERVAL_NS;
		if (s->t_next_sample <= now)
			s->t_next_sample = now + SAMPLE_INTERVAL_NS;
	}
	if (s->t_end && now >= s->t_end)
		s->stop = 1;
	update_next_event(s);
}

/* ---- completions -------------------------------------------------------- */

static void check_read(struct wstate *s, const struct io_u *u)
{
	char why[160];

	s->st->verify_blocks++;
	if (!verify_check(u->buf, u->len, u->offset, s->check_run, why, sizeof(why)))
		return;
	if (!s->st->verify_errors++) {
		snprintf(s->st->errmsg, sizeof(s->st->errmsg),
			 "verify: bad block at offset %llu of %s: %s",
			 (unsigned long long)u->offset, s->files.f[u->file].path, why);
	}
	if (s->o->verify_fatal)
		s->stop = 1;
}

/* A completion that is not a full success; returns 1 when the job must stop. */
static int odd_result(struct wstate *s, struct io_u *u)
{
	struct ddir_stats *ds = &s->st->dir[u->ddir];

	if (u->result < 0) {
		set_error(s, (int)-u->result, "%s at offset %llu of %s: %s",
			  u->ddir == DDIR_READ ? "read" : "write", (unsigned long long)u->offset,
			  s->files.f[u->file].path, strerror((int)-u->result));
		return 1;
	}
	if (u->result == 0) {
		set_error(s, EIO, "%s at offset %llu of %s: nothing transferred (end of file?)",
			  u->ddir == DDIR_READ ? "read" : "write", (unsigned long long)u->offset,
			  s->files.f[u->file].path);
		return 1;
	}
	ds->short_ios++;
	u->len = (uint32_t)u->result;
	return 0;
}

static void do_sync(struct wstate *s)
{
	int fd = s->fds[s->last_write_file];
	uint64_t t0 = clock_ns(), t1;
	int r = s->o->fdatasync && !s->o->fsync ? fdatasync(fd) : fsync(fd);

	t1 = clock_ns();
	if (r) {
		set_error(s, errno, "fsync of %s: %s", s->files.f[s->last_write_file].path,
			  strerror(errno));
		return;
	}
	stats_lat_add(&s->st->sync_lat, t1 - t0);
	s->st->sync_hist[lat_hist_index(t1 - t0)]++;
	s->writes_since_sync = 0;
	if (unlikely(t1 >= s->t_next_event))
		on_event(s, t1);
}

/* ---- the loops ---------------------------------------------------------- */

static void run_sync(struct wstate *s)
{
	struct job_stats *st = s->st;
	struct io_u *u = &s->pool[0];
	uint64_t total = 0;

	for (;;) {
		enum fill_result fr = s->fast ? fill_fast(s, u) : fill_io_u(s, u);

		if (unlikely(fr != FILL_OK)) {
			if (fr == FILL_DONE)
				break;
			do_sync(s);
			continue;
		}
		uint64_t t0 = clock_ns();

		s->queue(&s->eng, u);
		uint64_t t1 = clock_ns();

		if (unlikely((uint64_t)u->result != u->len) && odd_result(s, u))
			break;
		struct ddir_stats *ds = &st->dir[u->ddir];
		uint64_t lat = t1 - t0;

		ds->io_bytes += u->len;
		ds->ios++;
		stats_lat_add(&ds->clat, lat);
		ds->clat_hist[lat_hist_index(lat)]++;
		if (unlikely(s->verify) && u->ddir == DDIR_READ)
			check_read(s, u);
		if (unlikely(t1 >= s->t_next_event))
			on_event(s, t1);
	}
	for (int d = 0; d < DDIR_NR; d++)
		total += st->dir[d].ios;
	/* One IO in flight, one per submit, one per completion: fio's accounting for sync engines. */
	st->depth_map[0] = total;
	st->submit_map[1] = st->complete_map[1] = total;
	st->total_submit = st->total_complete = total;
}

static void complete_batch(struct wstate *s, int n, uint64_t now)
{
	struct job_stats *st = s->st;
	int lat_pct = (int)s->o->lat_percentiles;

	st->complete_map[stats_batch_bucket((unsigned)n)]++;
	st->total_complete++;
	for (int i = 0; i < n; i++) {
		struct io_u *u = s->done[i];

		if (unlikely((uint64_t)u->result != u->len) && odd_result(s, u)) {
			s->freel[s->nfree++] = u;
			continue;
		}
		struct ddir_stats *ds = &st->dir[u->ddir];
		uint64_t clat = now - u->issue_ns, lat = now - u->start_ns;

		ds->io_bytes += u->len;
		ds->ios++;
		stats_lat_add(&ds->clat, clat);
		ds->clat_hist[lat_hist_index(clat)]++;
		stats_lat_add(&ds->lat, lat);
		if (unlikely(lat_pct))
			ds->lat_hist[lat_hist_index(lat)]++;
		if (unlikely(s->verify) && u->ddir == DDIR_READ)
			check_read(s, u);
		s->freel[s->nfree++] = u;
	}
}

/* Commits the batch; *t_done is when the commit returned. */
static int commit_batch(struct wstate *s, unsigned *inflight, uint64_t *t_done)
{
	struct job_stats *st = s->st;
	uint64_t t_issue;
	unsigned n = s->nbatch;
	int r = s->ops->commit(&s->eng);

	*t_done = t_issue = clock_ns();
	if (r < 0) {
		set_error(s, -r, "ioengine=%s: submitting %u IOs: %s", s->ops->name, n,
			  strerror(-r));
		/* Nothing of the batch is in flight any more: give the slots back. */
		for (unsigned i = 0; i < n; i++)
			s->freel[s->nfree++] = s->batch[i];
		s->nbatch = 0;
		return -1;
	}
	*inflight += n;
	for (unsigned i = 0; i < n; i++) {
		struct io_u *u = s->batch[i];

		u->issue_ns = t_issue;
		stats_lat_add(&st->dir[u->ddir].slat, t_issue - u->start_ns);
	}
	st->depth_map[stats_depth_bucket(*inflight)] += n;
	st->submit_map[stats_batch_bucket(n)]++;
	st->total_submit++;
	s->nbatch = 0;
	return 0;
}

static void run_async(struct wstate *s)
{
	const struct job_options *o = s->o;
	unsigned inflight = 0, depth = s->depth;
	unsigned batch_max = o->iodepth_batch_submit ? o->iodepth_batch_submit : depth;
	unsigned cmin = o->iodepth_batch_complete_min ? o->iodepth_batch_complete_min : 1;
	/* As fio: at most complete_max, which is never below complete_min (its default). */
	unsigned cmax = o->iodepth_batch_complete_max > cmin ? o->iodepth_batch_complete_max : cmin;
	int sync_pending = 0;

	if (cmin > depth)
		cmin = depth;
	if (cmax > depth)
		cmax = depth;
	for (;;) {
		if (!s->all_issued && !sync_pending && s->nfree) {
			uint64_t t_prep = clock_ns();

			while (s->nfree) {
				struct io_u *u = s->freel[s->nfree - 1];
				enum fill_result fr = s->fast ? fill_fast(s, u) : fill_io_u(s, u);

				if (fr == FILL_DONE) {
					s->all_issued = 1;
					break;
				}
				if (fr == FILL_SYNC) {
					sync_pending = 1;
					break;
				}
				s->nfree--;
				u->start_ns = t_prep;
				s->queue(&s->eng, u);
				s->batch[s->nbatch++] = u;
				/* The next IO's preparation starts when this commit returns, as in fio. */
				if (s->nbatch >= batch_max && commit_batch(s, &inflight, &t_prep))
					break;
			}
			if (s->nbatch && commit_batch(s, &inflight, &t_prep))
				s->all_issued = 1;
		}
		if (!inflight) {
			if (sync_pending) {
				do_sync(s);
				sync_pending = 0;
				continue;
			}
			if (s->all_issued || s->stop)
				break;
			continue;
		}
		unsigned min, max = cmax;

		if (s->all_issued || s->stop) {
			/* At the end, everything still in flight in one reap, as fio ends a job. */
			min = max = inflight;
		} else {
			/* Wait when nothing more can go out; otherwise only take what is there. */
			min = sync_pending || !s->nfree ? cmin : 0;
			if (min > inflight)
				min = inflight;
		}
		int n = s->ops->reap(&s->eng, min, max, s->done);
		uint64_t now = clock_ns();

		if (n < 0) {
			set_error(s, -n, "ioengine=%s: reaping completions: %s", s->ops->name,
				  strerror(-n));
			break; /* the engine's teardown cancels what is left */
		}
		if (n) {
			inflight -= (unsigned)n;
			complete_batch(s, n, now);
		}
		if (unlikely(now >= s->t_next_event))
			on_event(s, now);
		if (s->stop)
			s->all_issued = 1;
	}
}

/* ---- setup and teardown ------------------------------------------------- */

static uint64_t mix_seed(uint64_t seed, uint64_t stream)
{
	struct rng r = { seed ^ (stream * 0xd1b54a32d192ed03ULL) };

	return rng_next(&r);
}

static int setup_offsets(struct wstate *s, unsigned clone)
{
	const struct job_options *o = s->o;
	uint64_t base, region = 0, min_blocks = UINT64_MAX;
	int repeat = o->randrepeat || o->allrandrepeat;

	base = o->randseed ? o->randseed : FIO_DEFAULT_SEED;
	base = mix_seed(base, clone + 1);
	if (!repeat)
		base ^= clock_ns() ^ ((uint64_t)getpid() << 32);
	s->seed = base;
	/* One seed for every stream: the same randseed gives the same run. */
	rng_seed(&s->rng_off, mix_seed(base, 1));
	rng_seed(&s->rng_mix, mix_seed(base, 2));
	rng_seed(&s->rng_bs, mix_seed(base, 3));
	rng_seed(&s->rng_data, mix_seed(base, 4));

	s->unit = UINT32_MAX;
	for (int d = 0; d < DDIR_TRIM; d++)
		if ((d == DDIR_READ && rw_reads(o)) || (d == DDIR_WRITE && rw_writes(o)))
			s->unit = o->bs_min[d] < s->unit ? o->bs_min[d] : s->unit;
	for (unsigned i = 0; i < s->files.n; i++) {
		uint64_t b = s->files.f[i].io_len / s->unit;

		region += s->files.f[i].io_len;
		if (b < min_blocks)
			min_blocks = b;
	}
	if (!min_blocks) {
		setup_error(s, "size", EINVAL, "the region of a file is smaller than one block");
		return -1;
	}
	s->blocks_per_file = min_blocks;
	s->nblocks = min_blocks * s->files.n;
	s->random = rw_random(o);
	s->use_skew = s->random && o->random_distribution != DIST_RANDOM;
	s->use_perm = s->random && !s->use_skew && !o->norandommap;
	if (s->use_skew)
		skew_init(&s->skew, o->random_distribution == DIST_ZIPF ? SKEW_ZIPF : SKEW_PARETO,
			  o->dist_param, s->nblocks, base);
	if (s->random)
		region = s->nblocks * s->unit;
	s->bytes_per_loop = o->io_size ? o->io_size : region;
	s->st->bytes_per_loop = s->bytes_per_loop;
	s->seq_pos = calloc(s->files.n * 2, sizeof(uint64_t));
	if (!s->seq_pos) {
		setup_error(s, "name", ENOMEM, "out of memory");
		return -1;
	}
	start_loop(s);
	return 0;
}

static int setup_buffers(struct wstate *s)
{
	const struct job_options *o = s->o;
	size_t max_bs = 0;

	for (int d = 0; d < DDIR_NR; d++)
		if (o->bs_max[d] > max_bs)
			max_bs = o->bs_max[d];
	s->buf_len = (max_bs + BUF_ALIGN - 1) & ~(size_t)(BUF_ALIGN - 1);
	s->pool = calloc(s->depth, sizeof(*s->pool));
	s->freel = calloc(s->depth, sizeof(*s->freel));
	s->done = calloc(s->depth, sizeof(*s->done));
	s->batch = calloc(s->depth, sizeof(*s->batch));
	if (!s->pool || !s->freel || !s->done || !s->batch ||
	    posix_memalign(&s->bufmem, BUF_ALIGN, s->buf_len * s->depth)) {
		s->bufmem = NULL;
		setup_error(s, "iodepth", ENOMEM, "out of memory for the IO buffers");
		return -1;
	}
	if (o->zero_buffers || !rw_writes(o)) {
		memset(s->bufmem, 0, s->buf_len * s->depth);
	} else {
		uint64_t *p = s->bufmem;

		for (size_t i = 0; i < s->buf_len * s->depth / 8; i++)
			p[i] = rng_next(&s->rng_data);
	}
	for (unsigned i = 0; i < s->depth; i++) {
		s->pool[i].buf = (char *)s->bufmem + i * s->buf_len;
		s->pool[i].index = i;
		s->freel[i] = &s->pool[s->depth - 1 - i];
	}
	s->nfree = s->depth;
	return 0;
}

static int setup_engine(struct wstate *s)
{
	struct engine_params p = { .depth = s->depth, .fds = s->fds, .nfds = s->files.n,
				   .pool = s->pool, .buf_len = s->buf_len, .o = s->o };
	char err[256];

	s->ops = engine_find(s->o->ioengine);
	s->eng.ops = s->ops;
	s->queue = s->ops->queue;
	if (s->ops->setup(&s->eng, &p, err, sizeof(err))) {
		setup_error(s, "ioengine", ENODEV, err);
		return -1;
	}
	s->engine_ready = 1;
	return 0;
}

/* verify=crc32c on a write job: read back what this job wrote, after it ended. */
static void verify_written(struct wstate *s)
{
	struct io_u *u = &s->pool[0];
	int whole = s->loop > 0; /* a full pass wrote every block */
	uint64_t saved_counter = s->perm.counter;

	if (s->use_perm && !whole) {
		/* Replay this pass's order up to where it stopped. */
		perm_init(&s->perm, s->nblocks, s->seed ^ (0x51ed27ULL * (s->loop + 1)));
	}
	for (unsigned fi = 0; fi < s->files.n; fi++) {
		const struct job_file *f = &s->files.f[fi];
		uint64_t limit = whole || s->random ? f->io_len : s->seq_pos[fi * 2 + 1];

		if (s->use_perm && !whole)
			continue; /* done below, in permutation order */
		for (uint64_t rel = 0; rel + s->unit <= limit && !s->stop; rel += s->unit) {
			u->file = fi;
			u->offset = f->io_start + rel;
			u->len = (uint32_t)s->unit;
			u->result = pread(f->fd, u->buf, u->len, (off_t)u->offset);
			if (u->result != (long)u->len) {
				set_error(s, u->result < 0 ? errno : EIO, "verify: reading back %s at %llu failed",
					  f->path, (unsigned long long)u->offset);
				return;
			}
			check_read(s, u);
		}
	}
	if (s->use_perm && !whole) {
		uint64_t block;

		while (s->perm.counter < saved_counter && perm_next(&s->perm, &block) && !s->stop) {
			unsigned fi = (unsigned)(block / s->blocks_per_file);
			const struct job_file *f = &s->files.f[fi];

			u->file = fi;
			u->offset = f->io_start + (block % s->blocks_per_file) * s->unit;
			u->len = (uint32_t)s->unit;
			u->result = pread(f->fd, u->buf, u->len, (off_t)u->offset);
			if (u->result != (long)u->len) {
				set_error(s, u->result < 0 ? errno : EIO, "verify: reading back %s at %llu failed",
					  f->path, (unsigned long long)u->offset);
				return;
			}
			check_read(s, u);
		}
	}
}

static void end_fsync(struct wstate *s)
{
	for (unsigned i = 0; i < s->files.n; i++) {
		s->last_write_file = i;
		do_sync(s);
	}
}

static void teardown(struct wstate *s)
{
	if (s->engine_ready)
		s->ops->teardown(&s->eng);
	files_close(s->o, &s->files);
	files_free(&s->files);
	free(s->fds);
	free(s->pool);
	free(s->freel);
	free(s->done);
	free(s->batch);
	free(s->bufmem);
	free(s->seq_pos);
}

void worker_run(struct worker *w)
{
	struct wstate s;
	const struct job_options *o = w->o;
	const char *option = "filename";
	char err[512];
	uint64_t start;

	memset(&s, 0, sizeof(s));
	s.o = o;
	s.st = w->st;
	s.st->pid = (int)syscall(SYS_gettid);
	s.st->launch_ns = clock_ns();
	stats_reset(s.st, 1);
	if (o->startdelay_us)
		clock_sleep_until(s.st->launch_ns + o->startdelay_us * 1000);

	s.ops = engine_find(o->ioengine);
	if (files_name(o, w->clone, &s.files, err, sizeof(err))) {
		setup_error(&s, "filename", ENOMEM, err);
		goto out;
	}
	if (s.ops->diskless) {
		if (files_virtual(o, &s.files, err, sizeof(err))) {
			setup_error(&s, "size", EINVAL, err);
			goto out;
		}
	} else if (files_prepare(o, &s.files, &option, err, sizeof(err))) {
		setup_error(&s, option, EINVAL, err);
		goto out;
	}
	s.fds = calloc(s.files.n, sizeof(int));
	if (!s.fds) {
		setup_error(&s, "filename", ENOMEM, "out of memory");
		goto out;
	}
	for (unsigned i = 0; i < s.files.n; i++)
		s.fds[i] = s.files.f[i].fd;

	s.rw = o->rw;
	s.verify = o->verify != VERIFY_NONE;
	s.mixed = rw_reads(o) && rw_writes(o);
	s.only_dir = rw_reads(o) ? DDIR_READ : DDIR_WRITE;
	s.fixed_bs = 1;
	for (int d = 0; d < DDIR_TRIM; d++)
		if (o->bssplit_n[d] || o->bs_min[d] != o->bs_max[d])
			s.fixed_bs = 0;
	/* psync with iodepth > 1 runs at depth 1, as fio does (the CLI says so on stderr). */
	s.depth = s.ops->sync ? 1 : o->iodepth;
	s.st->sync_engine = s.ops->sync || (s.ops->sync_at_depth1 && s.depth == 1);
	if (setup_offsets(&s, w->clone) || setup_buffers(&s) || setup_engine(&s))
		goto out;
	s.sync_every = o->fsync ? o->fsync : o->fdatasync;
	s.rate_limited = o->rate[0] || o->rate[1] || o->rate_iops[0] || o->rate_iops[1];
	s.slow = s.rate_limited || (rw_writes(o) && (s.sync_every || o->verify || o->refill_buffers ||
						     (o->scramble_buffers && !o->zero_buffers)));
	setup_fast(&s);

	start = clock_ns();
	s.run_id = (uint32_t)(mix_seed(start, w->seq) | 1);
	start_measuring(&s, start, 1);
	s.ramping = o->ramp_time_us != 0;
	s.t_ramp_end = start + o->ramp_time_us * 1000;
	s.t_end = o->runtime_us ? start + (o->ramp_time_us + o->runtime_us) * 1000 : 0;
	update_next_event(&s);

	if (s.st->sync_engine)
		run_sync(&s);
	else
		run_async(&s);
	if (o->end_fsync && rw_writes(o) && !s.st->error)
		end_fsync(&s);
	s.st->end_ns = clock_ns();
	if (s.ramping) /* ended inside ramp_time: nothing was measured */
		s.st->start_ns = s.st->end_ns;
	account_rusage(&s);
	if (!s.st->loops_done)
		s.st->loops_done = s.loop;

	if (o->verify && rw_writes(o) && o->do_verify && !s.st->error) {
		s.stop = 0;
		s.check_run = s.run_id; /* only this run's blocks count */
		verify_written(&s);
	}
	if (s.st->verify_errors && !s.st->error) {
		char first[sizeof(s.st->errmsg)];

		snprintf(first, sizeof(first), "%s", s.st->errmsg);
		s.st->error = EILSEQ;
		snprintf(s.st->errmsg, sizeof(s.st->errmsg), "%llu of %llu blocks failed %.180s",
			 (unsigned long long)s.st->verify_errors,
			 (unsigned long long)s.st->verify_blocks, first);
	}
out:
	if (!s.st->end_ns)
		s.st->end_ns = s.st->start_ns = clock_ns();
	teardown(&s);
}
