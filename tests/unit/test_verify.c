// SPDX-License-Identifier: GPL-2.0
/* crc32c and the verify header catch corrupted and misplaced blocks. */
#include "check.h"
#include "runner/engine/verify.h"

static void test_crc32c_known_value(void)
{
	CHECK_EQ_INT(crc32c(0, "123456789", 9), 0xe3069283u);
	CHECK_EQ_INT(crc32c(0, "", 0), 0);
}

static void test_corruption_and_misplacement(void)
{
	static uint64_t block[512]; /* 4 KiB */
	char why[160];
	struct rng r;

	rng_seed(&r, 11);
	verify_fill(block, sizeof(block), 8192, 77, &r);
	CHECK_EQ_INT(verify_check(block, sizeof(block), 8192, 77, why, sizeof(why)), 0);
	CHECK_EQ_INT(verify_check(block, sizeof(block), 8192, 0, why, sizeof(why)), 0);
	CHECK_EQ_INT(verify_check(block, sizeof(block), 8192, 78, why, sizeof(why)), -1);
	CHECK(strstr(why, "another run") != NULL);
	CHECK_EQ_INT(verify_check(block, sizeof(block), 4096, 0, why, sizeof(why)), -1);
	CHECK(strstr(why, "misplaced") != NULL);
	((unsigned char *)block)[3000] ^= 1;
	CHECK_EQ_INT(verify_check(block, sizeof(block), 8192, 0, why, sizeof(why)), -1);
	CHECK(strstr(why, "corrupted") != NULL);
	memset(block, 0, sizeof(block));
	CHECK_EQ_INT(verify_check(block, sizeof(block), 8192, 0, why, sizeof(why)), -1);
	CHECK(strstr(why, "no verify header") != NULL);
}

int main(void)
{
	RUN_TEST(test_crc32c_known_value);
	RUN_TEST(test_corruption_and_misplacement);
	CHECK_EXIT();
}
