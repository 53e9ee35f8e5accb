// SPDX-License-Identifier: GPL-2.0
/* Base64 encode and strict decode; see base64.h. */
#include "lib/base64.h"

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* The 6-bit value of an alphabet character, -1 for anything else. */
static int sextet(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

size_t base64_encode(char *out, const void *in, size_t n)
{
	const uint8_t *p = in;
	size_t o = 0;

	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16;
		size_t left = n - i;

		if (left > 1)
			v |= (uint32_t)p[i + 1] << 8;
		if (left > 2)
			v |= p[i + 2];
		out[o++] = alphabet[(v >> 18) & 63];
		out[o++] = alphabet[(v >> 12) & 63];
		out[o++] = left > 1 ? alphabet[(v >> 6) & 63] : '=';
		out[o++] = left > 2 ? alphabet[v & 63] : '=';
	}
	return o;
}

long base64_decode(void *out, size_t outcap, const char *in, size_t n)
{
	uint8_t *o = out;
	size_t len = 0;

	if (n % 4)
		return -1;
	for (size_t i = 0; i < n; i += 4) {
		bool last = i + 4 == n;
		int pad = 0;
		int s[4];

		if (last && in[i + 3] == '=')
			pad = in[i + 2] == '=' ? 2 : 1;
		for (int k = 0; k < 4 - pad; k++) {
			s[k] = sextet(in[i + k]);
			if (s[k] < 0)
				return -1;
		}
		/* Unused low bits must be zero, or two texts would decode alike. */
		if ((pad == 1 && (s[2] & 3)) || (pad == 2 && (s[1] & 15)))
			return -1;
		if (len + 3 - pad > outcap)
			return -1;
		o[len++] = (uint8_t)(s[0] << 2 | s[1] >> 4);
		if (pad < 2)
			o[len++] = (uint8_t)(s[1] << 4 | s[2] >> 2);
		if (pad < 1)
			o[len++] = (uint8_t)(s[2] << 6 | s[3]);
	}
	return (long)len;
}
