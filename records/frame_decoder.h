/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reassembles records from a console log written with serial_frame.h.
 *
 * Feed it the log's bytes in pieces of any size; it finds our lines among
 * anything else (kernel messages, a lab's timestamps, ANSI sequences), keeps
 * every line whose CRC holds, and hands back each record whose lines all
 * arrived and whose record CRC holds. A record some of whose lines were lost
 * (dropped bytes, bit flips, a cut-off end) is reported as damaged, by
 * sequence number, when the input ends.
 *
 * What it copes with:
 * - other lines between ours, duplicated lines, CR/LF/CRLF/LFCR endings,
 *   control characters and ANSI escape sequences anywhere (ours have none);
 * - a kernel message printed INSIDE one of our lines (the console gives the
 *   kernel's text and its newline in the middle of ours): the line is put
 *   back together by trying each cut point of the broken part against the
 *   next few lines, and kept only when its line CRC holds (and later the
 *   record CRC): a chunk that does not check is never used;
 * - two of our lines merged by a lost newline (each is found by its prefix).
 *
 * Memory: received chunks of incomplete records only, bounded by
 * FRAME_DECODER_PENDING_MAX; a record beyond that bound is reported damaged.
 */
#ifndef IOMATRIX_RECORDS_FRAME_DECODER_H
#define IOMATRIX_RECORDS_FRAME_DECODER_H

#include <stddef.h>
#include <stdint.h>

#define FRAME_DECODER_PENDING_MAX (256u << 20) /* bytes of chunks awaiting their record */
#define FRAME_REPAIR_WINDOW	  4	       /* lines after a broken one that may continue it */

enum frame_event_kind {
	FRAME_RECORD,  /* an intact record */
	FRAME_DAMAGED, /* lines of this record were seen, the record cannot be had */
};

struct frame_event {
	enum frame_event_kind kind;
	uint32_t seq;
	const uint8_t *data;   /* FRAME_RECORD: the record, valid during the call */
	size_t len;	       /* the record's length (from its lines) */
	uint32_t chunks_seen;  /* FRAME_DAMAGED: intact lines seen of ... */
	uint32_t chunks_total; /* ... this many */
	const char *why;       /* FRAME_DAMAGED: one line */
};

/* Called for every record and every damaged one; nonzero stops the decoder. */
typedef int (*frame_event_fn)(void *ctx, const struct frame_event *ev);

struct frame_stats {
	uint64_t lines;	     /* non-empty lines read */
	uint64_t frames;     /* lines of ours accepted, duplicates and repaired ones included */
	uint64_t repaired;   /* ... of which put back together around interleaved text */
	uint64_t duplicates; /* ... of which were seen before */
	uint64_t bad;	     /* our prefix, no line that checks, not repaired (a copy may be) */
	uint64_t records;    /* FRAME_RECORD events */
	uint64_t damaged;    /* FRAME_DAMAGED events */
};

struct frame_decoder;

struct frame_decoder *frame_decoder_new(frame_event_fn fn, void *ctx);
/* 0, or -1 when memory ran out or the callback said stop (sticky). */
int frame_decoder_feed(struct frame_decoder *d, const void *buf, size_t len);
/* Ends the input: the last line without a newline, then damaged records by seq. */
int frame_decoder_finish(struct frame_decoder *d);
const struct frame_stats *frame_decoder_stats(const struct frame_decoder *d);
void frame_decoder_free(struct frame_decoder *d);

#endif
