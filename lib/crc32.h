/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CRC-32 as in IEEE 802.3, zlib, gzip and PNG (reflected polynomial
 * 0xedb88320, initial value and final XOR 0xffffffff). The runner is static
 * musl without zlib, so it carries its own; a unit test holds it to zlib's.
 *
 * Chains like zlib's crc32(): crc32_ieee(crc32_ieee(0, a, n), b, m) is the
 * CRC of a followed by b. Start with 0.
 */
#ifndef IOMATRIX_LIB_CRC32_H
#define IOMATRIX_LIB_CRC32_H

#include <stddef.h>
#include <stdint.h>

uint32_t crc32_ieee(uint32_t crc, const void *buf, size_t len);

#endif
