// SPDX-License-Identifier: GPL-2.0
/* A growable byte buffer; see byte_buf.h. */
#include "lib/byte_buf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

int byte_buf_load(struct byte_buf *b, const char *path, size_t max_len)
{
	size_t hint = 65536;
	struct stat st;
	int e = 0, fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return errno;
	if (fstat(fd, &st)) {
		e = errno;
		goto out;
	}
	/* A regular file says its size: refuse it unread, or read it in one go. */
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		if ((uintmax_t)st.st_size > max_len) {
			e = EFBIG;
			goto out;
		}
		hint = (size_t)st.st_size + 1;
	}
	if (byte_buf_reserve(b, hint)) {
		e = ENOMEM;
		goto out;
	}
	for (;;) {
		size_t room;
		ssize_t n;

		if (b->len == b->cap && byte_buf_reserve(b, 65536)) {
			e = ENOMEM;
			goto out;
		}
		/* At most one byte past the limit: enough to know it is exceeded. */
		room = b->cap - b->len;
		if (max_len - b->len < room)
			room = max_len - b->len + 1;
		n = read(fd, b->data + b->len, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			e = errno;
			goto out;
		}
		if (n == 0)
			break;
		b->len += (size_t)n;
		if (b->len > max_len) {
			e = EFBIG;
			goto out;
		}
	}
	if (b->len == b->cap && byte_buf_reserve(b, 1))
		e = ENOMEM;
	else
		b->data[b->len] = '\0';
out:
	close(fd);
	if (e)
		byte_buf_free(b);
	return e;
}

int byte_buf_read_file(struct byte_buf *b, const char *path, size_t max_len, char *err,
		       size_t errlen)
{
	int e = byte_buf_load(b, path, max_len);

	if (e == EFBIG)
		return errmsg(err, errlen, "%s: larger than %zu bytes", path, max_len);
	if (e == ENOMEM)
		return errmsg(err, errlen, "%s: out of memory", path);
	if (e)
		return errmsg(err, errlen, "%s: %s", path, strerror(e));
	return 0;
}
