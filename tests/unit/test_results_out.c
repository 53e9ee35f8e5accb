// SPDX-License-Identifier: GPL-2.0
/* Both channels from one call: the results log and the serial lines agree record for record. */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "frame_collect.h"
#include "records/results_out.h"
#include "synth_record.h"

#define NREC 30

static char path[] = "/tmp/iomatrix-test-out-XXXXXX";
static char *recs[NREC + 1];
static size_t lens[NREC + 1];
static struct collected col;

struct from_log {
	uint32_t n;
	bool wrong;
};

static int see(void *ctx, const struct rlog_item *item)
{
	struct from_log *f = ctx;

	if (!item->data || item->seq > NREC || item->len != lens[item->seq] ||
	    memcmp(item->data, recs[item->seq], item->len))
		f->wrong = true;
	f->n++;
	return 0;
}

/* What the serial channel got, decoded: every record once, equal to the original. */
static uint64_t check_serial(int fd, uint32_t expect)
{
	off_t size = lseek(fd, 0, SEEK_END);
	char *text = malloc((size_t)size);
	uint32_t good = 0;

	CHECK(text && pread(fd, text, (size_t)size, 0) == size);
	CHECK_EQ_INT(collect(&col, text, (size_t)size, 0), 0);
	for (uint32_t i = 0; i < col.nrec; i++)
		good += col.rec_seq[i] <= NREC && col.rec_len[i] == lens[col.rec_seq[i]] &&
			!memcmp(col.rec[i], recs[col.rec_seq[i]], col.rec_len[i]);
	CHECK_EQ_INT(col.nrec, expect);
	CHECK_EQ_INT(good, expect);
	CHECK_EQ_INT(col.ndamaged, 0);
	collected_free(&col);
	free(text);
	return col.stats.duplicates;
}

static void test_both_channels_agree(void)
{
	char err[RLOG_ERR_LEN];
	struct rlog_scan_result res;
	struct results_log log;
	struct from_log f = {0};
	int fd = memfd_create("serial", 0);
	struct results_out out = {.log = &log, .serial_fd = fd, .kmsg_level = -1, .copies = 2};

	CHECK_EQ_INT(rlog_init(path, "run-out", 0, RLOG_INIT_OVERWRITE, err, sizeof(err)), 0);
	CHECK_EQ_INT(rlog_open(&log, path, NULL, NULL, err, sizeof(err)), 0);
	for (uint32_t s = 1; s <= NREC; s++) {
		struct rlog_entry e = {s, s - 1, 0, recs[s], lens[s]};

		CHECK_EQ_INT(results_out_record(&out, &e, err, sizeof(err)), 0);
	}
	rlog_close(&log);
	CHECK_EQ_INT(rlog_scan_path(path, see, &f, &res, err, sizeof(err)), 0);
	CHECK_EQ_INT(f.n, NREC);
	CHECK(!f.wrong);
	/* copies = 2: every line went out twice */
	CHECK_EQ_INT(check_serial(fd, NREC), col.stats.frames / 2);
	close(fd);
}

/* A channel that fails does not stop the other, and the error says which. */
static void test_failing_log_still_writes_serial(void)
{
	char err[RLOG_ERR_LEN];
	struct results_log log;
	int fd = memfd_create("serial", 0);
	struct results_out out = {.log = &log, .serial_fd = fd, .kmsg_level = -1};
	struct rlog_entry e = {1, 0, 0, recs[1], lens[1]};

	CHECK_EQ_INT(rlog_init(path, "run-out", 0, RLOG_INIT_OVERWRITE, err, sizeof(err)), 0);
	CHECK_EQ_INT(rlog_open(&log, path, NULL, NULL, err, sizeof(err)), 0);
	CHECK_EQ_INT(results_out_record(&out, &e, err, sizeof(err)), 0);
	/* the same seq again: the log refuses, the serial line still goes out */
	CHECK_EQ_INT(results_out_record(&out, &e, err, sizeof(err)), -1);
	CHECK(strstr(err, "seq must be above"));
	rlog_close(&log);
	check_serial(fd, 1);
	close(fd);
	/* a serial channel that fails: named in the error */
	out.log = NULL;
	out.serial_fd = 1000;
	CHECK_EQ_INT(results_out_record(&out, &e, err, sizeof(err)), -1);
	CHECK(strstr(err, "serial: record 1"));
}

int main(void)
{
	struct synth_run run = {"run-out", "quick", "6.1.0", NREC};
	uint64_t rnd = 11;
	int fd = mkstemp(path);

	if (fd < 0)
		return 1;
	close(fd);
	for (uint32_t s = 1; s <= NREC; s++)
		recs[s] = synth_record(&run, s, "ok", 500 + synth_below(&rnd, 30000), &lens[s]);
	RUN_TEST(test_both_channels_agree);
	RUN_TEST(test_failing_log_still_writes_serial);
	unlink(path);
	for (uint32_t s = 1; s <= NREC; s++)
		free(recs[s]);
	CHECK_EXIT();
}
