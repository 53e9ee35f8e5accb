// SPDX-License-Identifier: GPL-2.0
/* Fuzz the modules.builtin and modules.softdep readers with the same bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "initramfs/module_lists.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size ? size : 1);
	struct name_list builtin;
	struct softdep_list softdeps;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (!module_builtin_parse(copy, size, &builtin)) {
		for (size_t i = 0; i < builtin.count; i++)
			if (strchr(builtin.names[i], '-') || strchr(builtin.names[i], '/'))
				abort(); /* names are normalised file names */
		name_list_free(&builtin);
	}
	if (!module_softdep_parse(copy, size, &softdeps))
		softdep_list_free(&softdeps);
	free(copy);
	return 0;
}
