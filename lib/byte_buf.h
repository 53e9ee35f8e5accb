/* SPDX-License-Identifier: GPL-2.0 */
/* A growable byte buffer, and reading a whole file into one. */
#ifndef IOMATRIX_LIB_BYTE_BUF_H
#define IOMATRIX_LIB_BYTE_BUF_H

#include <stddef.h>

struct byte_buf {
	unsigned char *data;
	size_t len;
	size_t cap;
};

/* Both return 0, or -1 when memory runs out (len is then unchanged). */
int byte_buf_reserve(struct byte_buf *b, size_t more);
int byte_buf_append(struct byte_buf *b, const void *data, size_t len);
void byte_buf_free(struct byte_buf *b);

/*
 * The one whole-file reader: all of path into b (which must be empty),
 * refusing anything over max_len bytes. A NUL follows the data (not
 * counted in len), so text can be parsed in place. Returns 0, or an errno
 * value (the open's or the read's, EFBIG past max_len, ENOMEM) with b
 * left empty: callers word their own messages.
 */
int byte_buf_load(struct byte_buf *b, const char *path, size_t max_len);

/* byte_buf_load, or -1 with "path: cause" in err. */
int byte_buf_read_file(struct byte_buf *b, const char *path, size_t max_len, char *err,
		       size_t errlen);

#endif
