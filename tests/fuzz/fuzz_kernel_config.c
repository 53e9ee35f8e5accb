// SPDX-License-Identifier: GPL-2.0
/* Fuzz the kernel .config reader. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "initramfs/kernel_config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kernel_config c;
	char *copy = malloc(size ? size : 1);

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (!kernel_config_parse(&c, "fuzz", copy, size)) {
		for (size_t i = 0; i < c.count; i++)
			if (strncmp(c.keys[i], "CONFIG_", 7) ||
			    kernel_config_get(&c, c.keys[i]) == NULL)
				abort();
		kernel_config_free(&c);
	}
	free(copy);
	return 0;
}
