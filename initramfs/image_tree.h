/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The image as a list of entries, each tagged with the part of the image it
 * belongs to (for the size breakdown). Adding an entry adds its missing
 * parent directories; adding the same thing twice is harmless, adding two
 * different things at one path is an error. Written out sorted by path, so
 * the archive does not depend on the order things were added in, and a
 * directory always comes before what it holds.
 */
#ifndef IOMATRIX_INITRAMFS_IMAGE_TREE_H
#define IOMATRIX_INITRAMFS_IMAGE_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "initramfs/cpio_writer.h"

enum image_part {
	PART_RUNNER,
	PART_TOOLS,
	PART_LIBRARIES,
	PART_MODULES,
	PART_DATA,
	PART_LAYOUT, /* directories, device nodes, symlinks, image.conf */
	PART_COUNT
};

extern const char *const image_part_names[PART_COUNT];

enum image_entry_kind { ENTRY_DIR, ENTRY_FILE, ENTRY_SYMLINK, ENTRY_CHAR_DEV };

struct image_entry {
	char *path; /* absolute, no trailing '/' */
	enum image_entry_kind kind;
	enum image_part part;
	uint32_t perm;
	char *host_path;	/* ENTRY_FILE copied from the host, or NULL */
	unsigned char *data;	/* ENTRY_FILE from memory; ENTRY_SYMLINK: the target */
	uint64_t size;		/* ENTRY_FILE: bytes of contents */
	uint32_t rdev_major, rdev_minor;
};

struct image_tree {
	struct image_entry *entries;
	size_t count;
	size_t cap;
};

void image_tree_free(struct image_tree *t);

/* Absolute, no empty, "." or ".." component, no trailing '/': what an entry's path must be. */
bool image_path_ok(const char *path);

/* Each returns 0, or -1 with a message naming the path in err. */
int image_add_dir(struct image_tree *t, const char *path, uint32_t perm, char *err,
		  size_t errlen);
/* Copies host_path's contents at write time; its size is taken now. */
int image_add_host_file(struct image_tree *t, const char *path, uint32_t perm,
			enum image_part part, const char *host_path, char *err, size_t errlen);
/* Takes ownership of data (malloc'd), also on failure. */
int image_add_buffer(struct image_tree *t, const char *path, uint32_t perm, enum image_part part,
		     unsigned char *data, size_t size, char *err, size_t errlen);
int image_add_symlink(struct image_tree *t, const char *path, const char *target,
		      enum image_part part, char *err, size_t errlen);
int image_add_char_dev(struct image_tree *t, const char *path, uint32_t perm, uint32_t major,
		       uint32_t minor, char *err, size_t errlen);

const struct image_entry *image_find(const struct image_tree *t, const char *path);

/*
 * Called before each entry is written with the entry's part, so a caller
 * can account bytes to parts. Returns 0, or -1 with a message in err.
 */
typedef int (*image_part_fn)(void *ctx, enum image_part part, char *err, size_t errlen);

/* Sort the entries and write them and the trailer. */
int image_tree_write(struct image_tree *t, struct cpio_writer *w, image_part_fn on_part,
		     void *part_ctx, char *err, size_t errlen);

#endif
