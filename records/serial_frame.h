/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Records over a console: each record (any bytes, a JSON object in practice)
 * becomes lines of printable ASCII that survive a serial console, printk
 * noise and a capture by a lab system. docs/records.md ("Serial framing") is
 * the specification; in short, one line per 96-byte chunk:
 *
 *   @IOMX1 <seq> <index> <count> <length> <record-crc> <payload> <line-crc>
 *
 * seq, index (from 0), count and length (bytes of the record) are decimal;
 * record-crc is the CRC-32 of the whole record and line-crc the CRC-32 of the
 * line from '@' through the blank before it, both 8 lowercase hex digits;
 * payload is the chunk in base64. A line is at most FRAME_LINE_MAX characters
 * before its newline, well under a console's or /dev/kmsg's limits.
 *
 * The reader of these lines is frame_decoder.h.
 */
#ifndef IOMATRIX_RECORDS_SERIAL_FRAME_H
#define IOMATRIX_RECORDS_SERIAL_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define FRAME_PREFIX	 "@IOMX1 "
#define FRAME_PREFIX_LEN 7
#define FRAME_CHUNK	 96	    /* record bytes per line: 128 base64 characters */
#define FRAME_RECORD_MAX (8u << 20) /* bytes, as RLOG_RECORD_MAX; a record is far smaller */
#define FRAME_LINE_MAX	 190	    /* characters, newline not counted */

/* One line, parsed and checked. payload points into the caller's buffer. */
struct frame_line {
	uint32_t seq;
	uint32_t index;
	uint32_t count;
	uint32_t length;
	uint32_t record_crc;
	uint32_t chunk_len; /* decoded bytes in this line */
	uint8_t chunk[FRAME_CHUNK];
	size_t line_len; /* characters from '@' through line-crc */
};

/* Lines a record of len bytes takes (len >= 1). */
uint32_t frame_chunk_count(size_t len);

/*
 * Writes line `index` of the record into buf, with a trailing '\n' and a NUL;
 * returns its length including the newline. rec_crc is crc32_ieee(0, rec, len).
 */
size_t frame_format_line(char buf[FRAME_LINE_MAX + 2], uint32_t seq, const void *rec, size_t len,
			 uint32_t rec_crc, uint32_t index);

/*
 * Parses a line that starts with FRAME_PREFIX at s[0]. Characters after
 * line-crc are ignored (a console may append anything). Returns 0 and fills
 * *out when every field is well-formed and both CRCs the line can check
 * hold, -1 otherwise: a line that parses is exactly one the writer wrote.
 */
int frame_parse_line(const char *s, size_t n, struct frame_line *out);

/*
 * Writes a record as lines to fd (a tty, a pipe, a file): one write() per
 * line so that nothing of ours splits a line, resuming after partial writes
 * and EINTR. Returns 0, or -errno (-EINVAL for len 0 or > FRAME_RECORD_MAX).
 */
int frame_write_record(int fd, uint32_t seq, const void *rec, size_t len);

/*
 * The same through /dev/kmsg, one kmsg record per line, at syslog level
 * `level` (0-7): the kernel then never prints its own messages inside our
 * lines. The console shows a line only when level < console_loglevel.
 * The kernel drops user writes beyond 10 per 5 s silently unless
 * printk.devkmsg=on, which frame_kmsg_open() arranges.
 */
int frame_write_record_kmsg(int fd, int level, uint32_t seq, const void *rec, size_t len);

/*
 * Switches /proc/sys/kernel/printk_devkmsg to "on" (unless the command line
 * locked it) and opens /dev/kmsg for writing. Returns the fd, or -1 with
 * the cause in err.
 */
int frame_kmsg_open(char *err, size_t errlen);

#endif
