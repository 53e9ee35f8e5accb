// SPDX-License-Identifier: GPL-2.0
/* Fuzz the modules.load parser: any bytes give a list or a located error. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runner/modules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct module_list list;
	char err[MODULES_ERR_LEN];

	if (modules_parse("fuzz", (const char *)data, size, &list, err, sizeof(err))) {
		if (strncmp(err, "fuzz:", 5))
			abort();
		return 0;
	}
	for (size_t i = 0; i < list.count; i++)
		if (list.mod[i].path[0] != '/' || !list.mod[i].name[0])
			abort();
	return 0;
}
