// SPDX-License-Identifier: GPL-2.0
/* The results log's writer: init, open, append, progress; see results_log.h. */
#include "records/results_log.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/crc32.h"
#include "lib/disk_signature.h"
#include "records/results_log_disk.h"

/*
 * O_DSYNC: each write is on the medium when it returns. O_DIRECT where the
 * device takes it keeps the page cache (and the kernel under test's
 * writeback) out of the way; tmpfs and some filesystems refuse it.
 */
static int open_durable(const char *path, bool *direct)
{
	int fd = open(path, O_RDWR | O_DSYNC | O_DIRECT | O_CLOEXEC);

	*direct = fd >= 0;
	if (fd < 0 && errno == EINVAL)
		fd = open(path, O_RDWR | O_DSYNC | O_CLOEXEC);
	return fd;
}

static int write_full(int fd, const void *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n =
			pwrite(fd, (const uint8_t *)buf + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENOSPC;
		done += (size_t)n;
	}
	return 0;
}

/* Logical block size and size in bytes; lbs 0 for a regular file. */
static int device_geometry(int fd, uint32_t *lbs, uint64_t *size, bool *is_dev)
{
	struct stat st;
	off_t end;

	if (fstat(fd, &st))
		return -errno;
	*is_dev = S_ISBLK(st.st_mode);
	*lbs = 0;
	if (*is_dev) {
		int l;

		if (ioctl(fd, BLKSSZGET, &l))
			return -errno;
		*lbs = (uint32_t)l;
	} else if (!S_ISREG(st.st_mode)) {
		return -ENOTBLK;
	}
	end = lseek(fd, 0, SEEK_END);
	if (end < 0)
		return -errno;
	*size = (uint64_t)end;
	return 0;
}

/* Distinct for every initialisation, even before the kernel's entropy is ready. */
static uint64_t new_log_id(void)
{
	struct timespec rt, mono;
	uint64_t id = 0;

	if (getrandom(&id, sizeof(id), GRND_NONBLOCK) != sizeof(id))
		id = 0;
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	id ^= (uint64_t)rt.tv_sec * 1000000007ull ^ (uint64_t)rt.tv_nsec << 20 ^
	      (uint64_t)mono.tv_nsec * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid() << 40;
	return id ? id : 1;
}

static bool run_id_ok(const char *run_id)
{
	size_t n = strlen(run_id);

	if (n == 0 || n > RLOG_RUN_ID_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (run_id[i] <= ' ' || run_id[i] > '~')
			return false;
	return true;
}

/* The first bytes of the device, read without O_DIRECT, for disk_signature_find. */
static int read_start(const char *path, uint8_t *buf, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t done = 0;

	if (fd < 0)
		return -errno;
	while (done < *len) {
		ssize_t n = pread(fd, buf + done, *len - done, (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	close(fd);
	*len = done;
	return 0;
}

static int check_signatures(const char *path, unsigned flags, char *err, size_t errlen)
{
	uint8_t *buf = malloc(DISK_SIGNATURE_SPAN);
	size_t len = DISK_SIGNATURE_SPAN;
	const char *found;
	int r;

	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	r = read_start(path, buf, &len);
	if (r) {
		snprintf(err, errlen, "%s: %s", path, strerror(-r));
		free(buf);
		return -1;
	}
	found = disk_signature_find(buf, len);
	free(buf);
	if (found && !(flags & RLOG_INIT_OVERWRITE)) {
		snprintf(err, errlen,
			 "%s holds a %s: refusing to make it a results log "
			 "(tell it to overwrite if it may be destroyed)",
			 path, found);
		return -1;
	}
	return 0;
}

int rlog_init(const char *path, const char *run_id, uint32_t block_size, unsigned flags, char *err,
	      size_t errlen)
{
	struct rlog_info info = {.version = RLOG_VERSION};
	struct rlog_progress idle = {.generation = 1, .state = RLOG_IDLE};
	uint32_t lbs;
	uint64_t size;
	bool is_dev, direct;
	uint8_t *blocks = NULL;
	size_t zeroed;
	int fd, r;

	if (!run_id_ok(run_id)) {
		snprintf(err, errlen, "%s: run id \"%s\": 1-%d printable characters, no blanks",
			 path, run_id, RLOG_RUN_ID_MAX);
		return -1;
	}
	if (check_signatures(path, flags, err, errlen))
		return -1;
	fd = open_durable(path, &direct);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	r = device_geometry(fd, &lbs, &size, &is_dev);
	if (r) {
		snprintf(err, errlen, "%s: %s", path, strerror(-r));
		goto fail;
	}
	if (!block_size)
		block_size = lbs > RLOG_BLOCK_SIZE ? lbs : RLOG_BLOCK_SIZE;
	if (block_size < RLOG_BLOCK_MIN || block_size > RLOG_BLOCK_MAX ||
	    (block_size & (block_size - 1)) || block_size < lbs) {
		snprintf(err, errlen,
			 "%s: block size %u: a power of two from %u to %u, at least "
			 "the device's %u",
			 path, block_size, RLOG_BLOCK_MIN, RLOG_BLOCK_MAX, lbs);
		goto fail;
	}
	info.data_start = rlog_data_start(block_size);
	if (is_dev && size < (info.data_start + 1) * (uint64_t)block_size) {
		snprintf(err, errlen, "%s: %llu bytes is too small for a results log", path,
			 (unsigned long long)size);
		goto fail;
	}
	info.block_size = block_size;
	info.log_id = new_log_id();
	info.created_unix = (uint64_t)time(NULL);
	snprintf(info.run_id, sizeof(info.run_id), "%s", run_id);
	/* every block up to and including the first record block */
	zeroed = (size_t)(info.data_start + 1) * block_size;
	if (posix_memalign((void **)&blocks, block_size, zeroed)) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto fail;
	}
	/*
	 * Progress slots, the run-info area and the first data block first,
	 * the header last: an initialisation cut short leaves no header,
	 * never a header over someone else's data blocks.
	 */
	memset(blocks, 0, zeroed);
	rlog_encode_progress(blocks + (1 + idle.generation % 2) * block_size, info.log_id, &idle);
	r = write_full(fd, blocks + block_size, zeroed - block_size, block_size);
	if (!r) {
		rlog_encode_header(blocks, &info);
		r = write_full(fd, blocks, block_size, 0);
	}
	if (r) {
		snprintf(err, errlen, "%s: writing the log header: %s", path, strerror(-r));
		goto fail;
	}
	free(blocks);
	close(fd);
	return 0;
fail:
	free(blocks);
	close(fd);
	return -1;
}

int rlog_open(struct results_log *log, const char *path, rlog_visit_fn fn, void *ctx, char *err,
	      size_t errlen)
{
	struct rlog_scan_result res;
	struct rlog_reader reader;
	char why[RLOG_ERR_LEN];
	uint32_t lbs;
	uint64_t size;
	bool is_dev;
	int r;

	memset(log, 0, sizeof(*log));
	snprintf(log->path, sizeof(log->path), "%s", path);
	log->fd = open_durable(path, &log->direct);
	if (log->fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	r = device_geometry(log->fd, &lbs, &size, &is_dev);
	if (!r)
		r = rlog_reader_fd(&reader, &log->fd, RLOG_BLOCK_SIZE);
	if (r) {
		snprintf(err, errlen, "%s: %s", path, strerror(-r));
		goto fail;
	}
	if (rlog_scan(&reader, fn, ctx, &res, why, sizeof(why))) {
		snprintf(err, errlen, "%s: %s", path, why);
		goto fail;
	}
	if (res.info.block_size < lbs) {
		snprintf(err, errlen, "%s: log block size %u is below the device's %u", path,
			 res.info.block_size, lbs);
		goto fail;
	}
	log->info = res.info;
	log->last_seq = res.last_seq;
	log->end_block = res.end_block;
	log->dev_blocks = is_dev ? size / res.info.block_size : 0;
	log->has_progress = res.has_progress;
	log->progress = res.progress;
	return 0;
fail:
	close(log->fd);
	log->fd = -1;
	return -1;
}

/* log->buf holds at least len bytes, aligned for O_DIRECT. */
static int reserve(struct results_log *log, size_t len)
{
	void *p;

	if (len <= log->buf_len)
		return 0;
	if (posix_memalign(&p, log->info.block_size, len))
		return -1;
	free(log->buf);
	log->buf = p;
	log->buf_len = len;
	return 0;
}

int rlog_append(struct results_log *log, const struct rlog_entry *e, char *err, size_t errlen)
{
	uint32_t bs = log->info.block_size;
	uint64_t nb;
	size_t bytes;
	int r;

	if (e->len == 0 || e->len > RLOG_RECORD_MAX) {
		snprintf(err, errlen, "%s: record %u: %zu bytes (1 to %u)", log->path, e->seq,
			 e->len, RLOG_RECORD_MAX);
		return -1;
	}
	if (e->seq <= log->last_seq) {
		snprintf(err, errlen, "%s: record %u: seq must be above %u, the log's last",
			 log->path, e->seq, log->last_seq);
		return -1;
	}
	nb = rlog_record_blocks(e->len, bs);
	if (log->dev_blocks && log->end_block + nb > log->dev_blocks) {
		snprintf(err, errlen,
			 "%s: record %u: log full (%llu of %llu blocks used, %llu "
			 "needed)",
			 log->path, e->seq, (unsigned long long)log->end_block,
			 (unsigned long long)log->dev_blocks, (unsigned long long)nb);
		return -1;
	}
	bytes = (size_t)(nb * bs);
	if (reserve(log, bytes)) {
		snprintf(err, errlen, "%s: record %u: out of memory", log->path, e->seq);
		return -1;
	}
	rlog_encode_record_header(log->buf, log->info.log_id, e, crc32_ieee(0, e->data, e->len),
				  (uint64_t)time(NULL));
	memcpy((uint8_t *)log->buf + RLOG_RECORD_HEADER, e->data, e->len);
	memset((uint8_t *)log->buf + RLOG_RECORD_HEADER + e->len, 0,
	       bytes - RLOG_RECORD_HEADER - e->len);
	r = write_full(log->fd, log->buf, bytes, log->end_block * bs);
	if (r) {
		snprintf(err, errlen, "%s: record %u at block %llu: %s", log->path, e->seq,
			 (unsigned long long)log->end_block, strerror(-r));
		return -1;
	}
	log->end_block += nb;
	log->last_seq = e->seq;
	return 0;
}

int rlog_progress_write(struct results_log *log, struct rlog_progress *p, char *err, size_t errlen)
{
	uint32_t bs = log->info.block_size;
	int r;

	p->generation = log->has_progress ? log->progress.generation + 1 : 1;
	if (!p->time_unix)
		p->time_unix = (uint64_t)time(NULL);
	if (reserve(log, bs)) {
		snprintf(err, errlen, "%s: progress: out of memory", log->path);
		return -1;
	}
	memset(log->buf, 0, bs);
	rlog_encode_progress(log->buf, log->info.log_id, p);
	r = write_full(log->fd, log->buf, bs, (1 + p->generation % 2) * (uint64_t)bs);
	if (r) {
		snprintf(err, errlen, "%s: writing progress: %s", log->path, strerror(-r));
		return -1;
	}
	log->progress = *p;
	log->has_progress = true;
	return 0;
}

/* The run-info area's place, or -1 when the log has none. */
static int run_info_area(const struct results_log *log, uint64_t *off, char *err, size_t errlen)
{
	if (log->info.data_start < rlog_data_start(log->info.block_size)) {
		snprintf(err, errlen,
			 "%s: the results log has no room for a run description (made by an "
			 "older iomatrix): initialise it again",
			 log->path);
		return -1;
	}
	*off = (uint64_t)RLOG_DATA_START * log->info.block_size;
	return 0;
}

int rlog_run_info_write(struct results_log *log, const void *text, size_t len, char *err,
			size_t errlen)
{
	uint64_t off;
	uint8_t *b;
	int r;

	if (run_info_area(log, &off, err, errlen))
		return -1;
	if (len > RLOG_RUN_INFO_MAX) {
		snprintf(err, errlen, "%s: run description of %zu bytes (at most %d)", log->path,
			 len, RLOG_RUN_INFO_MAX);
		return -1;
	}
	if (reserve(log, RLOG_RUN_INFO_BYTES)) {
		snprintf(err, errlen, "%s: run description: out of memory", log->path);
		return -1;
	}
	b = log->buf;
	memset(b, 0, RLOG_RUN_INFO_BYTES);
	memcpy(b, I_MAGIC, 8);
	put_le32(b + I_OFF_VERSION, RLOG_VERSION);
	put_le32(b + I_OFF_LENGTH, (uint32_t)len);
	put_le64(b + I_OFF_LOG_ID, log->info.log_id);
	memcpy(b + RLOG_RUN_INFO_HEADER, text, len);
	put_le32(b + I_OFF_TCRC, crc32_ieee(0, b + RLOG_RUN_INFO_HEADER, len));
	put_le32(b + I_OFF_HCRC, crc32_ieee(0, b, I_OFF_HCRC));
	r = write_full(log->fd, b, RLOG_RUN_INFO_BYTES, off);
	if (r) {
		snprintf(err, errlen, "%s: writing the run description: %s", log->path,
			 strerror(-r));
		return -1;
	}
	return 0;
}

int rlog_run_info_read(struct results_log *log, char *buf, size_t buflen, size_t *len, char *err,
		       size_t errlen)
{
	struct rlog_reader reader;
	uint64_t off;
	long n;
	int r;

	*len = 0;
	buf[0] = '\0';
	if (run_info_area(log, &off, err, errlen))
		return 0;
	if (reserve(log, RLOG_RUN_INFO_BYTES)) {
		snprintf(err, errlen, "%s: run description: out of memory", log->path);
		return -1;
	}
	r = rlog_reader_fd(&reader, &log->fd, log->info.block_size);
	if (!r)
		r = reader.read_at(reader.ctx, log->buf, RLOG_RUN_INFO_BYTES, off);
	if (r) {
		snprintf(err, errlen, "%s: reading the run description: %s", log->path,
			 strerror(-r));
		return -1;
	}
	n = rlog_decode_run_info(log->buf, RLOG_RUN_INFO_BYTES, log->info.log_id);
	if (n < 0 || (size_t)n >= buflen)
		return 0;
	memcpy(buf, (uint8_t *)log->buf + RLOG_RUN_INFO_HEADER, (size_t)n);
	buf[n] = '\0';
	*len = (size_t)n;
	return 1;
}

void rlog_close(struct results_log *log)
{
	if (log->fd >= 0)
		close(log->fd);
	log->fd = -1;
	free(log->buf);
	log->buf = NULL;
	log->buf_len = 0;
}
