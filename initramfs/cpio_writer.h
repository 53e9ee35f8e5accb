/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A writer for the "newc" cpio format the kernel unpacks as initramfs
 * (Documentation/driver-api/early-userspace/buffer-format.rst). Every entry
 * goes through one function that writes one header. The writer sets what
 * makes an archive reproducible: uid and gid 0, one fixed mtime, inode
 * numbers counted up from 1 in the order entries are written, nlink 1 for
 * everything but directories (so no entry is ever a hard link).
 *
 * Names are stored without a leading '/', as the kernel's gen_init_cpio
 * does. The caller writes entries in an order where a directory comes
 * before what it holds.
 */
#ifndef IOMATRIX_INITRAMFS_CPIO_WRITER_H
#define IOMATRIX_INITRAMFS_CPIO_WRITER_H

#include <stddef.h>
#include <stdint.h>

/* Where the archive's bytes go: returns 0, or -1 with a message in err. */
typedef int (*cpio_sink_fn)(void *ctx, const void *buf, size_t len, char *err, size_t errlen);

struct cpio_writer {
	cpio_sink_fn sink;
	void *sink_ctx;
	uint32_t mtime;
	uint32_t next_ino;
	uint64_t offset;	  /* bytes written so far */
	uint64_t data_left;	  /* bytes the open file entry still expects */
	const char *open_name;	  /* the file entry data is being written for */
};

void cpio_writer_init(struct cpio_writer *w, cpio_sink_fn sink, void *sink_ctx, uint32_t mtime);

/* Each returns 0, or -1 with "cpio entry NAME: cause" (or the sink's) in err. */
int cpio_write_dir(struct cpio_writer *w, const char *name, uint32_t perm, char *err,
		   size_t errlen);
int cpio_write_symlink(struct cpio_writer *w, const char *name, const char *target, char *err,
		       size_t errlen);
/* mode_type is S_IFCHR or S_IFBLK. */
int cpio_write_node(struct cpio_writer *w, const char *name, uint32_t mode_type, uint32_t perm,
		    uint32_t major, uint32_t minor, char *err, size_t errlen);
/* A regular file whose contents are in memory. */
int cpio_write_file(struct cpio_writer *w, const char *name, uint32_t perm, const void *data,
		    size_t size, char *err, size_t errlen);

/*
 * A regular file whose contents are streamed: begin, then data calls adding
 * up to exactly size bytes, then end (which pads, and fails if fewer bytes
 * came than announced).
 */
int cpio_begin_file(struct cpio_writer *w, const char *name, uint32_t perm, uint64_t size,
		    char *err, size_t errlen);
int cpio_file_data(struct cpio_writer *w, const void *data, size_t len, char *err,
		   size_t errlen);
int cpio_end_file(struct cpio_writer *w, char *err, size_t errlen);

/* The closing "TRAILER!!!" entry. */
int cpio_write_trailer(struct cpio_writer *w, char *err, size_t errlen);

#endif
