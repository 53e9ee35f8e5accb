// SPDX-License-Identifier: GPL-2.0
/*
 * The results log on a file: init, append, re-open, progress, and the
 * damage a crash or a bad medium does (torn last write, a zeroed block in
 * the middle, a wrong header, stale records of an earlier log).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "records/results_log.h"
#include "synth_record.h"

#define NREC 25

static char path[] = "/tmp/iomatrix-test-rlog-XXXXXX";
static char *recs[NREC + 2];
static size_t rec_len[NREC + 2];
static char err[RLOG_ERR_LEN];

struct seen {
	uint32_t n, ndamaged;
	uint32_t seq[256], damaged[256];
	uint32_t cell[256];
	uint64_t block[256];
	bool wrong;
};

static int see(void *ctx, const struct rlog_item *item)
{
	struct seen *s = ctx;

	if (!item->damage) {
		if (s->n < 256) {
			s->seq[s->n] = item->seq;
			s->cell[s->n] = item->cell_index;
			s->block[s->n] = item->block;
			s->n++;
		}
		if (item->seq < 1 || item->seq > NREC + 1 || item->len != rec_len[item->seq] ||
		    memcmp(item->data, recs[item->seq], item->len))
			s->wrong = true;
	} else if (s->ndamaged < 256) {
		s->damaged[s->ndamaged++] = item->seq;
	}
	return 0;
}

static int scan(struct seen *s, struct rlog_scan_result *res)
{
	memset(s, 0, sizeof(*s));
	return rlog_scan_path(path, see, s, res, err, sizeof(err));
}

static void fresh_file(size_t size)
{
	int fd = open(path, O_RDWR | O_TRUNC);

	CHECK(fd >= 0 && !ftruncate(fd, (off_t)size));
	close(fd);
}

static void patch(uint64_t off, const void *bytes, size_t n)
{
	int fd = open(path, O_RDWR);

	CHECK(fd >= 0 && pwrite(fd, bytes, n, (off_t)off) == (ssize_t)n);
	close(fd);
}

static void zero_blocks(uint64_t block, uint64_t n)
{
	char *z = calloc(n, RLOG_BLOCK_SIZE);

	patch(block * RLOG_BLOCK_SIZE, z, n * RLOG_BLOCK_SIZE);
	free(z);
}

static int append(struct results_log *log, uint32_t seq)
{
	struct rlog_entry e = {.seq = seq,
			       .cell_index = (seq - 1) % 10,
			       .repeat = (seq - 1) / 10,
			       .data = recs[seq],
			       .len = rec_len[seq]};

	return rlog_append(log, &e, err, sizeof(err));
}

/* A log with records 1..n. */
static void make_log(uint32_t n)
{
	struct results_log log;

	fresh_file(0);
	CHECK_EQ_INT(rlog_init(path, "run-1", 0, 0, err, sizeof(err)), 0);
	CHECK_EQ_INT(rlog_open(&log, path, NULL, NULL, err, sizeof(err)), 0);
	for (uint32_t s = 1; s <= n; s++)
		CHECK_EQ_INT(append(&log, s), 0);
	rlog_close(&log);
}

static void test_init_append_scan(void)
{
	struct rlog_scan_result res;
	struct seen s;

	make_log(NREC);
	CHECK_EQ_INT(scan(&s, &res), 0);
	CHECK_EQ_INT(s.n, NREC);
	CHECK_EQ_INT(s.ndamaged, 0);
	CHECK(!s.wrong);
	CHECK_EQ_INT(res.last_seq, NREC);
	CHECK_EQ_STR(res.info.run_id, "run-1");
	CHECK_EQ_INT(res.info.block_size, RLOG_BLOCK_SIZE);
	CHECK(res.has_progress && res.progress.state == RLOG_IDLE);
	CHECK_EQ_INT(s.cell[12], 12 % 10); /* seq 13 */
}

static void test_reopen_and_append(void)
{
	struct rlog_scan_result res;
	struct results_log log;
	struct seen s;

	make_log(NREC - 5);
	memset(&s, 0, sizeof(s));
	CHECK_EQ_INT(rlog_open(&log, path, see, &s, err, sizeof(err)), 0);
	CHECK_EQ_INT(s.n, NREC - 5);
	CHECK_EQ_INT(log.last_seq, NREC - 5);
	for (uint32_t q = NREC - 4; q <= NREC; q++)
		CHECK_EQ_INT(append(&log, q), 0);
	/* seq must go up */
	CHECK_EQ_INT(append(&log, NREC), -1);
	CHECK(strstr(err, "seq must be above"));
	rlog_close(&log);
	CHECK_EQ_INT(scan(&s, &res), 0);
	CHECK_EQ_INT(s.n, NREC);
	CHECK(!s.wrong);
}

/*
 * A crash while record 26 was being written: any prefix of its blocks may
 * have reached the disk. The scan keeps 1..25 and never a half of 26; the
 * next open writes over the torn record.
 */
static void test_torn_last_write(void)
{
	struct rlog_scan_result res;
	struct results_log log;
	struct seen s;
	uint64_t start, nb;
	int bad = 0;

	make_log(NREC + 1);
	CHECK_EQ_INT(scan(&s, &res), 0);
	start = s.block[NREC];
	nb = res.end_block - start;
	CHECK(nb > 2);
	for (uint64_t written = 0; written < nb; written++) {
		make_log(NREC + 1);
		zero_blocks(start + written, nb - written);
		CHECK_EQ_INT(scan(&s, &res), 0);
		bad += s.n != NREC || s.wrong || res.last_seq != NREC || res.end_block != start;
		/* header there, payload not: reported as damaged, by seq */
		if (written > 0)
			bad += s.ndamaged != 1 || s.damaged[0] != NREC + 1;
		CHECK_EQ_INT(rlog_open(&log, path, NULL, NULL, err, sizeof(err)), 0);
		CHECK_EQ_INT(append(&log, NREC + 1), 0);
		rlog_close(&log);
		CHECK_EQ_INT(scan(&s, &res), 0);
		bad += s.n != NREC + 1 || s.wrong || s.ndamaged != 0;
	}
	CHECK_EQ_INT(bad, 0);
}

/* Garbage rather than zeros in the torn part: the same. */
static void test_torn_with_garbage(void)
{
	struct rlog_scan_result res;
	struct seen s;
	uint64_t start;
	char junk[RLOG_BLOCK_SIZE];

	make_log(NREC + 1);
	CHECK_EQ_INT(scan(&s, &res), 0);
	start = s.block[NREC];
	memset(junk, 0xa5, sizeof(junk));
	patch((start + 1) * RLOG_BLOCK_SIZE + 100, junk, 1000);
	CHECK_EQ_INT(scan(&s, &res), 0);
	CHECK_EQ_INT(s.n, NREC);
	CHECK_EQ_INT(s.ndamaged, 1);
	CHECK_EQ_INT(res.end_block, start);
}

static void test_zeroed_block_in_the_middle(void)
{
	struct rlog_scan_result res;
	struct seen s, before;

	uint64_t end;

	make_log(NREC);
	CHECK_EQ_INT(scan(&before, &res), 0);
	end = res.end_block;
	/* the first block of record 10: its header is gone */
	zero_blocks(before.block[9], 1);
	/* a payload block of record 15 */
	zero_blocks(before.block[14] + 1, 1);
	CHECK_EQ_INT(scan(&s, &res), 0);
	CHECK_EQ_INT(s.n, NREC - 2);
	CHECK(!s.wrong);
	CHECK_EQ_INT(s.ndamaged, 2);
	CHECK_EQ_INT(s.damaged[0], 10);
	CHECK_EQ_INT(s.damaged[1], 15);
	CHECK_EQ_INT(res.last_seq, NREC);
	CHECK_EQ_INT(res.end_block, end);
}

static void test_wrong_header(void)
{
	struct rlog_scan_result res;
	struct results_log log;
	struct seen s;
	uint8_t b;

	make_log(3);
	patch(0, "IOMXLOX", 7);
	CHECK_EQ_INT(scan(&s, &res), -1);
	CHECK(strstr(err, "no results log header"));
	CHECK_EQ_INT(rlog_open(&log, path, NULL, NULL, err, sizeof(err)), -1);

	make_log(3);
	b = 0x40;
	patch(45, &b, 1); /* inside the run id */
	CHECK_EQ_INT(scan(&s, &res), -1);
	CHECK(strstr(err, "CRC mismatch"));

	fresh_file(1 << 20); /* all zeros: never initialised */
	CHECK_EQ_INT(rlog_open(&log, path, NULL, NULL, err, sizeof(err)), -1);
	CHECK(strstr(err, "no results log header"));
}

/* A re-initialised device still holds the old log's records: never taken. */
static void test_stale_records_of_an_earlier_log(void)
{
	struct rlog_scan_result res;
	struct results_log log;
	struct seen s;

	make_log(NREC);
	CHECK_EQ_INT(rlog_init(path, "run-2", 0, 0, err, sizeof(err)), -1);
	CHECK(strstr(err, "iomatrix results log"));
	CHECK_EQ_INT(rlog_init(path, "run-2", 0, RLOG_INIT_OVERWRITE, err, sizeof(err)), 0);
	CHECK_EQ_INT(scan(&s, &res), 0);
	CHECK_EQ_INT(s.n, 0);
	CHECK_EQ_INT(s.ndamaged, 0);
	CHECK_EQ_STR(res.info.run_id, "run-2");
	/* and after a few new ones, the old ones beyond are still not taken */
	CHECK_EQ_INT(rlog_open(&log, path, NULL, NULL, err, sizeof(err)), 0);
	CHECK_EQ_INT(append(&log, 1), 0);
	CHECK_EQ_INT(append(&log, 2), 0);
	rlog_close(&log);
	CHECK_EQ_INT(scan(&s, &res), 0);
	CHECK_EQ_INT(s.n, 2);
	CHECK_EQ_INT(s.ndamaged, 0);
}

static void test_init_refuses_signatures(void)
{
	static const struct {
		uint64_t off;
		const char *magic;
		size_t len;
		const char *name;
	} sigs[] = {
		{1080, "\x53\xef", 2, "ext2/3/4"},
		{512, "EFI PART", 8, "GPT"},
		{0, "XFSB", 4, "XFS"},
		{65600, "_BHRfS_M", 8, "btrfs"},
		{510, "\x55\xaa", 2, "MBR"},
		{4096, "\xfc\x4e\x2b\xa9", 4, "md RAID"},
	};

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		fresh_file(1 << 20);
		patch(sigs[i].off, sigs[i].magic, sigs[i].len);
		CHECK_EQ_INT(rlog_init(path, "r", 0, 0, err, sizeof(err)), -1);
		CHECK(strstr(err, sigs[i].name));
		CHECK_EQ_INT(rlog_init(path, "r", 0, RLOG_INIT_OVERWRITE, err, sizeof(err)), 0);
	}
	CHECK_EQ_INT(rlog_init(path, "has blank", 0, RLOG_INIT_OVERWRITE, err, sizeof(err)), -1);
	CHECK_EQ_INT(rlog_init(path, "r", 1000, RLOG_INIT_OVERWRITE, err, sizeof(err)), -1);
	CHECK_EQ_INT(rlog_init("/nonexistent/x", "r", 0, 0, err, sizeof(err)), -1);
	CHECK(strstr(err, "/nonexistent/x"));
}

static void test_progress_slots(void)
{
	struct rlog_progress p = {.state = RLOG_CELL,
				  .cell_index = 3,
				  .cell_count = 10,
				  .seq = 4,
				  .boots = 1,
				  .note = "mkfs"};
	struct rlog_scan_result res;
	struct results_log log;
	struct seen s;
	uint64_t gen;

	make_log(3);
	CHECK_EQ_INT(rlog_open(&log, path, NULL, NULL, err, sizeof(err)), 0);
	CHECK_EQ_INT(rlog_progress_write(&log, &p, err, sizeof(err)), 0);
	gen = p.generation;
	rlog_close(&log);
	CHECK_EQ_INT(scan(&s, &res), 0);
	CHECK(res.has_progress);
	CHECK_EQ_INT(res.progress.state, RLOG_CELL);
	CHECK_EQ_INT(res.progress.cell_index, 3);
	CHECK_EQ_INT(res.progress.seq, 4);
	CHECK_EQ_STR(res.progress.note, "mkfs");

	/* the next goes to the other slot; tear it: the previous one stands */
	CHECK_EQ_INT(rlog_open(&log, path, NULL, NULL, err, sizeof(err)), 0);
	p.cell_index = 4;
	snprintf(p.note, sizeof(p.note), "workload");
	CHECK_EQ_INT(rlog_progress_write(&log, &p, err, sizeof(err)), 0);
	CHECK_EQ_INT(p.generation, gen + 1);
	rlog_close(&log);
	CHECK_EQ_INT(scan(&s, &res), 0);
	CHECK_EQ_INT(res.progress.cell_index, 4);
	CHECK_EQ_STR(res.progress.note, "workload");
	patch((1 + p.generation % 2) * RLOG_BLOCK_SIZE + 70, "XX", 2);
	CHECK_EQ_INT(scan(&s, &res), 0);
	CHECK_EQ_INT(res.progress.cell_index, 3);
	CHECK_EQ_INT(res.progress.generation, gen);
	/* progress never disturbs the records */
	CHECK_EQ_INT(s.n, 3);
}

/* An image cut short (a partial copy): what is whole is kept. */
static void test_truncated_image(void)
{
	struct rlog_scan_result res;
	struct seen s, before;
	struct stat st;

	make_log(NREC);
	CHECK_EQ_INT(scan(&before, &res), 0);
	CHECK_EQ_INT(truncate(path, (off_t)((before.block[NREC - 1] + 1) * RLOG_BLOCK_SIZE)), 0);
	CHECK(!stat(path, &st));
	CHECK_EQ_INT(scan(&s, &res), 0);
	CHECK_EQ_INT(s.n, NREC - 1);
	CHECK_EQ_INT(s.ndamaged, 1);
	CHECK_EQ_INT(s.damaged[0], NREC);
}

static void test_refuses_bad_records(void)
{
	struct results_log log;
	struct rlog_entry e = {.seq = 1, .data = "x", .len = 0};

	make_log(0);
	CHECK_EQ_INT(rlog_open(&log, path, NULL, NULL, err, sizeof(err)), 0);
	CHECK_EQ_INT(rlog_append(&log, &e, err, sizeof(err)), -1);
	e.len = RLOG_RECORD_MAX + 1;
	CHECK_EQ_INT(rlog_append(&log, &e, err, sizeof(err)), -1);
	e.len = 1;
	e.seq = 0;
	CHECK_EQ_INT(rlog_append(&log, &e, err, sizeof(err)), -1);
	rlog_close(&log);
}

/* The run description: written once, read back after reopening, never read as a record. */
static void test_run_info(void)
{
	static const char text[] = "[run]\nmatrix = quick\ndisks = iomatrix-disk0\n";
	char buf[RLOG_RUN_INFO_MAX + 1];
	struct rlog_scan_result res;
	struct results_log log;
	struct seen s;
	size_t len;

	make_log(0);
	CHECK_EQ_INT(rlog_open(&log, path, NULL, NULL, err, sizeof(err)), 0);
	CHECK_EQ_INT(rlog_run_info_read(&log, buf, sizeof(buf), &len, err, sizeof(err)), 0);
	CHECK_EQ_INT(rlog_run_info_write(&log, text, strlen(text), err, sizeof(err)), 0);
	CHECK_EQ_INT(append(&log, 1), 0);
	CHECK_EQ_INT(append(&log, 2), 0);
	rlog_close(&log);
	CHECK_EQ_INT(rlog_open(&log, path, NULL, NULL, err, sizeof(err)), 0);
	CHECK_EQ_INT(rlog_run_info_read(&log, buf, sizeof(buf), &len, err, sizeof(err)), 1);
	CHECK_EQ_INT(len, strlen(text));
	CHECK_EQ_STR(buf, text);
	CHECK_EQ_INT(rlog_run_info_write(&log, buf, RLOG_RUN_INFO_MAX + 1, err, sizeof(err)), -1);
	rlog_close(&log);
	CHECK_EQ_INT(scan(&s, &res), 0);
	CHECK_EQ_INT(s.n, 2);
	CHECK_EQ_INT(s.ndamaged, 0);
	/* records start after the area */
	CHECK_EQ_INT(res.info.data_start, 3 + RLOG_RUN_INFO_BYTES / RLOG_BLOCK_SIZE);
	CHECK_EQ_INT(s.block[0], res.info.data_start);

	/* a damaged description reads as none */
	patch(3 * RLOG_BLOCK_SIZE + RLOG_RUN_INFO_HEADER + 3, "X", 1);
	CHECK_EQ_INT(rlog_open(&log, path, NULL, NULL, err, sizeof(err)), 0);
	CHECK_EQ_INT(rlog_run_info_read(&log, buf, sizeof(buf), &len, err, sizeof(err)), 0);
	rlog_close(&log);
}

/* Smallest blocks: the area spans 16 of them and the records follow. */
static void test_run_info_512(void)
{
	struct rlog_scan_result res;
	struct results_log log;
	struct seen s;
	char buf[64];
	size_t len;

	fresh_file(0);
	CHECK_EQ_INT(rlog_init(path, "run-512", 512, 0, err, sizeof(err)), 0);
	CHECK_EQ_INT(rlog_open(&log, path, NULL, NULL, err, sizeof(err)), 0);
	CHECK_EQ_INT(rlog_run_info_write(&log, "x = 1", 5, err, sizeof(err)), 0);
	CHECK_EQ_INT(append(&log, 1), 0);
	CHECK_EQ_INT(rlog_run_info_read(&log, buf, sizeof(buf), &len, err, sizeof(err)), 1);
	CHECK_EQ_STR(buf, "x = 1");
	rlog_close(&log);
	CHECK_EQ_INT(scan(&s, &res), 0);
	CHECK_EQ_INT(res.info.data_start, 3 + 16);
	CHECK_EQ_INT(s.n, 1);
}

int main(void)
{
	struct synth_run run = {"run-1", "quick", "6.1.0", 10};
	uint64_t rnd = 5;
	int fd = mkstemp(path);

	if (fd < 0)
		return 1;
	close(fd);
	for (uint32_t s = 1; s <= NREC + 1; s++)
		recs[s] = synth_record(&run, s, "ok",
				       s == NREC + 1 ? 30000 : 200 + synth_below(&rnd, 20000),
				       &rec_len[s]);
	RUN_TEST(test_init_append_scan);
	RUN_TEST(test_reopen_and_append);
	RUN_TEST(test_torn_last_write);
	RUN_TEST(test_torn_with_garbage);
	RUN_TEST(test_zeroed_block_in_the_middle);
	RUN_TEST(test_wrong_header);
	RUN_TEST(test_stale_records_of_an_earlier_log);
	RUN_TEST(test_init_refuses_signatures);
	RUN_TEST(test_progress_slots);
	RUN_TEST(test_truncated_image);
	RUN_TEST(test_refuses_bad_records);
	RUN_TEST(test_run_info);
	RUN_TEST(test_run_info_512);
	unlink(path);
	for (uint32_t s = 1; s <= NREC + 1; s++)
		free(recs[s]);
	CHECK_EXIT();
}
