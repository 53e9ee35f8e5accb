/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Compressing the image as it is written, with the libraries (no external
 * programs), deterministically: zstd single-threaded at a fixed level, xz
 * with a fixed preset and the CRC32 check the kernel's decoder knows, gzip
 * with no timestamp and no file name.
 */
#ifndef IOMATRIX_LIB_COMPRESS_H
#define IOMATRIX_LIB_COMPRESS_H

#include <stddef.h>
#include <stdint.h>

enum compression { COMP_NONE, COMP_GZIP, COMP_XZ, COMP_ZSTD, COMP_COUNT };

struct compression_kind {
	enum compression id;
	const char *name;	/* as --compress takes it */
	const char *ext;	/* file name suffix, without the dot; "" for none */
	const char *rd_config;	/* the kernel option that lets it unpack this, or NULL */
	const char *setting;	/* the fixed setting used, for the report */
};

/* Indexed by enum compression. */
extern const struct compression_kind compression_kinds[COMP_COUNT];

/* NULL when name is not one of the table's. */
const struct compression_kind *compression_by_name(const char *name);

struct compressor;

/* Output goes to fd. Returns NULL with a message in err on failure. */
struct compressor *compressor_new(enum compression id, int fd, char *err, size_t errlen);
int compressor_write(struct compressor *c, const void *buf, size_t len, char *err,
		     size_t errlen);
/* Push out everything written so far (a sync point), so the output size
 * so far covers all input so far. */
int compressor_flush(struct compressor *c, char *err, size_t errlen);
/* End the stream. */
int compressor_finish(struct compressor *c, char *err, size_t errlen);
uint64_t compressor_bytes_out(const struct compressor *c);
void compressor_free(struct compressor *c);

#endif
