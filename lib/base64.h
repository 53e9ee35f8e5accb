/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Base64 (RFC 4648, standard alphabet, '=' padding). The decoder is strict:
 * whole quanta only, padding only at the end, unused bits zero. A text that
 * decodes is therefore exactly what the encoder wrote, which is what a
 * framing that must never accept a damaged chunk needs.
 */
#ifndef IOMATRIX_LIB_BASE64_H
#define IOMATRIX_LIB_BASE64_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline size_t base64_encoded_len(size_t n)
{
	return (n + 2) / 3 * 4;
}

/* Writes base64_encoded_len(n) characters (no NUL) to out; returns that count. */
size_t base64_encode(char *out, const void *in, size_t n);

/* Decodes n characters into out (room for outcap bytes); the byte count, or -1. */
long base64_decode(void *out, size_t outcap, const char *in, size_t n);

#endif
