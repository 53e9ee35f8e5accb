/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The programs from the host that go into the image (busybox, mdadm, the
 * mkfs tools), their links and files, from one table. Each is looked up in
 * IOMATRIX_TOOL_PATH (a ':' list; default TOOL_PATH_DEFAULT), never in the
 * caller's PATH, so the image does not depend on who builds it.
 */
#ifndef IOMATRIX_HOST_IMAGE_TOOLS_H
#define IOMATRIX_HOST_IMAGE_TOOLS_H

#include <stdio.h>

#include "initramfs/image_tree.h"

#define TOOL_PATH_ENV	  "IOMATRIX_TOOL_PATH"
#define TOOL_PATH_DEFAULT "/usr/sbin:/usr/bin:/sbin:/bin"

/*
 * Add every tool with its libraries, links and files. A required tool that
 * is missing is an error naming it and its package; a missing optional
 * one is a note on notes (may be NULL). Returns 0 or -1 with err set.
 */
int image_add_tools(struct image_tree *t, FILE *notes, char *err, size_t errlen);

#endif
