// SPDX-License-Identifier: GPL-2.0
/* Fuzz the job-file INI tokeniser: any bytes must give 0 or a located error. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/ini.h"

static int accept_all(void *ctx, const struct ini_event *ev, char *err, size_t errlen)
{
	(void)ctx;
	(void)err;
	(void)errlen;
	return ev->key && !strcmp(ev->key, "stop") ? -1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[INI_ERR_LEN];

	ini_parse_buffer("fuzz", (const char *)data, size, accept_all, NULL, err, sizeof(err));
	return 0;
}
