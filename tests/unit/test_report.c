// SPDX-License-Identifier: GPL-2.0
/* fio's number formatting, checked against strings from real fio reports (seeds 003). */
#include "check.h"
#include "records/report.h"

static const char *n2s(uint64_t num, int maxlen, int pow2, enum n2s_unit u)
{
	static char buf[64];

	report_num2str(buf, sizeof(buf), num, maxlen, 1, pow2, u);
	return buf;
}

static void test_num2str_like_fio(void)
{
	CHECK_EQ_STR(n2s(78400, 4, 0, N2S_NONE), "78.4k");	     /* IOPS=78.4k */
	CHECK_EQ_STR(n2s(533021, 4, 0, N2S_NONE), "533k");	     /* IOPS=533k */
	CHECK_EQ_STR(n2s(1234, 4, 0, N2S_NONE), "1234");
	CHECK_EQ_STR(n2s(9042700, 6, 0, N2S_NONE), "9042.7k");      /* max=9042.7k */
	CHECK_EQ_STR(n2s(12374000, 6, 0, N2S_NONE), "12374k");      /* max=12374k */
	CHECK_EQ_STR(n2s(2185000000ULL, 4, 1, N2S_BYTEPERSEC), "2084MiB/s");
	CHECK_EQ_STR(n2s(2185000000ULL, 4, 0, N2S_BYTEPERSEC), "2185MB/s");
	CHECK_EQ_STR(n2s(10737418240ULL, 4, 1, N2S_BYTE), "10.0GiB"); /* (10.0GiB/33444msec) */
	CHECK_EQ_STR(n2s(10737418240ULL, 4, 0, N2S_BYTE), "10.7GB");
	CHECK_EQ_STR(n2s(4096, 4, 1, N2S_BYTE), "4096B");	     /* bs=(R) 4096B-4096B */
	CHECK_EQ_STR(n2s(1048576, 4, 1, N2S_BYTE), "1024KiB");
	/* 11.977k: the fraction rounds to 1.0 and carries, as fio 3.33 prints it */
	CHECK_EQ_STR(n2s(11977, 4, 0, N2S_NONE), "12.0k");
	CHECK_EQ_STR(n2s(99960, 4, 0, N2S_NONE), "100.0k");
}

int main(void)
{
	RUN_TEST(test_num2str_like_fio);
	CHECK_EXIT();
}
