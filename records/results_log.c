// SPDX-License-Identifier: GPL-2.0
/* The results log's structures and its scanner; see results_log.h. */
#include "records/results_log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "lib/crc32.h"
#include "records/results_log_disk.h"

/* The header is read with this much, aligned for O_DIRECT on 512 and 4K devices. */
#define FIRST_READ 4096

void rlog_encode_header(uint8_t *b, const struct rlog_info *info)
{
	memset(b, 0, H_SIZE);
	memcpy(b, H_MAGIC, 8);
	put_le32(b + H_OFF_VERSION, RLOG_VERSION);
	put_le32(b + H_OFF_BLOCK, info->block_size);
	put_le64(b + H_OFF_LOG_ID, info->log_id);
	put_le64(b + H_OFF_CREATED, info->created_unix);
	put_le64(b + H_OFF_DATA, info->data_start);
	memcpy(b + H_OFF_RUN_ID, info->run_id, strnlen(info->run_id, RLOG_RUN_ID_MAX));
	put_le32(b + H_OFF_CRC, crc32_ieee(0, b, H_OFF_CRC));
}

static int rlog_decode_header(const uint8_t *b, size_t len, struct rlog_info *info, char *err,
		       size_t errlen)
{
	uint32_t bs;

	if (len < H_SIZE || memcmp(b, H_MAGIC, 8)) {
		snprintf(err, errlen, "no results log header (magic IOMXLOG) in block 0");
		return -1;
	}
	if (get_le32(b + H_OFF_CRC) != crc32_ieee(0, b, H_OFF_CRC)) {
		snprintf(err, errlen, "results log header damaged (CRC mismatch)");
		return -1;
	}
	info->version = get_le32(b + H_OFF_VERSION);
	if (info->version != RLOG_VERSION) {
		snprintf(err, errlen, "results log version %u, this reader knows %u", info->version,
			 RLOG_VERSION);
		return -1;
	}
	bs = get_le32(b + H_OFF_BLOCK);
	if (bs < RLOG_BLOCK_MIN || bs > RLOG_BLOCK_MAX || (bs & (bs - 1))) {
		snprintf(err, errlen, "results log header: block size %u invalid", bs);
		return -1;
	}
	info->block_size = bs;
	info->log_id = get_le64(b + H_OFF_LOG_ID);
	info->created_unix = get_le64(b + H_OFF_CREATED);
	info->data_start = get_le64(b + H_OFF_DATA);
	if (info->data_start < RLOG_DATA_START || info->data_start > (1u << 20)) {
		snprintf(err, errlen, "results log header: first data block %llu invalid",
			 (unsigned long long)info->data_start);
		return -1;
	}
	memcpy(info->run_id, b + H_OFF_RUN_ID, RLOG_RUN_ID_MAX);
	info->run_id[RLOG_RUN_ID_MAX] = '\0';
	return 0;
}

bool rlog_is_log(const void *buf, size_t len)
{
	struct rlog_info info;
	char err[RLOG_ERR_LEN];

	return !rlog_decode_header(buf, len, &info, err, sizeof(err));
}

void rlog_encode_progress(uint8_t *b, uint64_t log_id, const struct rlog_progress *p)
{
	memset(b, 0, P_SIZE);
	memcpy(b, P_MAGIC, 8);
	put_le32(b + P_OFF_VERSION, RLOG_VERSION);
	put_le32(b + P_OFF_STATE, p->state);
	put_le64(b + P_OFF_LOG_ID, log_id);
	put_le64(b + P_OFF_GEN, p->generation);
	put_le64(b + P_OFF_TIME, p->time_unix);
	put_le32(b + P_OFF_CELL, p->cell_index);
	put_le32(b + P_OFF_COUNT, p->cell_count);
	put_le32(b + P_OFF_REPEAT, p->repeat);
	put_le32(b + P_OFF_SEQ, p->seq);
	put_le32(b + P_OFF_BOOTS, p->boots);
	memcpy(b + P_OFF_NOTE, p->note, strnlen(p->note, RLOG_NOTE_MAX));
	put_le32(b + P_OFF_CRC, crc32_ieee(0, b, P_OFF_CRC));
}

static bool rlog_decode_progress(const uint8_t *b, uint64_t log_id, struct rlog_progress *p)
{
	if (memcmp(b, P_MAGIC, 8) || get_le32(b + P_OFF_CRC) != crc32_ieee(0, b, P_OFF_CRC) ||
	    get_le32(b + P_OFF_VERSION) != RLOG_VERSION || get_le64(b + P_OFF_LOG_ID) != log_id)
		return false;
	p->state = get_le32(b + P_OFF_STATE);
	p->generation = get_le64(b + P_OFF_GEN);
	p->time_unix = get_le64(b + P_OFF_TIME);
	p->cell_index = get_le32(b + P_OFF_CELL);
	p->cell_count = get_le32(b + P_OFF_COUNT);
	p->repeat = get_le32(b + P_OFF_REPEAT);
	p->seq = get_le32(b + P_OFF_SEQ);
	p->boots = get_le32(b + P_OFF_BOOTS);
	memcpy(p->note, b + P_OFF_NOTE, RLOG_NOTE_MAX);
	p->note[RLOG_NOTE_MAX] = '\0';
	return true;
}

void rlog_encode_record_header(uint8_t *b, uint64_t log_id, const struct rlog_entry *e,
			       uint32_t payload_crc, uint64_t written_unix)
{
	memset(b, 0, RLOG_RECORD_HEADER);
	memcpy(b, R_MAGIC, 8);
	put_le32(b + R_OFF_VERSION, RLOG_VERSION);
	put_le32(b + R_OFF_HSIZE, RLOG_RECORD_HEADER);
	put_le64(b + R_OFF_LOG_ID, log_id);
	put_le32(b + R_OFF_SEQ, e->seq);
	put_le64(b + R_OFF_LENGTH, e->len);
	put_le32(b + R_OFF_CRC, payload_crc);
	put_le32(b + R_OFF_CELL, e->cell_index);
	put_le64(b + R_OFF_WRITTEN, written_unix);
	put_le32(b + R_OFF_REPEAT, e->repeat);
	put_le32(b + R_OFF_HCRC, crc32_ieee(0, b, R_OFF_HCRC));
}

long rlog_decode_run_info(const uint8_t *b, size_t len, uint64_t log_id)
{
	uint32_t n;

	if (len < RLOG_RUN_INFO_HEADER || memcmp(b, I_MAGIC, 8) ||
	    get_le32(b + I_OFF_HCRC) != crc32_ieee(0, b, I_OFF_HCRC) ||
	    get_le32(b + I_OFF_VERSION) != RLOG_VERSION || get_le64(b + I_OFF_LOG_ID) != log_id)
		return -1;
	n = get_le32(b + I_OFF_LENGTH);
	if (n > RLOG_RUN_INFO_MAX || n > len - RLOG_RUN_INFO_HEADER ||
	    crc32_ieee(0, b + RLOG_RUN_INFO_HEADER, n) != get_le32(b + I_OFF_TCRC))
		return -1;
	return (long)n;
}

/* A record header of this log with a seq above `after`: fills item, else false. */
static bool record_header(const uint8_t *b, const struct rlog_info *info, uint32_t after,
			  struct rlog_item *item, uint32_t *payload_crc)
{
	uint64_t len;

	if (memcmp(b, R_MAGIC, 8) || get_le32(b + R_OFF_HCRC) != crc32_ieee(0, b, R_OFF_HCRC) ||
	    get_le32(b + R_OFF_VERSION) != RLOG_VERSION ||
	    get_le32(b + R_OFF_HSIZE) != RLOG_RECORD_HEADER ||
	    get_le64(b + R_OFF_LOG_ID) != info->log_id)
		return false;
	len = get_le64(b + R_OFF_LENGTH);
	if (len == 0 || len > RLOG_RECORD_MAX || get_le32(b + R_OFF_SEQ) <= after)
		return false;
	memset(item, 0, sizeof(*item));
	item->seq = get_le32(b + R_OFF_SEQ);
	item->cell_index = get_le32(b + R_OFF_CELL);
	item->repeat = get_le32(b + R_OFF_REPEAT);
	item->len = (size_t)len;
	item->written_unix = get_le64(b + R_OFF_WRITTEN);
	*payload_crc = get_le32(b + R_OFF_CRC);
	return true;
}

struct scan {
	const struct rlog_reader *r;
	const struct rlog_info *info;
	uint8_t *buf;
	size_t cap;
	uint32_t bs;
	uint64_t blocks; /* whole blocks the reader holds */
	char *err;
	size_t errlen;
};

/* Reads n blocks from block b into s->buf. */
static int read_blocks(struct scan *s, uint64_t b, uint64_t n)
{
	size_t len = (size_t)(n * s->bs);
	int r;

	if (len > s->cap) {
		size_t align = s->r->align > 64 ? s->r->align : 64;
		void *p;

		if (posix_memalign(&p, align, len)) {
			snprintf(s->err, s->errlen, "out of memory for %zu bytes", len);
			return -1;
		}
		free(s->buf);
		s->buf = p;
		s->cap = len;
	}
	r = s->r->read_at(s->r->ctx, s->buf, len, b * s->bs);
	if (r) {
		snprintf(s->err, s->errlen, "reading blocks %llu-%llu: %s", (unsigned long long)b,
			 (unsigned long long)(b + n - 1), strerror(-r));
		return -1;
	}
	return 0;
}

/*
 * After a block that is no record header: the next record header of this
 * log with a seq above `after`, no further than one largest record away
 * (anything further is past the end of the log). Sets *found to its block,
 * or to 0 when there is none.
 */
static int resync(struct scan *s, uint64_t from, uint32_t after, uint64_t *found)
{
	uint64_t limit = from + rlog_record_blocks(RLOG_RECORD_MAX, s->bs);
	const uint64_t step = 64;

	*found = 0;
	if (limit > s->blocks)
		limit = s->blocks;
	for (uint64_t b = from; b < limit; b += step) {
		uint64_t n = limit - b < step ? limit - b : step;

		if (read_blocks(s, b, n))
			return -1;
		for (uint64_t i = 0; i < n; i++) {
			struct rlog_item item;
			uint32_t crc;

			if (record_header(s->buf + i * s->bs, s->info, after, &item, &crc)) {
				*found = b + i;
				return 0;
			}
		}
	}
	return 0;
}

static void read_progress(struct scan *s, struct rlog_scan_result *res)
{
	for (uint64_t b = 1; b <= 2 && b < s->blocks; b++) {
		struct rlog_progress p;

		if (read_blocks(s, b, 1) || !rlog_decode_progress(s->buf, s->info->log_id, &p))
			continue;
		if (!res->has_progress || p.generation > res->progress.generation) {
			res->progress = p;
			res->has_progress = true;
		}
	}
}

static int visit(rlog_visit_fn fn, void *ctx, const struct rlog_item *item, struct scan *s)
{
	if (fn && fn(ctx, item)) {
		snprintf(s->err, s->errlen, "stopped by the caller at record %u", item->seq);
		return -1;
	}
	return 0;
}

/* The seqs between two intact ones whose blocks could not be read as records. */
static int report_lost(struct scan *s, rlog_visit_fn fn, void *ctx, uint32_t from, uint32_t to,
		       uint64_t block, struct rlog_scan_result *res)
{
	for (uint32_t seq = from; seq < to && seq - from < 65536; seq++) {
		struct rlog_item item = {.seq = seq,
					 .cell_index = RLOG_NO_CELL,
					 .repeat = RLOG_NO_CELL,
					 .block = block,
					 .damage = "record header unreadable"};

		res->damaged++;
		if (visit(fn, ctx, &item, s))
			return -1;
	}
	return 0;
}

static int scan_records(struct scan *s, rlog_visit_fn fn, void *ctx, struct rlog_scan_result *res)
{
	uint64_t pos = s->info->data_start;
	uint32_t seen = 0; /* highest seq with a valid header, intact or not */

	res->end_block = pos;
	while (pos < s->blocks) {
		struct rlog_item item;
		uint32_t crc;
		uint64_t nb, next;

		if (read_blocks(s, pos, 1))
			return -1;
		if (!record_header(s->buf, s->info, seen, &item, &crc)) {
			if (resync(s, pos + 1, seen, &next))
				return -1;
			if (!next)
				break;
			if (read_blocks(s, next, 1) ||
			    !record_header(s->buf, s->info, seen, &item, &crc))
				return -1;
			if (report_lost(s, fn, ctx, seen + 1, item.seq, pos, res))
				return -1;
			pos = next;
		}
		item.block = pos;
		nb = rlog_record_blocks(item.len, s->bs);
		if (pos + nb > s->blocks) {
			item.damage = "cut off by the end of the device";
			res->damaged++;
			return visit(fn, ctx, &item, s);
		}
		if (read_blocks(s, pos, nb))
			return -1;
		if (crc32_ieee(0, s->buf + RLOG_RECORD_HEADER, item.len) == crc) {
			item.data = s->buf + RLOG_RECORD_HEADER;
			res->records++;
			res->last_seq = item.seq;
			res->end_block = pos + nb;
		} else {
			item.damage = "payload CRC mismatch (a torn or corrupted write)";
			res->damaged++;
		}
		if (visit(fn, ctx, &item, s))
			return -1;
		seen = item.seq;
		pos += nb;
	}
	return 0;
}

int rlog_scan(const struct rlog_reader *r, rlog_visit_fn fn, void *ctx,
	      struct rlog_scan_result *res, char *err, size_t errlen)
{
	struct scan s = {.r = r, .info = &res->info, .err = err, .errlen = errlen};
	int ret = -1;

	memset(res, 0, sizeof(*res));
	s.bs = (uint32_t)(r->size < FIRST_READ ? r->size : FIRST_READ);
	if (s.bs < H_SIZE) {
		snprintf(err, errlen, "%llu bytes: too small for a results log",
			 (unsigned long long)r->size);
		return -1;
	}
	s.blocks = 1;
	if (read_blocks(&s, 0, 1) || rlog_decode_header(s.buf, s.bs, &res->info, err, errlen))
		goto out;
	s.bs = res->info.block_size;
	s.blocks = r->size / s.bs;
	read_progress(&s, res);
	ret = scan_records(&s, fn, ctx, res);
out:
	free(s.buf);
	return ret;
}

struct mem_reader {
	const uint8_t *p;
	size_t len;
};

static int mem_read_at(void *ctx, void *buf, size_t len, uint64_t off)
{
	struct mem_reader *m = ctx;

	if (off > m->len || len > m->len - off)
		return -EIO;
	memcpy(buf, m->p + off, len);
	return 0;
}

int rlog_scan_buffer(const void *buf, size_t len, rlog_visit_fn fn, void *ctx,
		     struct rlog_scan_result *res, char *err, size_t errlen)
{
	struct mem_reader m = {buf, len};
	struct rlog_reader r = {.read_at = mem_read_at, .ctx = &m, .size = len};

	return rlog_scan(&r, fn, ctx, res, err, errlen);
}

static int fd_read_at(void *ctx, void *buf, size_t len, uint64_t off)
{
	int fd = *(int *)ctx;
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, (uint8_t *)buf + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		done += (size_t)n;
	}
	return 0;
}

int rlog_reader_fd(struct rlog_reader *r, int *fd, size_t align)
{
	off_t size = lseek(*fd, 0, SEEK_END);

	if (size < 0)
		return -errno;
	r->read_at = fd_read_at;
	r->ctx = fd;
	r->size = (uint64_t)size;
	r->align = align;
	return 0;
}

int rlog_scan_path(const char *path, rlog_visit_fn fn, void *ctx, struct rlog_scan_result *res,
		   char *err, size_t errlen)
{
	char why[RLOG_ERR_LEN];
	struct rlog_reader r;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	ret = rlog_reader_fd(&r, &fd, 0);
	if (ret) {
		snprintf(err, errlen, "%s: size: %s", path, strerror(-ret));
		close(fd);
		return -1;
	}
	ret = rlog_scan(&r, fn, ctx, res, why, sizeof(why));
	if (ret)
		snprintf(err, errlen, "%s: %s", path, why);
	close(fd);
	return ret;
}
