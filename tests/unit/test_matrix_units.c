// SPDX-License-Identifier: GPL-2.0
/* Sizes and durations as matrix files and job files write them (fio's units). */
#include "check.h"
#include "matrix/matrix_units.h"

static void test_sizes(void)
{
	static const struct {
		const char *in;
		unsigned long long out;
	} ok[] = {
		{"0", 0},
		{"512", 512},
		{"512b", 512},
		{"4k", 4096},
		{"4K", 4096},
		{"4KiB", 4096},
		{"4KB", 4096},
		{"1m", 1048576},
		{"1M", 1048576},
		{"20G", 21474836480ULL},
		{"1t", 1099511627776ULL},
		/* read as the engine reads fio's options */
		{"1.5g", 1610612736ULL},
		{"4k ", 4096},
	};
	static const char *const bad[] = {
		"", "k", "4x", "-1", " 4k", "(4k)", "99999999999999999999", "20000000t"};
	uint64_t v;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		v = 1;
		CHECK_EQ_INT(mx_parse_size(ok[i].in, &v), 0);
		CHECK_EQ_INT(v, ok[i].out);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_EQ_INT(mx_parse_size(bad[i], &v), -1);
}

static void test_durations(void)
{
	double s;

	CHECK_EQ_INT(mx_parse_duration("600", &s), 0);
	CHECK(s == 600);
	CHECK_EQ_INT(mx_parse_duration("10s", &s), 0);
	CHECK(s == 10);
	CHECK_EQ_INT(mx_parse_duration("5m", &s), 0);
	CHECK(s == 300);
	CHECK_EQ_INT(mx_parse_duration("1.5h", &s), 0);
	CHECK(s == 5400);
	CHECK_EQ_INT(mx_parse_duration("250ms", &s), 0);
	CHECK(s == 0.25);
	CHECK_EQ_INT(mx_parse_duration("10 s", &s), -1);
	CHECK_EQ_INT(mx_parse_duration("-1", &s), -1);
	CHECK_EQ_INT(mx_parse_duration("1y", &s), -1);
	CHECK_EQ_INT(mx_parse_duration("inf", &s), -1);
	CHECK_EQ_INT(mx_parse_duration("", &s), -1);
}

static void test_formats(void)
{
	char buf[32];

	mx_format_size_exact(4096, buf, sizeof(buf));
	CHECK_EQ_STR(buf, "4k");
	mx_format_size_exact(107 * 1048576ULL, buf, sizeof(buf));
	CHECK_EQ_STR(buf, "107m");
	mx_format_size_exact(1536 * 1024, buf, sizeof(buf));
	CHECK_EQ_STR(buf, "1536k");
	mx_format_size_exact(1ULL << 40, buf, sizeof(buf));
	CHECK_EQ_STR(buf, "1t");
	mx_format_size_exact(4097, buf, sizeof(buf));
	CHECK_EQ_STR(buf, "4097");
	mx_format_size(1073741824, buf, sizeof(buf));
	CHECK_EQ_STR(buf, "1 GiB");
	mx_format_size(1536 * 1048576ULL, buf, sizeof(buf));
	CHECK_EQ_STR(buf, "1.5 GiB");
	mx_format_size(100, buf, sizeof(buf));
	CHECK_EQ_STR(buf, "100 B");
	mx_format_duration(4.25, buf, sizeof(buf));
	CHECK_EQ_STR(buf, "4.2 s");
	mx_format_duration(125, buf, sizeof(buf));
	CHECK_EQ_STR(buf, "2m 05s");
	mx_format_duration(7380, buf, sizeof(buf));
	CHECK_EQ_STR(buf, "2h 03m");
}

int main(void)
{
	RUN_TEST(test_sizes);
	RUN_TEST(test_durations);
	RUN_TEST(test_formats);
	CHECK_EXIT();
}
