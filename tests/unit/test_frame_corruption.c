// SPDX-License-Identifier: GPL-2.0
/*
 * The serial decoder against every kind of damage a console log suffers,
 * measured: a synthetic run of 200 records of 1-60 KB is framed, corrupted
 * one way, decoded, and each accepted record compared byte for byte with
 * what was written. Prints one table row per kind ("# | kind | ..."), and
 * fails when any record is accepted wrong, when a harmless kind loses a
 * record, or when a lost record is neither reported damaged nor detectable
 * as a gap in the sequence numbers.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "check.h"
#include "lib/crc32.h"
#include "frame_collect.h"
#include "records/serial_frame.h"
#include "synth_record.h"

#define NREC 200

static struct {
	char *data;
	size_t len;
} recs[NREC + 1]; /* by seq, from 1 */

/* The framed log as lines (without newlines), in writing order. */
static char **lines;
static size_t nlines, lines_cap;
static size_t *line_seq; /* the record each line belongs to */

struct buf {
	char *p;
	size_t len, cap;
};

static void put(struct buf *b, const void *s, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2;
		b->p = realloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

static void puts_(struct buf *b, const char *s)
{
	put(b, s, strlen(s));
}

static const char *const kernel_lines[] = {
	"[   12.345678] md/raid:md0: device vdb operational as raid disk 1",
	"[   13.000001] EXT4-fs (md0): mounted filesystem with ordered data mode. Quota mode: "
	"none.",
	"[   14.200000] systemd[1]: Started user@0.service - User Manager for UID 0.",
	"[   15.500000] BUG: kernel NULL pointer dereference, address: 0000000000000000",
	"[   16.000000] md: md0 stopped.",
	"[   17.123456] XFS (md0): Ending clean mount",
	"[   18.000000] sysrq: Trigger a crash",
	"[   19.000000] @IOMX0 not ours: another tool's line",
};

static const char *kernel_line(uint64_t *rnd)
{
	return kernel_lines[synth_below(rnd, sizeof(kernel_lines) / sizeof(kernel_lines[0]))];
}

static void make_run(void)
{
	struct synth_run run = {"5f0c9a1e7d2b4c38", "quick", "6.1.0-57-amd64", 40};
	uint64_t rnd = 2024;

	for (uint32_t seq = 1; seq <= NREC; seq++) {
		size_t target = 1024 + synth_below(&rnd, 60 * 1024 - 1024);
		const char *status = seq % 17 == 0 ? "failed" : seq % 23 == 0 ? "skipped" : "ok";
		uint32_t crc, count;

		recs[seq].data = synth_record(&run, seq, status, target, &recs[seq].len);
		crc = crc32_ieee(0, recs[seq].data, recs[seq].len);
		count = frame_chunk_count(recs[seq].len);
		for (uint32_t i = 0; i < count; i++) {
			char line[FRAME_LINE_MAX + 2];
			size_t n =
				frame_format_line(line, seq, recs[seq].data, recs[seq].len, crc, i);

			if (nlines == lines_cap) {
				lines_cap = lines_cap ? lines_cap * 2 : 1024;
				lines = realloc(lines, lines_cap * sizeof(*lines));
				line_seq = realloc(line_seq, lines_cap * sizeof(*line_seq));
			}
			line[n - 1] = '\0';
			lines[nlines] = strdup(line);
			line_seq[nlines++] = seq;
		}
	}
}

/* Line-level damage: what is written around and inside each of our lines. */
struct line_damage {
	double between;	  /* chance of 1-3 kernel lines before a line */
	double inside;	  /* chance of a kernel line printed inside a line */
	double ansi;	  /* chance of escape sequences / control bytes inside a line */
	double duplicate; /* chance a line is written twice */
	int replay;	  /* whole records written again later */
	const char *eol;  /* line ending; NULL: a mix of all */
};

static const char *pick_eol(const struct line_damage *ld, uint64_t *rnd)
{
	static const char *const eols[] = {"\n", "\r\n", "\n\r", "\r", "\r\r\n"};

	return ld->eol ? ld->eol : eols[synth_below(rnd, 5)];
}

static void emit_line(struct buf *b, const char *line, const struct line_damage *ld, uint64_t *rnd)
{
	size_t n = strlen(line), at;

	if ((double)synth_below(rnd, 1000000) < ld->between * 1e6) {
		for (uint64_t k = 1 + synth_below(rnd, 3); k > 0; k--) {
			puts_(b, kernel_line(rnd));
			puts_(b, "\r\n");
		}
	}
	if ((double)synth_below(rnd, 1000000) < ld->inside * 1e6) {
		/* What a console shows when printk runs while our line is half out. */
		at = synth_below(rnd, n + 1);
		put(b, line, at);
		puts_(b, kernel_line(rnd));
		puts_(b, "\r\n");
		if (synth_below(rnd, 4) == 0) {
			puts_(b, kernel_line(rnd));
			puts_(b, "\r\n");
		}
		put(b, line + at, n - at);
	} else if ((double)synth_below(rnd, 1000000) < ld->ansi * 1e6) {
		static const char *const junk[] = {"\x1b[0m", "\x1b[1;31m", "\x1b(B",  "\x07",
						   "\0",      "\x1b[?25h",  "\xff\xfe"};

		at = synth_below(rnd, n + 1);
		put(b, line, at);
		puts_(b, junk[synth_below(rnd, sizeof(junk) / sizeof(junk[0]))]);
		if (synth_below(rnd, 7) == 0)
			put(b, "", 1);
		put(b, line + at, n - at);
	} else {
		put(b, line, n);
	}
	puts_(b, pick_eol(ld, rnd));
}

static struct buf write_log(const struct line_damage *ld, uint64_t seed)
{
	struct buf b = {0};
	uint64_t rnd = seed;

	for (size_t i = 0; i < nlines; i++) {
		emit_line(&b, lines[i], ld, &rnd);
		if ((double)synth_below(&rnd, 1000000) < ld->duplicate * 1e6)
			emit_line(&b, lines[i], ld, &rnd);
	}
	/* Whole records again (a console replaying, a log concatenated twice). */
	for (int r = 0; r < ld->replay; r++) {
		size_t seq = 1 + synth_below(&rnd, NREC);

		for (size_t i = 0; i < nlines; i++)
			if (line_seq[i] == seq)
				emit_line(&b, lines[i], ld, &rnd);
	}
	return b;
}

/* Byte-level damage: each byte dropped or one of its bits flipped, at a rate. */
static void drop_bytes(struct buf *b, double rate, uint64_t *rnd)
{
	size_t o = 0;

	for (size_t i = 0; i < b->len; i++)
		if ((double)synth_below(rnd, 1000000000) >= rate * 1e9)
			b->p[o++] = b->p[i];
	b->len = o;
}

static void flip_bits(struct buf *b, double rate, uint64_t *rnd)
{
	for (size_t i = 0; i < b->len; i++)
		if ((double)synth_below(rnd, 1000000000) < rate * 1e9)
			b->p[i] ^= (char)(1 << synth_below(rnd, 8));
}

struct kind {
	const char *name;
	struct line_damage ld;
	double drop, flip;
	bool cut;
	bool lossless; /* every record must come back */
};

static const struct kind kinds[] = {
	{"clean", {.eol = "\n"}, 0, 0, false, true},
	{"kernel lines between ours (30% of lines)",
	 {.between = 0.3, .eol = "\n"},
	 0,
	 0,
	 false,
	 true},
	{"kernel line inside ours (20% of lines)", {.inside = 0.2, .eol = "\n"}, 0, 0, false, true},
	{"ANSI/control junk inside ours (20%)", {.ansi = 0.2, .eol = "\n"}, 0, 0, false, true},
	{"duplicated lines (10%) + 5 records replayed",
	 {.duplicate = 0.1, .replay = 5, .eol = "\n"},
	 0,
	 0,
	 false,
	 true},
	{"CRLF endings", {.eol = "\r\n"}, 0, 0, false, true},
	{"mixed LF/CRLF/LFCR/CR endings", {.eol = NULL}, 0, 0, false, true},
	{"dropped bytes (1e-5 per byte)", {.eol = "\n"}, 1e-5, 0, false, false},
	{"dropped bytes (1e-4 per byte)", {.eol = "\n"}, 1e-4, 0, false, false},
	{"bit flips (1e-5 per byte)", {.eol = "\n"}, 0, 1e-5, false, false},
	{"bit flips (1e-4 per byte)", {.eol = "\n"}, 0, 1e-4, false, false},
	{"end cut off", {.eol = "\n"}, 0, 0, true, false},
	/* What writing every line twice buys against independent errors. */
	{"dropped bytes (1e-5), every line written twice",
	 {.duplicate = 1.0, .eol = "\n"},
	 1e-5,
	 0,
	 false,
	 false},
	{"bit flips (1e-5), every line written twice",
	 {.duplicate = 1.0, .eol = "\n"},
	 0,
	 1e-5,
	 false,
	 false},
	{"all of the above at once (1e-5)",
	 {.between = 0.3, .inside = 0.1, .ansi = 0.1, .duplicate = 0.05, .replay = 2, .eol = NULL},
	 1e-5,
	 1e-5,
	 true,
	 false},
};

static struct collected col;

static void run_kind(const struct kind *k, uint64_t seed)
{
	struct buf b = write_log(&k->ld, seed);
	uint64_t rnd = seed * 31 + 7;
	bool recovered[NREC + 1] = {false}, damaged[NREC + 1] = {false};
	uint32_t wrong = 0, nrecovered = 0, ndamaged = 0, gaps = 0, tail = 0, max_seen = 0;

	drop_bytes(&b, k->drop, &rnd);
	flip_bits(&b, k->flip, &rnd);
	if (k->cut)
		b.len = b.len / 2 + synth_below(&rnd, b.len / 2);
	CHECK_EQ_INT(collect(&col, b.p, b.len, 4093), 0);
	for (uint32_t i = 0; i < col.nrec; i++) {
		uint32_t s = col.rec_seq[i];

		if (s < 1 || s > NREC || col.rec_len[i] != recs[s].len ||
		    memcmp(col.rec[i], recs[s].data, recs[s].len)) {
			wrong++;
			continue;
		}
		if (!recovered[s])
			nrecovered++;
		recovered[s] = true;
		max_seen = s > max_seen ? s : max_seen;
	}
	for (uint32_t i = 0; i < col.ndamaged; i++) {
		uint32_t s = col.damaged_seq[i];

		if (s >= 1 && s <= NREC && !damaged[s]) {
			damaged[s] = true;
			max_seen = s > max_seen ? s : max_seen;
		}
	}
	for (uint32_t s = 1; s <= NREC; s++) {
		if (damaged[s] && recovered[s])
			CHECK(!"a record both recovered and reported damaged");
		ndamaged += damaged[s] && !recovered[s];
		if (!recovered[s] && !damaged[s]) {
			if (s < max_seen)
				gaps++;
			else
				tail++;
		}
	}
	printf("# | %-48s | %3d | %3u | %3u | %3u | %3u | %u | %5llu | %5llu |\n", k->name, NREC,
	       nrecovered, ndamaged, gaps, tail, wrong, (unsigned long long)col.stats.bad,
	       (unsigned long long)col.stats.repaired);
	CHECK_EQ_INT(wrong, 0);
	if (k->lossless)
		CHECK_EQ_INT(nrecovered, NREC);
	/* A loss the reader cannot see happens only at a cut-off end. */
	if (!k->cut)
		CHECK_EQ_INT(tail, 0);
	collected_free(&col);
	free(b.p);
}

static void test_corruption_table(void)
{
	make_run();
	printf("# | kind of damage                               | written | recovered | "
	       "damaged (reported) | lost, seen as a gap | lost at the end | accepted wrong | "
	       "bad lines | repaired lines |\n");
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		run_kind(&kinds[i], 1000 + i);
}

/* Same kinds, other seeds: what must hold holds for more than one draw. */
static void test_corruption_other_seeds(void)
{
	for (uint64_t seed = 1; seed <= 1; seed++)
		for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
			run_kind(&kinds[i], seed * 7777 + i);
}

/*
 * Exhaustive on a small log: every single bit flip and every single dropped
 * byte. The decoder may lose the record; it must never return a different one.
 */
static void test_every_single_flip_and_drop(void)
{
	static const char *const small[] = {
		"{\"seq\":1,\"status\":\"ok\"}",
		"{\"seq\":2,\"pad\":\"" /* 2 lines */
		"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}"};
	struct buf b = {0};
	uint32_t wrong = 0, intact = 0, runs = 0;

	for (uint32_t s = 0; s < 2; s++) {
		size_t len = strlen(small[s]);
		uint32_t crc = crc32_ieee(0, small[s], len);

		for (uint32_t i = 0; i < frame_chunk_count(len); i++) {
			char line[FRAME_LINE_MAX + 2];

			put(&b, line, frame_format_line(line, s + 1, small[s], len, crc, i));
		}
	}
	for (size_t i = 0; i < b.len; i++) {
		for (int bit = -1; bit < 8; bit++) {
			char saved = b.p[i];

			if (bit < 0) /* drop byte i */
				memmove(b.p + i, b.p + i + 1, b.len - i - 1);
			else
				b.p[i] ^= (char)(1 << bit);
			collect(&col, b.p, bit < 0 ? b.len - 1 : b.len, 0);
			if (bit < 0) {
				memmove(b.p + i + 1, b.p + i, b.len - i - 1);
			}
			b.p[i] = saved;
			for (uint32_t r = 0; r < col.nrec; r++) {
				uint32_t s = col.rec_seq[r];

				if (s < 1 || s > 2 || col.rec_len[r] != strlen(small[s - 1]) ||
				    memcmp(col.rec[r], small[s - 1], col.rec_len[r]))
					wrong++;
				else
					intact++;
			}
			runs++;
			collected_free(&col);
		}
	}
	printf("# exhaustive: %u single-byte damages of a %zu-byte log, %u records kept intact, "
	       "%u wrong\n",
	       runs, b.len, intact, wrong);
	CHECK_EQ_INT(wrong, 0);
	CHECK(intact > 0);
	free(b.p);
}

int main(void)
{
	RUN_TEST(test_corruption_table);
	RUN_TEST(test_corruption_other_seeds);
	RUN_TEST(test_every_single_flip_and_drop);
	for (size_t i = 0; i < nlines; i++)
		free(lines[i]);
	free(lines);
	free(line_seq);
	for (int s = 1; s <= NREC; s++)
		free(recs[s].data);
	CHECK_EXIT();
}
