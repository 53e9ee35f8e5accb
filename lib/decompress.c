// SPDX-License-Identifier: GPL-2.0
/* Whole-buffer decompression; see decompress.h. */
#include "lib/decompress.h"

#include <lzma.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "lib/errmsg.h"

#define STEP (1u << 18)

enum compression compression_from_magic(const void *buf, size_t len)
{
	static const struct {
		enum compression id;
		size_t len;
		const char *magic;
	} magics[] = {
		{ COMP_ZSTD, 4, "\x28\xb5\x2f\xfd" },
		{ COMP_XZ, 6, "\xfd" "7zXZ\0" },
		{ COMP_GZIP, 2, "\x1f\x8b" },
	};

	for (size_t i = 0; i < sizeof(magics) / sizeof(magics[0]); i++)
		if (len >= magics[i].len && !memcmp(buf, magics[i].magic, magics[i].len))
			return magics[i].id;
	return COMP_NONE;
}

/*
 * Room for the next step of output: never more than one byte past
 * max_out, so that a stream longer than allowed is always caught, and one
 * exactly max_out long is not refused.
 */
static int room(struct byte_buf *out, size_t max_out, size_t *avail, const char *what,
		char *err, size_t errlen)
{
	if (out->len > max_out)
		return errmsg(err, errlen, "%s: decompresses to more than %zu bytes", what,
			      max_out);
	if (byte_buf_reserve(out, STEP))
		return errmsg(err, errlen, "%s: out of memory", what);
	*avail = out->cap - out->len;
	if (max_out - out->len < *avail)
		*avail = max_out - out->len + 1;
	return 0;
}

static int unzstd(const void *in, size_t len, bool first_only, struct byte_buf *out,
		  size_t max_out, const char *what, char *err, size_t errlen)
{
	ZSTD_DCtx *d = ZSTD_createDCtx();
	ZSTD_inBuffer ib = { in, len, 0 };
	int ret = -1;

	if (!d)
		return errmsg(err, errlen, "%s: out of memory", what);
	/* A kernel is compressed with --long (windows up to 2^31): allow it. */
	ZSTD_DCtx_setParameter(d, ZSTD_d_windowLogMax, 31);
	for (;;) {
		size_t in_before = ib.pos, left, avail;
		ZSTD_outBuffer ob;

		if (room(out, max_out, &avail, what, err, errlen))
			goto out;
		ob = (ZSTD_outBuffer){ out->data + out->len, avail, 0 };
		left = ZSTD_decompressStream(d, &ob, &ib);
		if (ZSTD_isError(left)) {
			errmsg(err, errlen, "%s: zstd: %s", what, ZSTD_getErrorName(left));
			goto out;
		}
		out->len += ob.pos;
		/* 0: a frame ended and all of it is out; the input may hold another. */
		if (!left && (first_only || ib.pos == ib.size))
			break;
		if (!ob.pos && ib.pos == in_before) {
			errmsg(err, errlen, "%s: zstd: truncated input", what);
			goto out;
		}
	}
	ret = 0;
out:
	ZSTD_freeDCtx(d);
	return ret;
}

static int unxz(const void *in, size_t len, bool first_only, struct byte_buf *out,
		size_t max_out, const char *what, char *err, size_t errlen)
{
	lzma_stream s = LZMA_STREAM_INIT;
	int ret = -1;

	/* Not concatenated, the decoder stops at the first stream's end. */
	if (lzma_stream_decoder(&s, UINT64_MAX, first_only ? 0 : LZMA_CONCATENATED) != LZMA_OK)
		return errmsg(err, errlen, "%s: xz: cannot start the decoder", what);
	s.next_in = in;
	s.avail_in = len;
	for (;;) {
		lzma_ret r;

		if (room(out, max_out, &s.avail_out, what, err, errlen))
			goto out;
		s.next_out = out->data + out->len;
		r = lzma_code(&s, LZMA_FINISH);
		out->len = (size_t)(s.next_out - out->data);
		if (r == LZMA_STREAM_END)
			break;
		if (r != LZMA_OK) {
			errmsg(err, errlen, "%s: xz: %s", what,
			       r == LZMA_BUF_ERROR ? "truncated input" : "corrupt data");
			goto out;
		}
	}
	ret = 0;
out:
	lzma_end(&s);
	return ret;
}

static int ungzip(const void *in, size_t len, bool first_only, struct byte_buf *out,
		  size_t max_out, const char *what, char *err, size_t errlen)
{
	z_stream z;
	const unsigned char *p = in;
	int ret = -1;

	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 15 + 16) != Z_OK)
		return errmsg(err, errlen, "%s: gzip: cannot start the decoder", what);
	if (len > UINT32_MAX) {
		errmsg(err, errlen, "%s: gzip input over 4 GiB", what);
		goto out;
	}
	z.next_in = (Bytef *)p;
	z.avail_in = (uInt)len;
	for (;;) {
		size_t avail;
		int r;

		if (room(out, max_out, &avail, what, err, errlen))
			goto out;
		z.next_out = out->data + out->len;
		z.avail_out = (uInt)(avail > UINT32_MAX ? UINT32_MAX : avail);
		r = inflate(&z, Z_NO_FLUSH);
		out->len = (size_t)(z.next_out - out->data);
		if (r == Z_STREAM_END) {
			if (first_only || !z.avail_in)
				break;
			/* Another gzip member follows. */
			if (inflateReset(&z) != Z_OK) {
				errmsg(err, errlen, "%s: gzip: cannot reset", what);
				goto out;
			}
			continue;
		}
		if (r == Z_BUF_ERROR && !z.avail_in) {
			errmsg(err, errlen, "%s: gzip: truncated input", what);
			goto out;
		}
		if (r != Z_OK && r != Z_BUF_ERROR) {
			errmsg(err, errlen, "%s: gzip: %s", what, z.msg ? z.msg : "corrupt data");
			goto out;
		}
	}
	ret = 0;
out:
	inflateEnd(&z);
	return ret;
}

static int decompress(enum compression id, const void *in, size_t len, bool first_only,
		      struct byte_buf *out, size_t max_out, const char *what, char *err,
		      size_t errlen)
{
	int ret;

	if (compression_from_magic(in, len) != id)
		return errmsg(err, errlen, "%s: not %s data (wrong magic bytes)", what,
			      compression_kinds[id < COMP_COUNT ? id : COMP_NONE].name);
	switch (id) {
	case COMP_ZSTD:
		ret = unzstd(in, len, first_only, out, max_out, what, err, errlen);
		break;
	case COMP_XZ:
		ret = unxz(in, len, first_only, out, max_out, what, err, errlen);
		break;
	case COMP_GZIP:
		ret = ungzip(in, len, first_only, out, max_out, what, err, errlen);
		break;
	default:
		return errmsg(err, errlen, "%s: nothing to decompress", what);
	}
	/* The last step may have ended the stream one byte past the limit. */
	if (!ret && out->len > max_out)
		return errmsg(err, errlen, "%s: decompresses to more than %zu bytes", what,
			      max_out);
	return ret;
}

int decompress_buffer(enum compression id, const void *in, size_t len, struct byte_buf *out,
		      size_t max_out, const char *what, char *err, size_t errlen)
{
	return decompress(id, in, len, false, out, max_out, what, err, errlen);
}

int decompress_first_stream(enum compression id, const void *in, size_t len,
			    struct byte_buf *out, size_t max_out, const char *what, char *err,
			    size_t errlen)
{
	return decompress(id, in, len, true, out, max_out, what, err, errlen);
}
