// SPDX-License-Identifier: GPL-2.0
/* A result set's manifest.json may be damaged like any file: parse any bytes as one. */
#include <stdint.h>
#include <string.h>

#include "records/rs_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct result_set rs;
	char err[256];

	memset(&rs, 0, sizeof(rs));
	rs_parse_manifest((const char *)data, size, &rs, err, sizeof(err));
	rs_free(&rs);
	return 0;
}
