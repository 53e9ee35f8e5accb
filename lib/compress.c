// SPDX-License-Identifier: GPL-2.0
/* Streaming compression of the image; see compress.h. */
#include "lib/compress.h"

#include <errno.h>
#include <lzma.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "lib/errmsg.h"

/*
 * zstd 19: the best ratio without --ultra's large windows, which would make
 * the kernel allocate a large window while it unpacks. xz: preset 9 but a
 * 16 MiB dictionary, enough for the whole image. gzip: 9.
 */
#define ZSTD_LEVEL     19
#define XZ_PRESET      9
#define XZ_DICT_SIZE   (16u << 20)
#define GZIP_LEVEL     9
#define OUT_CHUNK      (1u << 17)

const struct compression_kind compression_kinds[COMP_COUNT] = {
	[COMP_NONE] = { COMP_NONE, "none", "", NULL, "uncompressed" },
	[COMP_GZIP] = { COMP_GZIP, "gzip", "gz", "CONFIG_RD_GZIP", "gzip -9, no name or time" },
	[COMP_XZ] = { COMP_XZ, "xz", "xz", "CONFIG_RD_XZ", "xz -9, 16 MiB dictionary, CRC32" },
	[COMP_ZSTD] = { COMP_ZSTD, "zstd", "zst", "CONFIG_RD_ZSTD", "zstd -19, single thread" },
};

const struct compression_kind *compression_by_name(const char *name)
{
	for (int i = 0; i < COMP_COUNT; i++)
		if (!strcmp(compression_kinds[i].name, name))
			return &compression_kinds[i];
	return NULL;
}

struct compressor {
	enum compression id;
	int fd;
	uint64_t bytes_out;
	unsigned char out[OUT_CHUNK];
	ZSTD_CCtx *zstd;
	lzma_stream xz;
	z_stream gz;
	bool xz_live, gz_live;
};

static int write_all(struct compressor *c, const void *buf, size_t len, char *err,
		     size_t errlen)
{
	const unsigned char *p = buf;

	while (len) {
		ssize_t n = write(c->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errmsg(err, errlen, "writing the image: %s", strerror(errno));
		p += n;
		len -= (size_t)n;
		c->bytes_out += (uint64_t)n;
	}
	return 0;
}

struct compressor *compressor_new(enum compression id, int fd, char *err, size_t errlen)
{
	struct compressor *c = calloc(1, sizeof(*c));
	lzma_options_lzma lz;
	lzma_filter filters[2];

	if (!c) {
		errmsg(err, errlen, "compressor: out of memory");
		return NULL;
	}
	c->id = id;
	c->fd = fd;
	switch (id) {
	case COMP_NONE:
		return c;
	case COMP_ZSTD:
		c->zstd = ZSTD_createCCtx();
		if (!c->zstd)
			goto nomem;
		/* nbWorkers stays 0: one thread, so the output never depends on timing. */
		if (ZSTD_isError(ZSTD_CCtx_setParameter(c->zstd, ZSTD_c_compressionLevel,
							ZSTD_LEVEL)) ||
		    ZSTD_isError(ZSTD_CCtx_setParameter(c->zstd, ZSTD_c_checksumFlag, 1))) {
			errmsg(err, errlen, "zstd: cannot set level %d", ZSTD_LEVEL);
			goto fail;
		}
		return c;
	case COMP_XZ:
		if (lzma_lzma_preset(&lz, XZ_PRESET)) {
			errmsg(err, errlen, "xz: preset %d unsupported", XZ_PRESET);
			goto fail;
		}
		lz.dict_size = XZ_DICT_SIZE;
		filters[0] = (lzma_filter){ .id = LZMA_FILTER_LZMA2, .options = &lz };
		filters[1] = (lzma_filter){ .id = LZMA_VLI_UNKNOWN };
		c->xz = (lzma_stream)LZMA_STREAM_INIT;
		/* The kernel's xz decoder checks CRC32, not the default CRC64. */
		if (lzma_stream_encoder(&c->xz, filters, LZMA_CHECK_CRC32) != LZMA_OK) {
			errmsg(err, errlen, "xz: cannot start the encoder");
			goto fail;
		}
		c->xz_live = true;
		return c;
	case COMP_GZIP:
		/* windowBits 15 + 16: a gzip wrapper, whose header zlib writes with
		 * mtime 0 and no file name. */
		if (deflateInit2(&c->gz, GZIP_LEVEL, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) !=
		    Z_OK) {
			errmsg(err, errlen, "gzip: cannot start the encoder");
			goto fail;
		}
		c->gz_live = true;
		return c;
	case COMP_COUNT:
		break;
	}
	errmsg(err, errlen, "compressor: unknown kind %d", (int)id);
	goto fail;
nomem:
	errmsg(err, errlen, "compressor: out of memory");
fail:
	compressor_free(c);
	return NULL;
}

/* One step of each library, in the shape zstd's streaming API has. */
static int zstd_step(struct compressor *c, const void *buf, size_t len, ZSTD_EndDirective mode,
		     char *err, size_t errlen)
{
	ZSTD_inBuffer in = { buf, len, 0 };

	for (;;) {
		ZSTD_outBuffer out = { c->out, sizeof(c->out), 0 };
		size_t left = ZSTD_compressStream2(c->zstd, &out, &in, mode);

		if (ZSTD_isError(left))
			return errmsg(err, errlen, "zstd: %s", ZSTD_getErrorName(left));
		if (write_all(c, c->out, out.pos, err, errlen))
			return -1;
		if (mode == ZSTD_e_continue ? in.pos == in.size : left == 0)
			return 0;
	}
}

static int xz_step(struct compressor *c, const void *buf, size_t len, lzma_action action,
		   char *err, size_t errlen)
{
	c->xz.next_in = buf;
	c->xz.avail_in = len;
	for (;;) {
		lzma_ret r;

		c->xz.next_out = c->out;
		c->xz.avail_out = sizeof(c->out);
		r = lzma_code(&c->xz, action);
		if (r != LZMA_OK && r != LZMA_STREAM_END)
			return errmsg(err, errlen, "xz: encoder error %d", (int)r);
		if (write_all(c, c->out, sizeof(c->out) - c->xz.avail_out, err, errlen))
			return -1;
		if (action == LZMA_RUN ? c->xz.avail_in == 0 : r == LZMA_STREAM_END)
			return 0;
	}
}

static int gz_step(struct compressor *c, const void *buf, size_t len, int flush, char *err,
		   size_t errlen)
{
	c->gz.next_in = (Bytef *)buf;
	c->gz.avail_in = (uInt)len;
	for (;;) {
		int r;

		c->gz.next_out = c->out;
		c->gz.avail_out = sizeof(c->out);
		r = deflate(&c->gz, flush);
		if (r != Z_OK && r != Z_STREAM_END && r != Z_BUF_ERROR)
			return errmsg(err, errlen, "gzip: deflate error %d", r);
		if (write_all(c, c->out, sizeof(c->out) - c->gz.avail_out, err, errlen))
			return -1;
		if (flush == Z_FINISH ? r == Z_STREAM_END
				      : c->gz.avail_in == 0 && c->gz.avail_out != 0)
			return 0;
	}
}

/* Feed len bytes (which deflate takes as uInt: so in pieces). */
static int gz_feed(struct compressor *c, const unsigned char *p, size_t len, char *err,
		   size_t errlen)
{
	while (len) {
		size_t n = len > (1u << 30) ? (1u << 30) : len;

		if (gz_step(c, p, n, Z_NO_FLUSH, err, errlen))
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

int compressor_write(struct compressor *c, const void *buf, size_t len, char *err,
		     size_t errlen)
{
	if (!len)
		return 0;
	switch (c->id) {
	case COMP_NONE:
		return write_all(c, buf, len, err, errlen);
	case COMP_ZSTD:
		return zstd_step(c, buf, len, ZSTD_e_continue, err, errlen);
	case COMP_XZ:
		return xz_step(c, buf, len, LZMA_RUN, err, errlen);
	case COMP_GZIP:
		return gz_feed(c, buf, len, err, errlen);
	case COMP_COUNT:
		break;
	}
	return errmsg(err, errlen, "compressor: unknown kind");
}

int compressor_flush(struct compressor *c, char *err, size_t errlen)
{
	switch (c->id) {
	case COMP_NONE:
		return 0;
	case COMP_ZSTD:
		return zstd_step(c, NULL, 0, ZSTD_e_flush, err, errlen);
	case COMP_XZ:
		return xz_step(c, NULL, 0, LZMA_SYNC_FLUSH, err, errlen);
	case COMP_GZIP:
		return gz_step(c, NULL, 0, Z_SYNC_FLUSH, err, errlen);
	case COMP_COUNT:
		break;
	}
	return errmsg(err, errlen, "compressor: unknown kind");
}

int compressor_finish(struct compressor *c, char *err, size_t errlen)
{
	switch (c->id) {
	case COMP_NONE:
		return 0;
	case COMP_ZSTD:
		return zstd_step(c, NULL, 0, ZSTD_e_end, err, errlen);
	case COMP_XZ:
		return xz_step(c, NULL, 0, LZMA_FINISH, err, errlen);
	case COMP_GZIP:
		return gz_step(c, NULL, 0, Z_FINISH, err, errlen);
	case COMP_COUNT:
		break;
	}
	return errmsg(err, errlen, "compressor: unknown kind");
}

uint64_t compressor_bytes_out(const struct compressor *c)
{
	return c->bytes_out;
}

void compressor_free(struct compressor *c)
{
	if (!c)
		return;
	ZSTD_freeCCtx(c->zstd);
	if (c->xz_live)
		lzma_end(&c->xz);
	if (c->gz_live)
		deflateEnd(&c->gz);
	free(c);
}
