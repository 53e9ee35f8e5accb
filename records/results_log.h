/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The results log: an append-only log of records on a disk or partition of
 * its own (never one under test), written durably after each cell so that a
 * kernel that dies loses at most the cell it died in. docs/records.md
 * ("Results log on disk") is the specification; in short, in blocks of
 * block_size bytes, all integers little-endian:
 *
 *   block 0       header: magic "IOMXLOG\0", version, block size, log id
 *                 (random, per initialisation), created time, first data
 *                 block, run id, CRC
 *   blocks 1, 2   progress slots, written alternately ("cell i started at t")
 *   blocks 3...   the run's description (8 KiB: matrix, kernel, plan, disks),
 *                 written once when the run starts, for the boots after
 *   then          records: a 64-byte record header (magic "IOMXREC\0", log id,
 *                 seq, cell, length, payload CRC, header CRC) then the payload,
 *                 padded with zeros to whole blocks; one after another
 *
 * A record counts when its header and payload CRCs hold, it carries this
 * log's id and its seq is above the one before. The scanner stops at the
 * end of the records (a torn last write loses only that record) and steps
 * over a damaged one in the middle, reporting it.
 *
 * Writers use one fd opened O_DIRECT|O_DSYNC where the device allows it
 * (O_DSYNC alone where not, e.g. tmpfs): a record is on the medium when
 * rlog_append returns.
 */
#ifndef IOMATRIX_RECORDS_RESULTS_LOG_H
#define IOMATRIX_RECORDS_RESULTS_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RLOG_VERSION	     1
#define RLOG_BLOCK_SIZE	     4096 /* default and minimum useful */
#define RLOG_BLOCK_MIN	     512
#define RLOG_BLOCK_MAX	     65536
#define RLOG_RECORD_MAX	     (8u << 20) /* bytes of one record */
#define RLOG_RECORD_HEADER   64		/* bytes before the payload */
#define RLOG_RUN_ID_MAX	     63		/* characters */
#define RLOG_NOTE_MAX	     127	/* characters of a progress note */
#define RLOG_DATA_START	     3		/* the first block after the progress slots */
#define RLOG_RUN_INFO_BYTES  8192	/* the run-info area from RLOG_DATA_START */
#define RLOG_RUN_INFO_HEADER 32
#define RLOG_RUN_INFO_MAX    (RLOG_RUN_INFO_BYTES - RLOG_RUN_INFO_HEADER) /* text bytes */
#define RLOG_ERR_LEN	     256

/* What the header block says. */
struct rlog_info {
	uint32_t version;
	uint32_t block_size;
	uint64_t log_id;
	uint64_t created_unix;
	uint64_t data_start; /* block */
	char run_id[RLOG_RUN_ID_MAX + 1];
};

enum rlog_progress_state {
	RLOG_IDLE = 0, /* no cell running: just initialised, or between cells */
	RLOG_CELL = 1, /* cell_index/repeat started; its record gets seq */
	RLOG_DONE = 2, /* the matrix finished */
};

/* The runner's note of where it is, for the boot after a crash. */
struct rlog_progress {
	uint64_t generation; /* set by rlog_progress_write */
	uint64_t time_unix;
	uint32_t state; /* enum rlog_progress_state */
	uint32_t cell_index;
	uint32_t cell_count;
	uint32_t repeat;
	uint32_t seq;		      /* the seq the running cell's record will get */
	uint32_t boots;		      /* boots of this run so far, counted by the runner */
	char note[RLOG_NOTE_MAX + 1]; /* e.g. "mkfs", "workload" */
};

#define RLOG_NO_CELL UINT32_MAX /* cell_index/repeat not given */

/* One record as the scanner meets it. */
struct rlog_item {
	uint32_t seq;
	uint32_t cell_index; /* as given to rlog_append, or RLOG_NO_CELL */
	uint32_t repeat;
	const void *data; /* NULL when damaged */
	size_t len;	  /* from the record header (also when damaged) */
	uint64_t block;	  /* where it starts */
	uint64_t written_unix;
	const char *damage; /* NULL when intact, else one line */
};

/* Called for every record, intact or damaged, in log order; nonzero stops the scan. */
typedef int (*rlog_visit_fn)(void *ctx, const struct rlog_item *item);

struct rlog_scan_result {
	struct rlog_info info;
	uint32_t records;   /* intact */
	uint32_t damaged;   /* header found, payload not intact, or blocks unreadable */
	uint32_t last_seq;  /* highest intact seq, 0 when none */
	uint64_t end_block; /* after the last intact record: where the next goes */
	bool has_progress;
	struct rlog_progress progress;
};

/* Random access to a device, a file or a buffer. size: bytes readable. */
struct rlog_reader {
	int (*read_at)(void *ctx, void *buf, size_t len, uint64_t off); /* 0 or -errno */
	void *ctx;
	uint64_t size;
	size_t align; /* buffers and offsets multiple of this (O_DIRECT), or 0 */
};

/*
 * Reads the header, the progress slots and every record. Returns 0, or -1
 * with the cause in err (no header, a damaged one, an unreadable device).
 */
int rlog_scan(const struct rlog_reader *r, rlog_visit_fn fn, void *ctx,
	      struct rlog_scan_result *res, char *err, size_t errlen);
int rlog_scan_buffer(const void *buf, size_t len, rlog_visit_fn fn, void *ctx,
		     struct rlog_scan_result *res, char *err, size_t errlen);
/* Opens path read-only; `name` of the device in messages is path. */
int rlog_scan_path(const char *path, rlog_visit_fn fn, void *ctx, struct rlog_scan_result *res,
		   char *err, size_t errlen);

/* True when buf (the first bytes of a device) starts with a valid log header. */
bool rlog_is_log(const void *buf, size_t len);

enum rlog_init_flags {
	RLOG_INIT_OVERWRITE = 1, /* even over a partition table, filesystem or older log */
};

/*
 * Makes path (a device, or a file that is created) a new, empty results log
 * for run_id. Refuses a device whose first blocks hold a known signature
 * (disk_signature.h), an earlier results log included, unless
 * RLOG_INIT_OVERWRITE. block_size 0 picks RLOG_BLOCK_SIZE, or the device's
 * logical block size when larger.
 */
int rlog_init(const char *path, const char *run_id, uint32_t block_size, unsigned flags, char *err,
	      size_t errlen);

/* An open log: the writer's side. */
struct results_log {
	int fd;
	bool direct; /* O_DIRECT took */
	char path[256];
	struct rlog_info info;
	uint32_t last_seq;
	uint64_t end_block;
	uint64_t dev_blocks; /* 0: a regular file, grows */
	bool has_progress;
	struct rlog_progress progress; /* the latest slot */
	void *buf;		       /* aligned I/O buffer */
	size_t buf_len;
};

/*
 * Opens an initialised log for appending: scans it (fn sees every record,
 * so the caller learns which cells finished; may be NULL) and positions
 * after the last intact record, over a torn one. Refuses a device without
 * a log header.
 */
int rlog_open(struct results_log *log, const char *path, rlog_visit_fn fn, void *ctx, char *err,
	      size_t errlen);

/* One record to append. The cell is carried beside the record so that the
 * runner, after a crash, learns which cells finished without parsing JSON. */
struct rlog_entry {
	uint32_t seq;
	uint32_t cell_index; /* or RLOG_NO_CELL */
	uint32_t repeat;     /* or RLOG_NO_CELL */
	const void *data;
	size_t len; /* 1..RLOG_RECORD_MAX */
};

/*
 * Appends one record durably: on the medium when this returns 0. seq must
 * be above every seq in the log (records are numbered from 1 and the next
 * is log->last_seq + 1).
 */
int rlog_append(struct results_log *log, const struct rlog_entry *e, char *err, size_t errlen);

/*
 * Writes the progress note durably into the older of the two slots (a torn
 * write leaves the other); sets p->generation. The latest is log->progress.
 */
int rlog_progress_write(struct results_log *log, struct rlog_progress *p, char *err, size_t errlen);

/*
 * The run's description: text (any bytes up to RLOG_RUN_INFO_MAX; the
 * runner writes key = value lines) that says what run the log holds, so a
 * later boot can tell whether it continues the same one. Written once,
 * durably, before the first record; logs made by rlog_init have room for it
 * (data_start past the area), older ones do not (-1, err says so).
 */
int rlog_run_info_write(struct results_log *log, const void *text, size_t len, char *err,
			size_t errlen);

/*
 * Reads it into buf (NUL-terminated, len in *len): 1 when there is one, 0
 * when none was written (or the log has no room for one), -1 when the
 * device cannot be read.
 */
int rlog_run_info_read(struct results_log *log, char *buf, size_t buflen, size_t *len, char *err,
		       size_t errlen);

/* The area's bytes (RLOG_RUN_INFO_HEADER + text) checked: the text's length, or -1. */
long rlog_decode_run_info(const uint8_t *area, size_t area_len, uint64_t log_id);

void rlog_close(struct results_log *log);

#endif
