/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the image says about itself, in /etc/iomatrix/image.conf (key=value
 * lines written by `iomatrix image`). The appliance needs the kernel
 * release the image was built for: its modules load into no other kernel.
 * Keys it does not use are the image builder's and are left alone.
 */
#ifndef IOMATRIX_RUNNER_IMAGE_INFO_H
#define IOMATRIX_RUNNER_IMAGE_INFO_H

#include <stddef.h>

struct image_info {
	char release[128];
};

/* Returns 0, or -1 with "file:line: ..." or what is missing in err. */
int image_info_read(const char *path, struct image_info *info, char *err, size_t errlen);

#endif
