// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz the bzImage setup-header parser and the ELF note walk: any bytes
 * give a parsed header or an error, and a payload found lies inside the
 * input. Payloads claiming at most 1 MiB are decompressed too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "qemu/qemu_kernel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qk_bzimage bz;
	char err[QK_ERR_LEN];
	uint8_t *out;
	size_t outlen;

	qk_elf_has_pvh_note(data, size);
	if (qk_parse_bzimage(data, size, &bz, err, sizeof(err)))
		return 0;
	if (bz.payload_offset + bz.payload_length > size)
		abort();
	{
		const uint8_t *t = data + bz.payload_offset + bz.payload_length - 4;
		uint32_t claimed = t[0] | t[1] << 8 | t[2] << 16 | (uint32_t)t[3] << 24;

		if (claimed > (1u << 20) && bz.compression != QK_NONE)
			return 0;
	}
	if (qk_extract_payload(data, &bz, &out, &outlen, err, sizeof(err)) == 0) {
		qk_elf_has_pvh_note(out, outlen);
		free(out);
	}
	return 0;
}
