// SPDX-License-Identifier: GPL-2.0
/* /etc/iomatrix/image.conf, read with the job-file INI parser. */
#include <stdio.h>
#include <string.h>

#include "runner/image_info.h"
#include "lib/ini.h"

static int take_key(void *ctx, const struct ini_event *ev, char *err, size_t errlen)
{
	struct image_info *info = ctx;

	if (ev->kind != INI_OPTION || strcmp(ev->key, "release"))
		return 0;
	if (!ev->value || !ev->value[0] || strlen(ev->value) >= sizeof(info->release)) {
		snprintf(err, errlen, "release: empty or longer than %zu characters",
			 sizeof(info->release) - 1);
		return -1;
	}
	strcpy(info->release, ev->value);
	return 0;
}

int image_info_read(const char *path, struct image_info *info, char *err, size_t errlen)
{
	memset(info, 0, sizeof(*info));
	if (ini_parse_file(path, take_key, info, err, errlen))
		return -1;
	if (!info->release[0]) {
		snprintf(err, errlen, "%s: no release=... line", path);
		return -1;
	}
	return 0;
}
