/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A module file from the tree into the image: .ko is copied, .ko.xz,
 * .ko.zst and .ko.gz are decompressed, and all land as .ko (the runner
 * loads them with finit_module, which takes only plain ELF unless the
 * kernel decompresses, and not every kernel does).
 */
#ifndef IOMATRIX_INITRAMFS_MODULE_FILE_H
#define IOMATRIX_INITRAMFS_MODULE_FILE_H

#include <stddef.h>

#include "initramfs/image_tree.h"

/*
 * rel_path with a compression suffix dropped ("kernel/x.ko.zst" ->
 * "kernel/x.ko") into out. Returns 0, or -1 when it is not a .ko file.
 */
int module_plain_name(const char *rel_path, char *out, size_t outlen);

/* Add host_path at image_path, decompressed. Returns 0 or -1 with err. */
int image_add_module(struct image_tree *t, const char *image_path, const char *host_path,
		     char *err, size_t errlen);

#endif
