// SPDX-License-Identifier: GPL-2.0
/* newc cpio writer; see cpio_writer.h. */
#include "initramfs/cpio_writer.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/errmsg.h"

#define CPIO_HEADER_LEN 110 /* "070701" and 13 fields of 8 hex digits */
#define CPIO_ALIGN	4

static const unsigned char zeros[CPIO_ALIGN];

void cpio_writer_init(struct cpio_writer *w, cpio_sink_fn sink, void *sink_ctx, uint32_t mtime)
{
	memset(w, 0, sizeof(*w));
	w->sink = sink;
	w->sink_ctx = sink_ctx;
	w->mtime = mtime;
	w->next_ino = 1;
}

static int emit(struct cpio_writer *w, const void *buf, size_t len, char *err, size_t errlen)
{
	if (!len)
		return 0;
	if (w->sink(w->sink_ctx, buf, len, err, errlen))
		return -1;
	w->offset += len;
	return 0;
}

static int pad(struct cpio_writer *w, char *err, size_t errlen)
{
	size_t n = (CPIO_ALIGN - w->offset % CPIO_ALIGN) % CPIO_ALIGN;

	return emit(w, zeros, n, err, errlen);
}

/* What one header says about its entry. */
struct cpio_header {
	const char *name;
	uint32_t ino;
	uint32_t mode; /* type and permission bits */
	uint32_t nlink;
	uint32_t size;
	uint32_t rdev_major;
	uint32_t rdev_minor;
};

/* The one place a header is written: fields, name, padding. */
static int write_header(struct cpio_writer *w, const struct cpio_header *h, char *err,
			size_t errlen)
{
	char hdr[CPIO_HEADER_LEN + 1];
	size_t namesize = strlen(h->name) + 1;

	if (w->data_left || w->open_name)
		return errmsg(err, errlen, "cpio entry %s: file %s is still open", h->name,
			      w->open_name ? w->open_name : "?");
	if (namesize > UINT32_MAX)
		return errmsg(err, errlen, "cpio entry: name too long");
	snprintf(hdr, sizeof(hdr),
		 "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X", h->ino, h->mode,
		 0u /* uid */, 0u /* gid */, h->nlink, w->mtime, h->size, 0u /* dev major */,
		 0u /* dev minor */, h->rdev_major, h->rdev_minor, (uint32_t)namesize,
		 0u /* check: unused by newc */);
	if (emit(w, hdr, CPIO_HEADER_LEN, err, errlen) || emit(w, h->name, namesize, err, errlen))
		return -1;
	return pad(w, err, errlen);
}

/* Strip leading slashes; refuse names that would be empty. */
static const char *archive_name(const char *name, char *err, size_t errlen)
{
	while (*name == '/')
		name++;
	if (!*name) {
		errmsg(err, errlen, "cpio entry: empty name");
		return NULL;
	}
	return name;
}

static int write_simple(struct cpio_writer *w, const char *name, uint32_t mode, uint32_t nlink,
			const void *data, size_t size, uint32_t rmaj, uint32_t rmin, char *err,
			size_t errlen)
{
	struct cpio_header h = {
		.mode = mode, .nlink = nlink, .rdev_major = rmaj, .rdev_minor = rmin,
	};

	h.name = archive_name(name, err, errlen);
	if (!h.name)
		return -1;
	if (size > UINT32_MAX)
		return errmsg(err, errlen, "cpio entry %s: %zu bytes is over newc's 4 GiB limit",
			      h.name, size);
	h.size = (uint32_t)size;
	h.ino = w->next_ino++;
	if (write_header(w, &h, err, errlen) || emit(w, data, size, err, errlen))
		return -1;
	return pad(w, err, errlen);
}

int cpio_write_dir(struct cpio_writer *w, const char *name, uint32_t perm, char *err,
		   size_t errlen)
{
	return write_simple(w, name, S_IFDIR | (perm & 07777), 2, NULL, 0, 0, 0, err, errlen);
}

int cpio_write_symlink(struct cpio_writer *w, const char *name, const char *target, char *err,
		       size_t errlen)
{
	/* The target is the entry's data, without a terminating NUL. */
	return write_simple(w, name, S_IFLNK | 0777, 1, target, strlen(target), 0, 0, err,
			    errlen);
}

int cpio_write_node(struct cpio_writer *w, const char *name, uint32_t mode_type, uint32_t perm,
		    uint32_t major, uint32_t minor, char *err, size_t errlen)
{
	if (mode_type != S_IFCHR && mode_type != S_IFBLK)
		return errmsg(err, errlen, "cpio entry %s: a device node must be S_IFCHR or S_IFBLK",
			      name);
	return write_simple(w, name, mode_type | (perm & 07777), 1, NULL, 0, major, minor, err,
			    errlen);
}

int cpio_write_file(struct cpio_writer *w, const char *name, uint32_t perm, const void *data,
		    size_t size, char *err, size_t errlen)
{
	return write_simple(w, name, S_IFREG | (perm & 07777), 1, data, size, 0, 0, err, errlen);
}

int cpio_begin_file(struct cpio_writer *w, const char *name, uint32_t perm, uint64_t size,
		    char *err, size_t errlen)
{
	struct cpio_header h = { .mode = S_IFREG | (perm & 07777), .nlink = 1 };

	h.name = archive_name(name, err, errlen);
	if (!h.name)
		return -1;
	if (size > UINT32_MAX)
		return errmsg(err, errlen,
			      "cpio entry %s: %llu bytes is over newc's 4 GiB limit", h.name,
			      (unsigned long long)size);
	h.size = (uint32_t)size;
	h.ino = w->next_ino++;
	if (write_header(w, &h, err, errlen))
		return -1;
	w->data_left = size;
	w->open_name = h.name;
	return 0;
}

int cpio_file_data(struct cpio_writer *w, const void *data, size_t len, char *err,
		   size_t errlen)
{
	if (!w->open_name)
		return errmsg(err, errlen, "cpio: file data with no file entry open");
	if (len > w->data_left)
		return errmsg(err, errlen, "cpio entry %s: more data than the %llu bytes announced",
			      w->open_name, (unsigned long long)(w->data_left));
	if (emit(w, data, len, err, errlen))
		return -1;
	w->data_left -= len;
	return 0;
}

int cpio_end_file(struct cpio_writer *w, char *err, size_t errlen)
{
	if (!w->open_name)
		return errmsg(err, errlen, "cpio: end of a file entry that is not open");
	if (w->data_left)
		return errmsg(err, errlen, "cpio entry %s: %llu bytes short of the size announced",
			      w->open_name, (unsigned long long)w->data_left);
	w->open_name = NULL;
	return pad(w, err, errlen);
}

int cpio_write_trailer(struct cpio_writer *w, char *err, size_t errlen)
{
	struct cpio_header h = { .name = "TRAILER!!!", .nlink = 1 };

	return write_header(w, &h, err, errlen);
}
