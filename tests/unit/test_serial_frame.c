// SPDX-License-Identifier: GPL-2.0
/* The serial line format and the decoder's basic behaviour. */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "lib/crc32.h"
#include "frame_collect.h"
#include "records/serial_frame.h"
#include "synth_record.h"

static struct collected col;

/* What frame_write_record (or the kmsg variant, level >= 0) writes, as text. */
static char *framed(uint32_t seq, const void *rec, size_t len, int kmsg_level, size_t *out_len)
{
	int fd = memfd_create("frame", 0);
	off_t size;
	char *buf;
	int r;

	if (fd < 0)
		return NULL;
	r = kmsg_level < 0 ? frame_write_record(fd, seq, rec, len)
			   : frame_write_record_kmsg(fd, kmsg_level, seq, rec, len);
	size = lseek(fd, 0, SEEK_END);
	buf = malloc((size_t)size + 1);
	if (r || size < 0 || !buf || pread(fd, buf, (size_t)size, 0) != size) {
		close(fd);
		free(buf);
		return NULL;
	}
	close(fd);
	buf[size] = '\0';
	*out_len = (size_t)size;
	return buf;
}

static void test_line_format(void)
{
	char line[FRAME_LINE_MAX + 2];
	struct frame_line fl;
	const char *rec = "{\"a\":1}";
	size_t n = frame_format_line(line, 7, rec, 7, crc32_ieee(0, rec, 7), 0);

	CHECK(!strncmp(line, "@IOMX1 7 0 1 7 ", 15));
	CHECK_EQ_INT(line[n - 1], '\n');
	CHECK_EQ_INT(frame_parse_line(line, n - 1, &fl), 0);
	CHECK_EQ_INT(fl.seq, 7);
	CHECK_EQ_INT(fl.count, 1);
	CHECK_EQ_INT(fl.chunk_len, 7);
	CHECK(!memcmp(fl.chunk, rec, 7));
	CHECK_EQ_INT(fl.line_len, n - 1);
	/* Anything after the line CRC is someone else's. */
	memcpy(line + n - 1, " [ 1.0] x", 10);
	CHECK_EQ_INT(frame_parse_line(line, strlen(line), &fl), 0);
}

/* The longest line the format allows fits the bound. */
static void test_line_length_bound(void)
{
	uint8_t *big = calloc(1, FRAME_RECORD_MAX);
	char line[FRAME_LINE_MAX + 2];
	struct frame_line fl;
	uint32_t last = frame_chunk_count(FRAME_RECORD_MAX) - 1;
	size_t n;

	if (!big) {
		CHECK(big);
		return;
	}
	n = frame_format_line(line, UINT32_MAX, big, FRAME_RECORD_MAX, 0xffffffffu, last - 1);
	CHECK(n - 1 <= FRAME_LINE_MAX);
	CHECK_EQ_INT(n - 1, 184); /* docs/records.md says so */
	CHECK_EQ_INT(frame_parse_line(line, n - 1, &fl), 0);
	CHECK_EQ_INT(fl.index, last - 1);
	free(big);
}

/* No single bit flip, and no truncation, of a line gives a line that parses. */
static void test_every_flip_and_cut_rejected(void)
{
	char rec[200], line[FRAME_LINE_MAX + 2];
	struct frame_line fl;
	size_t n;
	int accepted = 0;

	memset(rec, 'x', sizeof(rec));
	n = frame_format_line(line, 12345, rec, sizeof(rec), crc32_ieee(0, rec, sizeof(rec)), 1) -
	    1;
	for (size_t i = 0; i < n; i++) {
		for (int b = 0; b < 8; b++) {
			line[i] ^= (char)(1 << b);
			accepted += !frame_parse_line(line, n, &fl);
			line[i] ^= (char)(1 << b);
		}
	}
	for (size_t cut = 0; cut < n; cut++)
		accepted += !frame_parse_line(line, cut, &fl);
	CHECK_EQ_INT(accepted, 0);
	CHECK_EQ_INT(frame_parse_line(line, n, &fl), 0);
}

static void test_non_canonical_numbers_rejected(void)
{
	char line[FRAME_LINE_MAX + 8], fixed[FRAME_LINE_MAX + 8];
	struct frame_line fl;
	const char *rec = "{}";
	size_t n = frame_format_line(line, 5, rec, 2, crc32_ieee(0, rec, 2), 0) - 1;
	size_t body = n - 8;

	/* "05" for "5", with a line CRC that matches: still refused. */
	snprintf(fixed, sizeof(fixed), "@IOMX1 05%.*s", (int)(body - 8), line + 8);
	snprintf(fixed + strlen(fixed), 9, "%08x", crc32_ieee(0, fixed, strlen(fixed)));
	CHECK_EQ_INT(frame_parse_line(fixed, strlen(fixed), &fl), -1);
	/* Uppercase hex in the line CRC. */
	memcpy(fixed, line, n + 1);
	for (size_t i = n - 8; i < n; i++)
		if (fixed[i] >= 'a' && fixed[i] <= 'f')
			fixed[i] = (char)(fixed[i] - 'a' + 'A');
	if (strcmp(fixed, line))
		CHECK_EQ_INT(frame_parse_line(fixed, n, &fl), -1);
}

static void test_writer_refuses_bad_sizes(void)
{
	int fd = memfd_create("frame", 0);

	CHECK_EQ_INT(frame_write_record(fd, 1, "", 0), -EINVAL);
	CHECK_EQ_INT(frame_write_record_kmsg(fd, 8, 1, "x", 1), -EINVAL);
	CHECK_EQ_INT(frame_write_record(-1, 1, "x", 1), -EBADF);
	close(fd);
}

static void test_roundtrip_sizes(void)
{
	static const size_t sizes[] = {1, 2, 3, 95, 96, 97, 191, 192, 193, 1000, 61440};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint8_t *rec = malloc(sizes[i]);
		size_t tlen;
		char *text;

		for (size_t k = 0; k < sizes[i]; k++)
			rec[k] = (uint8_t)(k * 31 + i); /* binary: the format carries any bytes */
		text = framed((uint32_t)i + 1, rec, sizes[i], -1, &tlen);
		CHECK(text);
		if (text) {
			CHECK_EQ_INT(collect(&col, text, tlen, 0), 0);
			CHECK_EQ_INT(col.nrec, 1);
			CHECK_EQ_INT(col.ndamaged, 0);
			CHECK(col.nrec == 1 && col.rec_len[0] == sizes[i] &&
			      !memcmp(col.rec[0], rec, sizes[i]));
			collected_free(&col);
		}
		free(text);
		free(rec);
	}
}

/* Byte by byte and in odd pieces: the decoder keeps its state across feeds. */
static void test_feed_in_pieces(void)
{
	struct synth_run run = {"r1", "quick", "6.1.0", 12};
	size_t len, tlen;
	char *rec = synth_record(&run, 3, "ok", 5000, &len);
	char *text = framed(3, rec, len, -1, &tlen);

	for (size_t step = 1; step <= 193; step += 48) {
		CHECK_EQ_INT(collect(&col, text, tlen, step), 0);
		CHECK_EQ_INT(col.nrec, 1);
		CHECK(col.nrec == 1 && col.rec_len[0] == len && !memcmp(col.rec[0], rec, len));
		collected_free(&col);
	}
	free(text);
	free(rec);
}

/* The kmsg variant: "<level>" before each line, each one write under kmsg's limit. */
static void test_kmsg_lines(void)
{
	struct synth_run run = {"r1", "quick", "6.1.0", 12};
	size_t len, tlen, lines = 0;
	char *rec = synth_record(&run, 9, "ok", 3000, &len);
	char *text = framed(9, rec, len, 4, &tlen);

	for (char *p = text, *nl; p && (nl = strchr(p, '\n')); p = nl + 1) {
		CHECK(!strncmp(p, "<4>@IOMX1 9 ", 12));
		CHECK(nl - p < 992); /* the kernel's LOG_LINE_MAX */
		lines++;
	}
	CHECK_EQ_INT(lines, frame_chunk_count(len));
	/* What dmesg or a console shows: a timestamp in front, and still decoded. */
	CHECK_EQ_INT(collect(&col, text, tlen, 0), 0);
	CHECK_EQ_INT(col.nrec, 1);
	collected_free(&col);
	free(text);
	free(rec);
}

/* A line that ends our log without its newline still counts. */
static void test_last_line_without_newline(void)
{
	size_t tlen;
	char *text = framed(1, "hello", 5, -1, &tlen);

	CHECK_EQ_INT(collect(&col, text, tlen - 1, 0), 0);
	CHECK_EQ_INT(col.nrec, 1);
	collected_free(&col);
	free(text);
}

/* Two records with the same seq but different content are both reported. */
static void test_same_seq_different_records(void)
{
	size_t a_len, b_len;
	char *a = framed(4, "first", 5, -1, &a_len), *b = framed(4, "second", 6, -1, &b_len);
	char *both = malloc(a_len + b_len);

	memcpy(both, a, a_len);
	memcpy(both + a_len, b, b_len);
	CHECK_EQ_INT(collect(&col, both, a_len + b_len, 0), 0);
	CHECK_EQ_INT(col.nrec, 2);
	collected_free(&col);
	free(both);
	free(a);
	free(b);
}

int main(void)
{
	RUN_TEST(test_line_format);
	RUN_TEST(test_line_length_bound);
	RUN_TEST(test_every_flip_and_cut_rejected);
	RUN_TEST(test_non_canonical_numbers_rejected);
	RUN_TEST(test_writer_refuses_bad_sizes);
	RUN_TEST(test_roundtrip_sizes);
	RUN_TEST(test_feed_in_pieces);
	RUN_TEST(test_kmsg_lines);
	RUN_TEST(test_last_line_without_newline);
	RUN_TEST(test_same_seq_different_records);
	CHECK_EXIT();
}
