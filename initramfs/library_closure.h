/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Putting a program into the image with exactly what the dynamic loader
 * will ask for when it runs there: its interpreter (PT_INTERP) and the
 * shared libraries it names, recursively, each at the path the loader
 * searches first. Libraries are found as the loader finds them: the
 * object's DT_RUNPATH/DT_RPATH ($ORIGIN expanded), then the loader's
 * default directories. A static program brings nothing along, nor does a
 * "#!" script (its interpreter must be in the image by other means).
 */
#ifndef IOMATRIX_INITRAMFS_LIBRARY_CLOSURE_H
#define IOMATRIX_INITRAMFS_LIBRARY_CLOSURE_H

#include <stdint.h>

#include "initramfs/image_tree.h"

/* The directories searched after an object's own search path, in order. */
extern const char *const library_default_dirs[];

/*
 * Add host_path at image_path (mode 0755, counted in part) and everything
 * it needs (counted as libraries). Returns 0, or -1 with a message naming
 * the program and the missing library in err.
 */
int image_add_program(struct image_tree *t, const char *image_path, const char *host_path,
		      enum image_part part, char *err, size_t errlen);

#endif
