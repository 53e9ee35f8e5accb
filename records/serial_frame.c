// SPDX-License-Identifier: GPL-2.0
/* The serial line format: format, parse, write; see serial_frame.h. */
#include "records/serial_frame.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/base64.h"
#include "lib/crc32.h"

static const char hexdigits[] = "0123456789abcdef";

uint32_t frame_chunk_count(size_t len)
{
	return (uint32_t)((len + FRAME_CHUNK - 1) / FRAME_CHUNK);
}

/* Bytes of the record in chunk `index`: FRAME_CHUNK but for the last. */
static uint32_t chunk_len(uint32_t length, uint32_t count, uint32_t index)
{
	return index + 1 < count ? FRAME_CHUNK : length - (count - 1) * FRAME_CHUNK;
}

static size_t put_hex32(char *p, uint32_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = hexdigits[(v >> (28 - 4 * i)) & 15];
	return 8;
}

size_t frame_format_line(char buf[FRAME_LINE_MAX + 2], uint32_t seq, const void *rec, size_t len,
			 uint32_t rec_crc, uint32_t index)
{
	uint32_t count = frame_chunk_count(len);
	uint32_t n = chunk_len((uint32_t)len, count, index);
	size_t o;

	o = (size_t)snprintf(buf, FRAME_LINE_MAX + 2, FRAME_PREFIX "%u %u %u %zu ", seq, index,
			     count, len);
	o += put_hex32(buf + o, rec_crc);
	buf[o++] = ' ';
	o += base64_encode(buf + o, (const uint8_t *)rec + (size_t)index * FRAME_CHUNK, n);
	buf[o++] = ' ';
	o += put_hex32(buf + o, crc32_ieee(0, buf, o));
	buf[o++] = '\n';
	buf[o] = '\0';
	return o;
}

/*
 * A canonical decimal (no sign, no leading zero) followed by one blank.
 * Advances *pos past the blank.
 */
static int parse_dec(const char *s, size_t n, size_t *pos, uint32_t *out)
{
	size_t i = *pos, start = i;
	uint64_t v = 0;

	while (i < n && s[i] >= '0' && s[i] <= '9' && i - start < 10)
		v = v * 10 + (uint64_t)(s[i++] - '0');
	if (i == start || i >= n || s[i] != ' ' || v > UINT32_MAX)
		return -1;
	if (s[start] == '0' && i - start > 1)
		return -1;
	*out = (uint32_t)v;
	*pos = i + 1;
	return 0;
}

/* Exactly 8 lowercase hex digits. */
static int parse_hex32(const char *s, size_t n, size_t pos, uint32_t *out)
{
	uint32_t v = 0;

	if (pos + 8 > n)
		return -1;
	for (int i = 0; i < 8; i++) {
		const char *d = memchr(hexdigits, s[pos + i], 16);

		if (!d)
			return -1;
		v = v << 4 | (uint32_t)(d - hexdigits);
	}
	*out = v;
	return 0;
}

int frame_parse_line(const char *s, size_t n, struct frame_line *out)
{
	size_t pos = FRAME_PREFIX_LEN, b64;
	uint32_t line_crc;

	if (n < FRAME_PREFIX_LEN || memcmp(s, FRAME_PREFIX, FRAME_PREFIX_LEN))
		return -1;
	if (parse_dec(s, n, &pos, &out->seq) || parse_dec(s, n, &pos, &out->index) ||
	    parse_dec(s, n, &pos, &out->count) || parse_dec(s, n, &pos, &out->length))
		return -1;
	if (out->length == 0 || out->length > FRAME_RECORD_MAX ||
	    out->count != frame_chunk_count(out->length) || out->index >= out->count)
		return -1;
	if (parse_hex32(s, n, pos, &out->record_crc) || pos + 8 >= n || s[pos + 8] != ' ')
		return -1;
	pos += 9;
	out->chunk_len = chunk_len(out->length, out->count, out->index);
	b64 = base64_encoded_len(out->chunk_len);
	if (pos + b64 + 1 + 8 > n || s[pos + b64] != ' ')
		return -1;
	if (parse_hex32(s, n, pos + b64 + 1, &line_crc))
		return -1;
	if (crc32_ieee(0, s, pos + b64 + 1) != line_crc)
		return -1;
	if (base64_decode(out->chunk, sizeof(out->chunk), s + pos, b64) != (long)out->chunk_len)
		return -1;
	/* A one-line record carries all of itself: check its CRC here too. */
	if (out->count == 1 && crc32_ieee(0, out->chunk, out->chunk_len) != out->record_crc)
		return -1;
	out->line_len = pos + b64 + 1 + 8;
	return 0;
}

/* Waits until fd takes output again (a non-blocking tty with a full buffer). */
static int wait_writable(int fd)
{
	struct pollfd p = {.fd = fd, .events = POLLOUT};

	for (;;) {
		int r = poll(&p, 1, -1);

		if (r > 0)
			return 0;
		if (r < 0 && errno != EINTR)
			return -errno;
	}
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t w = write(fd, buf, len);

		if (w < 0) {
			int r;

			if (errno == EINTR)
				continue;
			if (errno != EAGAIN)
				return -errno;
			r = wait_writable(fd);
			if (r)
				return r;
			continue;
		}
		if (w == 0)
			return -EIO;
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

/* /dev/kmsg takes one record per write(), whole or not at all. */
static int write_kmsg(int fd, const char *buf, size_t len)
{
	for (;;) {
		ssize_t w = write(fd, buf, len);

		if (w == (ssize_t)len)
			return 0;
		if (w >= 0)
			return -EIO;
		if (errno != EINTR)
			return -errno;
	}
}

static int write_lines(int fd, int kmsg_level, uint32_t seq, const void *rec, size_t len)
{
	/* room for "<N>" in front of the line */
	char buf[4 + FRAME_LINE_MAX + 2];
	uint32_t count, crc;

	if (len == 0 || len > FRAME_RECORD_MAX)
		return -EINVAL;
	if (kmsg_level > 7)
		return -EINVAL;
	count = frame_chunk_count(len);
	crc = crc32_ieee(0, rec, len);
	for (uint32_t i = 0; i < count; i++) {
		int r;

		if (kmsg_level >= 0) {
			buf[0] = '<';
			buf[1] = (char)('0' + kmsg_level);
			buf[2] = '>';
			r = write_kmsg(fd, buf,
				       3 + frame_format_line(buf + 3, seq, rec, len, crc, i));
		} else {
			r = write_all(fd, buf, frame_format_line(buf, seq, rec, len, crc, i));
		}
		if (r)
			return r;
	}
	return 0;
}

int frame_write_record(int fd, uint32_t seq, const void *rec, size_t len)
{
	return write_lines(fd, -1, seq, rec, len);
}

int frame_write_record_kmsg(int fd, int level, uint32_t seq, const void *rec, size_t len)
{
	if (level < 0)
		return -EINVAL;
	return write_lines(fd, level, seq, rec, len);
}

/* Reads the knob back: "on" is all that matters, however it got there. */
static bool devkmsg_is_on(const char *knob)
{
	char val[16] = "";
	int fd = open(knob, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, val, sizeof(val) - 1);
	close(fd);
	return n >= 2 && !strncmp(val, "on", 2) && (n == 2 || val[2] == '\n');
}

int frame_kmsg_open(char *err, size_t errlen)
{
	static const char knob[] = "/proc/sys/kernel/printk_devkmsg";
	int fd, kfd;

	/*
	 * Without "on" the kernel keeps 10 of our lines per 5 s and drops the
	 * rest while write() reports success. printk.devkmsg= on the command
	 * line locks the knob and the write fails: fine if it says "on".
	 */
	fd = open(knob, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		(void)!write(fd, "on\n", 3);
		close(fd);
	}
	if (!devkmsg_is_on(knob)) {
		snprintf(err, errlen,
			 "%s is not \"on\" and cannot be set: the kernel would "
			 "drop most result lines (boot with printk.devkmsg=on)",
			 knob);
		return -1;
	}
	kfd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (kfd < 0) {
		snprintf(err, errlen, "/dev/kmsg: %s", strerror(errno));
		return -1;
	}
	return kfd;
}
