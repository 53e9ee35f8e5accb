/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The list's tool, file and slink lines (appliance_list.h): the programs
 * from the host with their libraries, the files they read, and the links.
 * Each program is looked up in IOMATRIX_TOOL_PATH (a ':' list; default
 * TOOL_PATH_DEFAULT), never in the caller's PATH, so the image does not
 * depend on who builds it. A link to a tool of the list counts with the
 * tools, and is left out with it.
 */
#ifndef IOMATRIX_INITRAMFS_IMAGE_TOOLS_H
#define IOMATRIX_INITRAMFS_IMAGE_TOOLS_H

#include <stdio.h>

#include "initramfs/appliance_list.h"
#include "initramfs/image_tree.h"

#define TOOL_PATH_ENV	  "IOMATRIX_TOOL_PATH"
#define TOOL_PATH_DEFAULT "/usr/sbin:/usr/bin:/sbin:/bin"

/*
 * Add every tool with its libraries, then the files and links. A required
 * tool that is missing is an error naming it and its package; a missing
 * optional one is a note on notes (may be NULL). Returns 0 or -1 with err
 * set.
 */
int image_add_tools(struct image_tree *t, const struct appliance_list *l, FILE *notes,
		    char *err, size_t errlen);

#endif
