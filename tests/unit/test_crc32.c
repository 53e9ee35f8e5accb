// SPDX-License-Identifier: GPL-2.0
/* Our CRC-32 against zlib's, and the strict base64 the serial framing uses. */
#include <stdint.h>
#include <stdlib.h>
#include <zlib.h>

#include "lib/base64.h"
#include "check.h"
#include "lib/crc32.h"
#include "synth_record.h"

static void test_crc32_known_value(void)
{
	/* The check value of CRC-32/ISO-HDLC. */
	CHECK_EQ_INT(crc32_ieee(0, "123456789", 9), 0xcbf43926u);
	CHECK_EQ_INT(crc32_ieee(0, "", 0), 0);
}

static void test_crc32_matches_zlib(void)
{
	static uint8_t buf[70000];
	uint64_t rnd = 1;

	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)synth_rand(&rnd);
	for (int t = 0; t < 300; t++) {
		size_t off = synth_below(&rnd, 1000), len = synth_below(&rnd, sizeof(buf) - off);
		uint32_t seed = t % 3 ? 0 : (uint32_t)synth_rand(&rnd);

		CHECK_EQ_INT(crc32_ieee(seed, buf + off, len), crc32(seed, buf + off, (uInt)len));
	}
}

static void test_crc32_chains(void)
{
	const char *s = "the quick brown fox jumps over the lazy dog";

	for (size_t cut = 0; cut <= strlen(s); cut++)
		CHECK_EQ_INT(crc32_ieee(crc32_ieee(0, s, cut), s + cut, strlen(s) - cut),
			     crc32_ieee(0, s, strlen(s)));
}

static void test_base64_roundtrip(void)
{
	uint8_t in[100], out[100];
	char text[140];
	uint64_t rnd = 7;

	for (size_t n = 0; n <= sizeof(in); n++) {
		size_t m;

		for (size_t i = 0; i < n; i++)
			in[i] = (uint8_t)synth_rand(&rnd);
		m = base64_encode(text, in, n);
		CHECK_EQ_INT(m, base64_encoded_len(n));
		CHECK_EQ_INT(base64_decode(out, sizeof(out), text, m), (long)n);
		CHECK(!memcmp(in, out, n));
	}
	CHECK_EQ_INT(base64_encode(text, "foobar", 6), 8);
	CHECK(!memcmp(text, "Zm9vYmFy", 8));
	CHECK_EQ_INT(base64_encode(text, "fo", 2), 4);
	CHECK(!memcmp(text, "Zm8=", 4));
}

static void test_base64_strict(void)
{
	uint8_t out[16];
	static const char *const bad[] = {
		"Zm8",	 "Zm9=Zm8=", "Zm=8", "Zm9v!mFy", "Zm9",
		"Zm9w=", "Zm8 ",     "Zg=x", "Zm9=", /* "fo" would be Zm8=: unused bits set */
		"Zh==",				     /* "f" is Zg==: unused bits set */
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_EQ_INT(base64_decode(out, sizeof(out), bad[i], strlen(bad[i])), -1);
	CHECK_EQ_INT(base64_decode(out, 2, "Zm9v", 4), -1); /* no room */
	CHECK_EQ_INT(base64_decode(out, sizeof(out), "Zg==", 4), 1);
}

int main(void)
{
	RUN_TEST(test_crc32_known_value);
	RUN_TEST(test_crc32_matches_zlib);
	RUN_TEST(test_crc32_chains);
	RUN_TEST(test_base64_roundtrip);
	RUN_TEST(test_base64_strict);
	CHECK_EXIT();
}
