// SPDX-License-Identifier: GPL-2.0
/* The one table of job options; see job_options.h. */
#include "matrix/job_options.h"

#define O(field) offsetof(struct job_options, field)
#define SEC      1000000000ULL
#define USEC     1000ULL

static const struct opt_choice rw_choices[] = {
	{ "read", RW_READ, "sequential reads" },
	{ "write", RW_WRITE, "sequential writes" },
	{ "randread", RW_RANDREAD, "random reads" },
	{ "randwrite", RW_RANDWRITE, "random writes" },
	{ "rw", RW_RW, "sequential mixed reads and writes" },
	{ "readwrite", RW_RW, "sequential mixed reads and writes" },
	{ "randrw", RW_RANDRW, "random mixed reads and writes" },
	{ NULL, 0, NULL },
};

static const struct opt_choice engine_choices[] = {
	{ "psync", ENGINE_PSYNC, "pread/pwrite, one IO at a time" },
	{ "sync", ENGINE_SYNC, "read/write (with lseek when needed), one IO at a time" },
	{ "libaio", ENGINE_LIBAIO, "Linux native asynchronous IO" },
	{ "io_uring", ENGINE_IO_URING, "io_uring (liburing)" },
	{ "null", ENGINE_NULL, "no IO: measures the engine's own overhead" },
	{ NULL, 0, NULL },
};

static const struct opt_choice fallocate_choices[] = {
	{ "none", FALLOC_NONE, "do not preallocate" },
	{ "0", FALLOC_NONE, "same as none" },
	{ "native", FALLOC_NATIVE, "fallocate(2), falling back to none" },
	{ "posix", FALLOC_POSIX, "posix_fallocate(3)" },
	{ "1", FALLOC_POSIX, "same as posix" },
	{ "keep", FALLOC_KEEP, "fallocate(2) with FALLOC_FL_KEEP_SIZE" },
	{ "truncate", FALLOC_TRUNCATE, "ftruncate(2) to the size" },
	{ NULL, 0, NULL },
};

static const struct opt_choice verify_choices[] = {
	{ "0", VERIFY_NONE, "no verification" },
	{ "none", VERIFY_NONE, "no verification" },
	{ "crc32c", VERIFY_CRC32C, "a crc32c header in every block" },
	{ "crc32c-intel", VERIFY_CRC32C, "same as crc32c (hardware when present)" },
	{ NULL, 0, NULL },
};

static const struct opt_choice kb_base_choices[] = {
	{ "1024", 1024, "k = 1024 (and kB too: fio's compatible default)" },
	{ "1000", 1000, "k = 1000, KiB = 1024" },
	{ NULL, 0, NULL },
};

static const struct opt_choice clock_choices[] = {
	{ "cpu", CLOCK_SRC_CPU, "the CPU's invariant TSC (clock_gettime where it is not)" },
	{ "clock_gettime", CLOCK_SRC_CLOCK_GETTIME, "clock_gettime(CLOCK_MONOTONIC)" },
	{ NULL, 0, NULL },
};

#define DEFAULT_PERCENTILES "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99"

const struct option_def option_table[] = {
	/* description */
	{ "name", NULL, OT_STR, O(name), 0, NULL, 0, 0, 0, NULL,
	  "name of the job; on the command line, starts a new job", "description" },
	{ "description", NULL, OT_STR, O(description), 0, NULL, 0, 0, 0, NULL,
	  "text shown with the job's results", "description" },
	/* files */
	{ "filename", NULL, OT_STR, O(filename), 0, NULL, 0, 0, 0, NULL,
	  "file or block device; ':' separates several ('\\:' is a literal colon)", "files" },
	{ "directory", NULL, OT_STR, O(directory), 0, NULL, 0, 0, 0, NULL,
	  "where generated files go; ':' separates several, spread over clones", "files" },
	{ "nrfiles", "nr_files", OT_U32, O(nrfiles), 0, "1", 1, 1 << 20, 0, NULL,
	  "files per job", "files" },
	{ "size", NULL, OT_SIZE_PCT, O(size), O(size_pct), "0", 0, 0, 0, NULL,
	  "total bytes of the job's files (or N% of them)", "files" },
	{ "filesize", NULL, OT_SIZE, O(filesize), 0, "0", 0, 0, 0, NULL,
	  "size of each file (default size/nrfiles)", "files" },
	{ "io_size", "io_limit", OT_SIZE, O(io_size), 0, "0", 0, 0, 0, NULL,
	  "bytes of IO to do (default size)", "files" },
	{ "offset", NULL, OT_SIZE_PCT, O(offset), O(offset_pct), "0", 0, 0, 0, NULL,
	  "start of the IO region in each file (or N%)", "files" },
	{ "fallocate", NULL, OT_ENUM, O(fallocate), 0, "native", 0, 0, 0, fallocate_choices,
	  "how files are preallocated when laid out", "files" },
	{ "create_on_open", NULL, OT_BOOL, O(create_on_open), 0, "0", 0, 0, 0, NULL,
	  "create files when the job opens them, not before it starts", "files" },
	{ "overwrite", NULL, OT_BOOL, O(overwrite), 0, "0", 0, 0, 0, NULL,
	  "lay out written files fully before a write job", "files" },
	{ "unlink", NULL, OT_BOOL, O(unlink), 0, "0", 0, 0, 0, NULL,
	  "remove the job's files when it ends", "files" },
	{ "invalidate", NULL, OT_BOOL, O(invalidate), 0, "1", 0, 0, 0, NULL,
	  "drop the files' page cache before the job starts", "files" },
	{ "fadvise_hint", NULL, OT_BOOL, O(fadvise_hint), 0, "1", 0, 0, 0, NULL,
	  "tell the kernel the pattern (POSIX_FADV_RANDOM/SEQUENTIAL), as fio does", "files" },
	/* io type */
	{ "rw", "readwrite", OT_ENUM, O(rw), 0, "read", 0, 0, 0, rw_choices,
	  "IO pattern", "io" },
	{ "rwmixread", NULL, OT_U32, O(rwmixread), 0, "50", 0, 100, 0, NULL,
	  "percentage of mixed IO that reads", "io" },
	{ "rwmixwrite", NULL, OT_MIX_WRITE, O(rwmixread), 0, NULL, 0, 100, 0, NULL,
	  "percentage of mixed IO that writes (sets rwmixread=100-N)", "io" },
	{ "bs", "blocksize", OT_BS, O(bs), 0, "4k", 0, 0, 0, NULL,
	  "block size; 'R,W,T' for each direction", "io" },
	{ "bsrange", "blocksize_range", OT_BSRANGE, O(bs_min), 0, NULL, 0, 0, 0, NULL,
	  "random block sizes in 'MIN-MAX', per direction", "io" },
	{ "bssplit", NULL, OT_BSSPLIT, O(bssplit), 0, NULL, 0, 0, 0, NULL,
	  "block size mix 'BS/PCT:BS/PCT', ',' between directions", "io" },
	{ "direct", NULL, OT_BOOL, O(direct), 0, "0", 0, 0, 0, NULL,
	  "O_DIRECT: bypass the page cache", "io" },
	{ "buffered", NULL, OT_INV_BOOL, O(direct), 0, NULL, 0, 0, 0, NULL,
	  "use the page cache (the opposite of direct)", "io" },
	{ "sync", NULL, OT_BOOL, O(sync), 0, "0", 0, 0, 0, NULL,
	  "open files O_SYNC", "io" },
	{ "fsync", NULL, OT_U32, O(fsync), 0, "0", 0, 0, 0, NULL,
	  "fsync after every N writes", "io" },
	{ "fdatasync", NULL, OT_U32, O(fdatasync), 0, "0", 0, 0, 0, NULL,
	  "fdatasync after every N writes", "io" },
	{ "end_fsync", NULL, OT_BOOL, O(end_fsync), 0, "0", 0, 0, 0, NULL,
	  "fsync the files when the job's writes are done", "io" },
	{ "fsync_on_close", NULL, OT_BOOL, O(fsync_on_close), 0, "0", 0, 0, 0, NULL,
	  "fsync each file when it is closed", "io" },
	{ "zero_buffers", NULL, OT_BOOL, O(zero_buffers), 0, "0", 0, 0, 0, NULL,
	  "write zeros", "buffers" },
	{ "refill_buffers", NULL, OT_BOOL, O(refill_buffers), 0, "0", 0, 0, 0, NULL,
	  "new random data for every write", "buffers" },
	{ "scramble_buffers", NULL, OT_BOOL, O(scramble_buffers), 0, "1", 0, 0, 0, NULL,
	  "change a few bytes of every write so no two blocks are equal", "buffers" },
	/* engine */
	{ "ioengine", NULL, OT_ENUM, O(ioengine), 0, "psync", 0, 0, 0, engine_choices,
	  "how IO is issued", "engine" },
	{ "iodepth", NULL, OT_U32, O(iodepth), 0, "1", 1, 65536, 0, NULL,
	  "IOs in flight (asynchronous engines)", "engine" },
	{ "iodepth_batch_submit", "iodepth_batch", OT_U32, O(iodepth_batch_submit), 0, "1", 0,
	  65536, 0, NULL, "IOs submitted at once (0: iodepth)", "engine" },
	{ "iodepth_batch_complete_min", "iodepth_batch_complete", OT_U32,
	  O(iodepth_batch_complete_min), 0, "1", 0, 65536, 0, NULL,
	  "fewest completions to wait for at once", "engine" },
	{ "iodepth_batch_complete_max", NULL, OT_U32, O(iodepth_batch_complete_max), 0, "0", 0,
	  65536, 0, NULL,
	  "most completions reaped at once (default and at least: iodepth_batch_complete_min)",
	  "engine" },
	{ "hipri", NULL, OT_BOOL, O(hipri), 0, "0", 0, 0, 0, NULL,
	  "io_uring: polled completions (IORING_SETUP_IOPOLL)", "io_uring" },
	{ "fixedbufs", NULL, OT_BOOL, O(fixedbufs), 0, "0", 0, 0, 0, NULL,
	  "io_uring: registered buffers", "io_uring" },
	{ "registerfiles", NULL, OT_BOOL, O(registerfiles), 0, "0", 0, 0, 0, NULL,
	  "io_uring: registered files", "io_uring" },
	{ "sqthread_poll", NULL, OT_BOOL, O(sqthread_poll), 0, "0", 0, 0, 0, NULL,
	  "io_uring: a kernel thread polls the submission queue", "io_uring" },
	{ "userspace_reap", NULL, OT_BOOL, O(userspace_reap), 0, "0", 0, 0, 0, NULL,
	  "libaio: reap completions from the ring without a system call", "libaio" },
	/* jobs and time */
	{ "numjobs", NULL, OT_U32, O(numjobs), 0, "1", 1, 65536, 0, NULL,
	  "clones of this job", "jobs" },
	{ "thread", NULL, OT_BOOL, O(thread), 0, "0", 0, 0, 0, NULL,
	  "run jobs as threads, not processes", "jobs" },
	{ "runtime", "timeout", OT_TIME, O(runtime_us), 0, "0", 0, 0, SEC, NULL,
	  "stop after this long (seconds by default)", "time" },
	{ "time_based", NULL, OT_BOOL, O(time_based), 0, "0", 0, 0, 0, NULL,
	  "run for runtime, repeating the workload", "time" },
	{ "ramp_time", NULL, OT_TIME, O(ramp_time_us), 0, "0", 0, 0, SEC, NULL,
	  "run this long before statistics start", "time" },
	{ "startdelay", NULL, OT_TIME, O(startdelay_us), 0, "0", 0, 0, SEC, NULL,
	  "wait this long before starting", "time" },
	{ "loops", "loop", OT_U32, O(loops), 0, "1", 1, 1 << 30, 0, NULL,
	  "repeat the workload N times", "time" },
	{ "stonewall", "wait_for_previous", OT_BOOL, O(stonewall), 0, "0", 0, 0, 0, NULL,
	  "wait for earlier jobs to end before starting; starts a new group", "jobs" },
	{ "new_group", NULL, OT_BOOL, O(new_group), 0, "0", 0, 0, 0, NULL,
	  "start a new reporting group", "jobs" },
	{ "group_reporting", NULL, OT_BOOL, O(group_reporting), 0, "0", 0, 0, 0, NULL,
	  "report each group as one", "jobs" },
	{ "rate", NULL, OT_RATE, O(rate), 0, NULL, 0, 0, 0, NULL,
	  "cap bandwidth in bytes/s, 'R,W' per direction", "rate" },
	{ "rate_iops", NULL, OT_RATE_IOPS, O(rate_iops), 0, NULL, 0, 0, 0, NULL,
	  "cap IOs per second, 'R,W' per direction", "rate" },
	/* random */
	{ "randseed", NULL, OT_U64, O(randseed), 0, "0", 0, 0, 0, NULL,
	  "seed of the random offsets (0: fio's fixed default)", "random" },
	{ "randrepeat", NULL, OT_BOOL, O(randrepeat), 0, "1", 0, 0, 0, NULL,
	  "the same random sequence on every run", "random" },
	{ "allrandrepeat", NULL, OT_BOOL, O(allrandrepeat), 0, "0", 0, 0, 0, NULL,
	  "randrepeat for every random choice (rwmix, block sizes, data)", "random" },
	{ "norandommap", NULL, OT_BOOL, O(norandommap), 0, "0", 0, 0, 0, NULL,
	  "random offsets may repeat (default: every block once per loop)", "random" },
	{ "random_distribution", NULL, OT_DIST, O(random_distribution), 0, "random", 0, 0, 0,
	  NULL, "random, zipf:THETA or pareto:H", "random" },
	/* statistics */
	{ "percentile_list", NULL, OT_PCT_LIST, O(percentile_list), 0, DEFAULT_PERCENTILES, 0, 0,
	  0, NULL, "completion latency percentiles to report, ':' separated", "statistics" },
	{ "clat_percentiles", NULL, OT_BOOL, O(clat_percentiles), 0, "1", 0, 0, 0, NULL,
	  "report completion latency percentiles", "statistics" },
	{ "lat_percentiles", NULL, OT_BOOL, O(lat_percentiles), 0, "0", 0, 0, 0, NULL,
	  "report total latency percentiles", "statistics" },
	{ "kb_base", NULL, OT_ENUM, O(kb_base), 0, "1024", 0, 0, 0, kb_base_choices,
	  "what k means in sizes", "statistics" },
	{ "clocksource", NULL, OT_ENUM, O(clocksource), 0, "cpu", 0, 0, 0, clock_choices,
	  "what times IOs (for the whole run: clock_gettime if any job asks)", "statistics" },
	/* verify */
	{ "verify", NULL, OT_ENUM, O(verify), 0, "0", 0, 0, 0, verify_choices,
	  "check the data read back", "verify" },
	{ "verify_fatal", NULL, OT_BOOL, O(verify_fatal), 0, "0", 0, 0, 0, NULL,
	  "stop the job at the first bad block", "verify" },
	{ "do_verify", NULL, OT_BOOL, O(do_verify), 0, "1", 0, 0, 0, NULL,
	  "read back and check what a write job wrote", "verify" },
};

const size_t option_count = sizeof(option_table) / sizeof(option_table[0]);

_Static_assert(sizeof(option_table) / sizeof(option_table[0]) <= OPTION_MAX,
	       "OPTION_MAX is too small for the table");
