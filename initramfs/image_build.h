/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Building the appliance's initramfs: the runner as /init, and what the
 * list (appliance_list.h) names: the layout PID 1 relies on
 * (docs/image.md), the tools and their libraries, the kernel modules with
 * their load list, the matrix and job files; then one reproducible
 * compressed cpio written whole or not at all.
 */
#ifndef IOMATRIX_INITRAMFS_IMAGE_BUILD_H
#define IOMATRIX_INITRAMFS_IMAGE_BUILD_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/compress.h"
#include "initramfs/image_sizes.h"
#include "initramfs/module_lists.h"

struct image_request {
	const char *release;	   /* NULL: pick one (kernel_release.h) */
	const char *modules_dir;   /* NULL: the system's /lib/modules */
	const char *list;	   /* what goes in (initramfs/appliance.list) */
	const char *runner;	   /* the runner binary */
	const char *data_dir;	   /* NULL: no matrix or job files */
	const char *compress;	   /* NULL: the best the kernel config allows */
	const char *kernel_config; /* NULL: looked for (kernel_config.h) */
	const char *output;	   /* NULL: output_dir/initramfs-R.cpio[.ext] */
	const char *output_dir;	   /* made (with parents) when missing, for the default output */
	uint32_t mtime;		   /* of every entry */
	FILE *notes;		   /* notes and warnings (stderr) */
};

struct image_result {
	char release[256];
	char output[PATH_MAX];
	char config_path[PATH_MAX]; /* "" when none was found */
	const struct compression_kind *compression;
	size_t module_count;
	size_t soft_count;	  /* of those, in only as soft dependencies */
	struct name_list info;	  /* lines for the report */
	struct name_list builtin; /* wanted modules built into the kernel */
	struct size_meter sizes;
};

/* Returns 0, or -1 with one line in err; nothing is left at the output path. */
int image_build(const struct image_request *req, struct image_result *res, char *err,
		size_t errlen);
void image_result_free(struct image_result *res);

#endif
