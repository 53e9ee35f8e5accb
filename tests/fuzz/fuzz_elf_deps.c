// SPDX-License-Identifier: GPL-2.0
/* Fuzz the ELF reader: any bytes give deps or an error, never a read out of bounds. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "initramfs/elf_deps.h"
#include "lib/errmsg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[ERRMSG_LEN];
	struct elf_deps d;
	/* an exact-size copy, so ASan sees reads past the end */
	uint8_t *copy = malloc(size ? size : 1);

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (!elf_deps_parse(copy, size, "fuzz", &d, err, sizeof(err))) {
		for (size_t i = 0; i < d.needed_count; i++)
			if (!strlen(d.needed[i]))
				abort(); /* empty names are refused */
		elf_deps_free(&d);
	}
	free(copy);
	return 0;
}
