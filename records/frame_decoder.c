// SPDX-License-Identifier: GPL-2.0
/* Reassembling records from a console log; see frame_decoder.h. */
#include "records/frame_decoder.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/crc32.h"
#include "records/serial_frame.h"

/*
 * A line longer than this (newlines lost) is handled in pieces that overlap
 * by one of our lines, so a line of ours across a cut is still seen whole.
 */
#define LINE_CAP 8192

enum group_state { G_FREE, G_PENDING, G_DONE, G_DROPPED };

struct chunk {
	uint32_t index;
	uint32_t len;
	uint8_t data[FRAME_CHUNK];
};

/* The lines of one record, identified by what each of its lines repeats. */
struct group {
	enum group_state state;
	uint32_t seq, length, crc, count;
	uint32_t received;
	uint8_t *seen;	      /* bitmap, one bit per line */
	struct chunk *chunks; /* in order of arrival */
	uint32_t cap;
};

enum sanitize_state { S_TEXT, S_ESC, S_CSI };

/* The start of one of our lines whose end has not been seen intact yet. */
struct broken {
	char text[FRAME_LINE_MAX];
	size_t len;
	int age;	  /* lines read since */
	bool counted_bad; /* a whole prefix that failed: stats.bad counts it until repaired */
};

struct frame_decoder {
	frame_event_fn fn;
	void *ctx;
	int failed;

	char line[LINE_CAP];
	size_t line_len;
	enum sanitize_state esc;

	/* tails of recent lines, from our prefix (or a part of it) on, that did not parse */
	struct broken broken[FRAME_REPAIR_WINDOW];
	int nbroken;

	struct group *groups; /* open addressing, size a power of two */
	size_t ngroups, groups_cap;
	size_t pending_bytes;

	struct frame_stats stats;
};

struct frame_decoder *frame_decoder_new(frame_event_fn fn, void *ctx)
{
	struct frame_decoder *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->fn = fn;
	d->ctx = ctx;
	d->groups_cap = 64;
	d->groups = calloc(d->groups_cap, sizeof(*d->groups));
	if (!d->groups) {
		free(d);
		return NULL;
	}
	return d;
}

static void group_release(struct frame_decoder *d, struct group *g)
{
	d->pending_bytes -=
		(size_t)g->cap * sizeof(*g->chunks) + (g->seen ? (g->count + 7) / 8 : 0);
	free(g->chunks);
	free(g->seen);
	g->chunks = NULL;
	g->seen = NULL;
	g->cap = 0;
}

void frame_decoder_free(struct frame_decoder *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->groups_cap; i++) {
		free(d->groups[i].chunks);
		free(d->groups[i].seen);
	}
	free(d->groups);
	free(d);
}

const struct frame_stats *frame_decoder_stats(const struct frame_decoder *d)
{
	return &d->stats;
}

static int emit(struct frame_decoder *d, const struct frame_event *ev)
{
	if (ev->kind == FRAME_RECORD)
		d->stats.records++;
	else
		d->stats.damaged++;
	if (d->fn(d->ctx, ev))
		d->failed = 1;
	return d->failed ? -1 : 0;
}

static size_t group_slot(uint32_t seq, uint32_t length, uint32_t crc, size_t cap)
{
	uint64_t h = ((uint64_t)seq << 32 | crc) ^ ((uint64_t)length * 0x9e3779b97f4a7c15ull);

	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return (size_t)h & (cap - 1);
}

static int groups_grow(struct frame_decoder *d)
{
	size_t cap = d->groups_cap * 2;
	struct group *n = calloc(cap, sizeof(*n));

	if (!n)
		return -1;
	for (size_t i = 0; i < d->groups_cap; i++) {
		struct group *g = &d->groups[i];
		size_t s;

		if (g->state == G_FREE)
			continue;
		s = group_slot(g->seq, g->length, g->crc, cap);
		while (n[s].state != G_FREE)
			s = (s + 1) & (cap - 1);
		n[s] = *g;
	}
	free(d->groups);
	d->groups = n;
	d->groups_cap = cap;
	return 0;
}

static struct group *group_find(struct frame_decoder *d, const struct frame_line *fl)
{
	size_t s;

	if (2 * (d->ngroups + 1) > d->groups_cap && groups_grow(d))
		return NULL;
	s = group_slot(fl->seq, fl->length, fl->record_crc, d->groups_cap);
	for (;; s = (s + 1) & (d->groups_cap - 1)) {
		struct group *g = &d->groups[s];

		if (g->state == G_FREE) {
			g->state = G_PENDING;
			g->seq = fl->seq;
			g->length = fl->length;
			g->crc = fl->record_crc;
			g->count = fl->count;
			d->ngroups++;
			return g;
		}
		if (g->seq == fl->seq && g->length == fl->length && g->crc == fl->record_crc)
			return g;
	}
}

/* All lines are in: put the record together and check it whole. */
static int group_complete(struct frame_decoder *d, struct group *g)
{
	struct frame_event ev = {.seq = g->seq,
				 .len = g->length,
				 .chunks_seen = g->received,
				 .chunks_total = g->count};
	uint8_t *rec = malloc(g->length);
	int r;

	if (!rec)
		return -1;
	for (uint32_t i = 0; i < g->received; i++)
		memcpy(rec + (size_t)g->chunks[i].index * FRAME_CHUNK, g->chunks[i].data,
		       g->chunks[i].len);
	if (crc32_ieee(0, rec, g->length) == g->crc) {
		ev.kind = FRAME_RECORD;
		ev.data = rec;
		g->state = G_DONE;
	} else {
		/* Every line checked, the whole does not: a CRC collision. */
		ev.kind = FRAME_DAMAGED;
		ev.why = "every line checks but the record CRC does not";
		g->state = G_DROPPED;
	}
	group_release(d, g);
	r = emit(d, &ev);
	free(rec);
	return r;
}

static int group_add(struct frame_decoder *d, struct group *g, const struct frame_line *fl)
{
	size_t need;

	if (g->state != G_PENDING ||
	    (g->seen && (g->seen[fl->index / 8] & (1u << fl->index % 8)))) {
		d->stats.duplicates++;
		return 0;
	}
	need = (g->seen ? 0 : (g->count + 7) / 8) +
	       (g->received == g->cap ? (g->cap ? g->cap : 4) * sizeof(*g->chunks) : 0);
	if (d->pending_bytes + need > FRAME_DECODER_PENDING_MAX) {
		struct frame_event ev = {.kind = FRAME_DAMAGED,
					 .seq = g->seq,
					 .len = g->length,
					 .chunks_seen = g->received,
					 .chunks_total = g->count,
					 .why = "too many incomplete records held at once"};

		g->state = G_DROPPED;
		group_release(d, g);
		return emit(d, &ev);
	}
	if (!g->seen) {
		g->seen = calloc((g->count + 7) / 8, 1);
		if (!g->seen)
			return -1;
		d->pending_bytes += (g->count + 7) / 8;
	}
	if (g->received == g->cap) {
		uint32_t cap = g->cap ? g->cap * 2 : 4;
		struct chunk *c = realloc(g->chunks, (size_t)cap * sizeof(*c));

		if (!c)
			return -1;
		d->pending_bytes += (size_t)(cap - g->cap) * sizeof(*c);
		g->chunks = c;
		g->cap = cap;
	}
	g->seen[fl->index / 8] |= (uint8_t)(1u << fl->index % 8);
	g->chunks[g->received].index = fl->index;
	g->chunks[g->received].len = fl->chunk_len;
	memcpy(g->chunks[g->received].data, fl->chunk, fl->chunk_len);
	if (++g->received == g->count)
		return group_complete(d, g);
	return 0;
}

static int accept_line(struct frame_decoder *d, const struct frame_line *fl)
{
	struct group *g = group_find(d, fl);

	if (!g)
		return -1;
	d->stats.frames++;
	return group_add(d, g, fl);
}

/*
 * The broken start of an earlier line plus the head of this one: try every
 * cut of the broken part (the kernel's text sits between the cut and its
 * end) and keep the first whole line that checks.
 */
static int try_repair(struct frame_decoder *d, const struct broken *b, const char *head,
		      size_t head_len, bool *done)
{
	char cand[2 * FRAME_LINE_MAX];
	struct frame_line fl;

	*done = false;
	for (size_t k = b->len; k >= 1; k--) {
		size_t take = head_len < FRAME_LINE_MAX - k ? head_len : FRAME_LINE_MAX - k;

		memcpy(cand, b->text, k);
		memcpy(cand + k, head, take);
		if (frame_parse_line(cand, k + take, &fl))
			continue;
		*done = true;
		d->stats.repaired++;
		if (b->counted_bad)
			d->stats.bad--;
		return accept_line(d, &fl);
	}
	return 0;
}

static const char *find_prefix(const char *s, size_t n)
{
	return memmem(s, n, FRAME_PREFIX, FRAME_PREFIX_LEN);
}

/*
 * The kernel's text can also cut our prefix itself ("@IO[ 1.2] md: ...").
 * Returns the longest match of the prefix's start at an '@' (the first of
 * equals: our text comes before the kernel's), 0 when there is none.
 */
static size_t partial_prefix(const char *s, size_t n, size_t *at)
{
	size_t best = 0;

	for (const char *p = s; (p = memchr(p, '@', (size_t)(s + n - p))); p++) {
		size_t m = 0;

		while (p + m < s + n && m < FRAME_PREFIX_LEN && p[m] == FRAME_PREFIX[m])
			m++;
		if (m > best) {
			best = m;
			*at = (size_t)(p - s);
		}
	}
	return best;
}

static void remember_broken(struct frame_decoder *d, const char *s, size_t n, bool counted_bad)
{
	struct broken *b;

	if (d->nbroken == FRAME_REPAIR_WINDOW) {
		memmove(d->broken, d->broken + 1, sizeof(d->broken[0]) * (FRAME_REPAIR_WINDOW - 1));
		d->nbroken--;
	}
	b = &d->broken[d->nbroken++];
	b->len = n < FRAME_LINE_MAX ? n : FRAME_LINE_MAX;
	memcpy(b->text, s, b->len);
	b->age = 0;
	b->counted_bad = counted_bad;
}

/* Offers this line's head to the broken lines before it; ages and drops them. */
static int continue_broken(struct frame_decoder *d, const char *head, size_t head_len,
			   bool ours_follows)
{
	int kept = 0;

	for (int i = d->nbroken - 1; i >= 0 && head_len; i--) {
		bool done;

		if (try_repair(d, &d->broken[i], head, head_len, &done))
			return -1;
		if (done) {
			d->broken[i].age = FRAME_REPAIR_WINDOW;
			break;
		}
	}
	/* Our lines come one after another: a line of ours ends the search. */
	for (int i = 0; i < d->nbroken; i++)
		if (!ours_follows && ++d->broken[i].age <= FRAME_REPAIR_WINDOW)
			d->broken[kept++] = d->broken[i];
	d->nbroken = kept;
	return 0;
}

static int process_line(struct frame_decoder *d, const char *s, size_t n)
{
	const char *end = s + n, *p = find_prefix(s, n);
	size_t at, m;

	if (!n)
		return 0;
	d->stats.lines++;
	if (continue_broken(d, s, p ? (size_t)(p - s) : n, p != NULL))
		return -1;
	while (p) {
		const char *next = find_prefix(p + 1, (size_t)(end - p - 1));
		struct frame_line fl;

		if (!frame_parse_line(p, (size_t)(end - p), &fl)) {
			if (accept_line(d, &fl))
				return -1;
		} else {
			d->stats.bad++;
			if (!next)
				remember_broken(d, p, (size_t)(end - p), true);
		}
		p = next;
	}
	if (!find_prefix(s, n) && (m = partial_prefix(s, n, &at)) > 0)
		remember_broken(d, s + at, m, false);
	return 0;
}

static int end_line(struct frame_decoder *d)
{
	int r = process_line(d, d->line, d->line_len);

	d->line_len = 0;
	return r;
}

/*
 * A line too long for the buffer: handle what is there, keep its last
 * FRAME_LINE_MAX characters to start the next piece (a line of ours is never
 * longer, so none is missed; one seen twice counts as a duplicate).
 */
static int overflow_line(struct frame_decoder *d)
{
	int r = process_line(d, d->line, d->line_len);

	memmove(d->line, d->line + d->line_len - FRAME_LINE_MAX, FRAME_LINE_MAX);
	d->line_len = FRAME_LINE_MAX;
	d->nbroken = 0;
	return r;
}

int frame_decoder_feed(struct frame_decoder *d, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	for (size_t i = 0; i < len && !d->failed; i++) {
		uint8_t c = p[i];

		/*
		 * Our lines are printable ASCII only, so dropping everything
		 * else (and whole escape sequences) cannot damage one of them.
		 */
		if (d->esc == S_ESC) {
			if (c == '[') {
				d->esc = S_CSI;
				continue;
			}
			if (c >= 0x20 && c <= 0x2f)
				continue; /* intermediate byte */
			d->esc = S_TEXT;
			if (c >= 0x30 && c <= 0x7e)
				continue; /* final byte */
		} else if (d->esc == S_CSI) {
			if (c >= 0x20 && c <= 0x3f)
				continue;
			d->esc = S_TEXT;
			if (c >= 0x40 && c <= 0x7e)
				continue;
		}
		if (c == '\n' || c == '\r') {
			if (end_line(d))
				d->failed = 1;
		} else if (c == 0x1b) {
			d->esc = S_ESC;
		} else if (c >= 0x20 && c < 0x7f) {
			if (d->line_len == LINE_CAP && overflow_line(d))
				d->failed = 1;
			d->line[d->line_len++] = (char)c;
		}
	}
	return d->failed ? -1 : 0;
}

static int by_seq(const void *a, const void *b)
{
	const struct group *x = *(struct group *const *)a, *y = *(struct group *const *)b;

	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->crc < y->crc ? -1 : x->crc > y->crc;
}

int frame_decoder_finish(struct frame_decoder *d)
{
	struct group **left;
	size_t n = 0;

	if (d->failed || end_line(d))
		return -1;
	left = malloc((d->ngroups ? d->ngroups : 1) * sizeof(*left));
	if (!left)
		return -1;
	for (size_t i = 0; i < d->groups_cap; i++)
		if (d->groups[i].state == G_PENDING)
			left[n++] = &d->groups[i];
	qsort(left, n, sizeof(*left), by_seq);
	for (size_t i = 0; i < n && !d->failed; i++) {
		struct group *g = left[i];
		struct frame_event ev = {.kind = FRAME_DAMAGED,
					 .seq = g->seq,
					 .len = g->length,
					 .chunks_seen = g->received,
					 .chunks_total = g->count,
					 .why = "lines missing or damaged (cut off, dropped bytes, "
						"bit errors)"};

		g->state = G_DROPPED;
		group_release(d, g);
		emit(d, &ev);
	}
	free(left);
	return d->failed ? -1 : 0;
}
