// SPDX-License-Identifier: GPL-2.0
/* A growable byte buffer; see byte_buf.h. */
#include "lib/byte_buf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/errmsg.h"

int byte_buf_reserve(struct byte_buf *b, size_t more)
{
	size_t cap = b->cap ? b->cap : 4096;
	unsigned char *p;

	if (more > SIZE_MAX - b->len)
		return -1;
	if (b->len + more <= b->cap)
		return 0;
	while (cap < b->len + more) {
		if (cap > SIZE_MAX / 2)
			return -1;
		cap *= 2;
	}
	p = realloc(b->data, cap);
	if (!p)
		return -1;
	b->data = p;
	b->cap = cap;
	return 0;
}

int byte_buf_append(struct byte_buf *b, const void *data, size_t len)
{
	if (!len)
		return 0;
	if (byte_buf_reserve(b, len))
		return -1;
	memcpy(b->data + b->len, data, len);
	b->len += len;
	return 0;
}

void byte_buf_free(struct byte_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

int byte_buf_read_file(struct byte_buf *b, const char *path, size_t max_len, char *err,
		       size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret = -1;

	if (fd < 0)
		return errmsg(err, errlen, "%s: %s", path, strerror(errno));
	for (;;) {
		ssize_t n;

		if (byte_buf_reserve(b, 65536)) {
			errmsg(err, errlen, "%s: out of memory", path);
			goto out;
		}
		n = read(fd, b->data + b->len, b->cap - b->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			errmsg(err, errlen, "%s: %s", path, strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		b->len += (size_t)n;
		if (b->len > max_len) {
			errmsg(err, errlen, "%s: larger than %zu bytes", path, max_len);
			goto out;
		}
	}
	ret = 0;
out:
	close(fd);
	return ret;
}
