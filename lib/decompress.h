/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decompressing whole buffers: compressed kernel modules (.ko.xz, .ko.zst,
 * .ko.gz) go into the image decompressed, tests read images back, and
 * `iomatrix qemu` takes the vmlinux out of a bzImage.
 */
#ifndef IOMATRIX_LIB_DECOMPRESS_H
#define IOMATRIX_LIB_DECOMPRESS_H

#include <stddef.h>

#include "lib/byte_buf.h"
#include "lib/compress.h"

/* The format a buffer's first bytes announce; COMP_NONE if none of ours. */
enum compression compression_from_magic(const void *buf, size_t len);

/*
 * Decompress one complete stream (concatenated zstd frames, xz streams or
 * gzip members too) of kind id from in into out, refusing more than
 * max_out bytes of output. what names the input in messages. Returns 0, or
 * -1 with "what: cause" in err.
 */
int decompress_buffer(enum compression id, const void *in, size_t len, struct byte_buf *out,
		      size_t max_out, const char *what, char *err, size_t errlen);

/*
 * The same for the first stream (zstd frame, xz stream, gzip member) alone,
 * ignoring whatever follows it: a bzImage payload ends with its
 * uncompressed size (le32) after the stream.
 */
int decompress_first_stream(enum compression id, const void *in, size_t len,
			    struct byte_buf *out, size_t max_out, const char *what, char *err,
			    size_t errlen);

#endif
