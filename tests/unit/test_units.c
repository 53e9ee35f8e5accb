// SPDX-License-Identifier: GPL-2.0
/* Numbers, units and arithmetic as fio reads them. */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "lib/units.h"

static uint64_t size_of(const char *s, unsigned kb_base)
{
	char err[UNITS_ERR_LEN];
	uint64_t v = 0;

	if (units_size(s, kb_base, &v, err, sizeof(err))) {
		printf("# %s: %s\n", s, err);
		return UINT64_MAX;
	}
	return v;
}

static void test_size_suffixes(void)
{
	CHECK_EQ_INT(size_of("4096", 1024), 4096);
	CHECK_EQ_INT(size_of("4k", 1024), 4096);
	CHECK_EQ_INT(size_of("4K", 1024), 4096);
	CHECK_EQ_INT(size_of("4KiB", 1024), 4096);
	CHECK_EQ_INT(size_of("4kb", 1024), 4096);
	CHECK_EQ_INT(size_of("1M", 1024), 1048576);
	CHECK_EQ_INT(size_of("1g", 1024), 1073741824);
	CHECK_EQ_INT(size_of("10G", 1024), 10737418240ULL);
	CHECK_EQ_INT(size_of("2t", 1024), 2199023255552ULL);
	CHECK_EQ_INT(size_of("1.5k", 1024), 1536);
	CHECK_EQ_INT(size_of("0x1000", 1024), 4096);
	CHECK_EQ_INT(size_of("512b", 1024), 512);
	/* kb_base=1000: k and kB are decimal, KiB stays binary. */
	CHECK_EQ_INT(size_of("4k", 1000), 4000);
	CHECK_EQ_INT(size_of("4kB", 1000), 4000);
	CHECK_EQ_INT(size_of("4KiB", 1000), 4096);
	CHECK_EQ_INT(size_of("1MiB", 1000), 1048576);
}

static void test_arithmetic(void)
{
	CHECK_EQ_INT(size_of("(4k*2)", 1024), 8192);
	CHECK_EQ_INT(size_of("8*1024+512", 1024), 8704);
	CHECK_EQ_INT(size_of("((8*1024)+512)", 1024), 8704);
	CHECK_EQ_INT(size_of("(1+3)k", 1024), 4096);
	CHECK_EQ_INT(size_of("2^10", 1024), 1024);
	CHECK_EQ_INT(size_of("10 % 4", 1024), 2);
	CHECK_EQ_INT(size_of("1g/4", 1024), 268435456);
}

static void test_size_errors(void)
{
	char err[UNITS_ERR_LEN];
	uint64_t v;

	CHECK_EQ_INT(units_size("4x", 1024, &v, err, sizeof(err)), -1);
	CHECK(strstr(err, "unknown unit 'x'") != NULL);
	CHECK_EQ_INT(units_size("", 1024, &v, err, sizeof(err)), -1);
	CHECK_EQ_INT(units_size("-4k", 1024, &v, err, sizeof(err)), -1);
	CHECK(strstr(err, "negative") != NULL);
	CHECK_EQ_INT(units_size("(4k", 1024, &v, err, sizeof(err)), -1);
	CHECK(strstr(err, "missing ')'") != NULL);
	CHECK_EQ_INT(units_size("4/0", 1024, &v, err, sizeof(err)), -1);
	CHECK_EQ_INT(units_size("99999999999999999999999", 1024, &v, err, sizeof(err)), -1);
	CHECK_EQ_INT(units_size("4k 5", 1024, &v, err, sizeof(err)), -1);
}

static void test_times(void)
{
	char err[UNITS_ERR_LEN];
	uint64_t us = 0;
	const uint64_t sec = 1000000000ULL;

	CHECK_EQ_INT(units_time_us("10", sec, &us, err, sizeof(err)), 0);
	CHECK_EQ_INT(us, 10000000);
	CHECK_EQ_INT(units_time_us("10s", sec, &us, err, sizeof(err)), 0);
	CHECK_EQ_INT(us, 10000000);
	CHECK_EQ_INT(units_time_us("500ms", sec, &us, err, sizeof(err)), 0);
	CHECK_EQ_INT(us, 500000);
	CHECK_EQ_INT(units_time_us("20us", sec, &us, err, sizeof(err)), 0);
	CHECK_EQ_INT(us, 20);
	CHECK_EQ_INT(units_time_us("2m", sec, &us, err, sizeof(err)), 0);
	CHECK_EQ_INT(us, 120000000);
	CHECK_EQ_INT(units_time_us("1h", sec, &us, err, sizeof(err)), 0);
	CHECK_EQ_INT(us, 3600000000ULL);
	CHECK_EQ_INT(units_time_us("2*10s", sec, &us, err, sizeof(err)), 0);
	CHECK_EQ_INT(us, 20000000);
	CHECK_EQ_INT(units_time_us("5 parsecs", sec, &us, err, sizeof(err)), -1);
}

static void test_keywords(void)
{
	char buf[64], *s;
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);

	s = units_expand_keywords("$ncpus*2");
	snprintf(buf, sizeof(buf), "%ld*2", ncpus);
	CHECK_EQ_STR(s, buf);
	free(s);
	s = units_expand_keywords("$pagesize");
	snprintf(buf, sizeof(buf), "%ld", sysconf(_SC_PAGESIZE));
	CHECK_EQ_STR(s, buf);
	free(s);
	s = units_expand_keywords("$mb_memory/2");
	CHECK(s && s[0] != '$' && strstr(s, "/2"));
	free(s);
	/* Not a keyword: left for the caller to reject. */
	s = units_expand_keywords("$ncpusx");
	CHECK_EQ_STR(s, "$ncpusx");
	free(s);
}

/* Both word sets, any case; y/n only on the kernel command line; NULL is a bare flag. */
static void test_bool_words(void)
{
	static const char *const yes[] = { "1", "yes", "on", "true", "TRUE", "Yes", "oN" };
	static const char *const no[] = { "0", "no", "off", "false", "FALSE", "No", "OFF" };
	static const char *const neither[] = { "", "2", "10", "01", "yess", "t", "f", " 1",
					       "1 ", "enable", "-1" };
	bool b;

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		b = false;
		CHECK_EQ_INT(units_bool(yes[i], UNITS_BOOL_FIO, &b), 0);
		CHECK(b);
		b = false;
		CHECK_EQ_INT(units_bool(yes[i], UNITS_BOOL_KERNEL, &b), 0);
		CHECK(b);
	}
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		b = true;
		CHECK_EQ_INT(units_bool(no[i], UNITS_BOOL_FIO, &b), 0);
		CHECK(!b);
		b = true;
		CHECK_EQ_INT(units_bool(no[i], UNITS_BOOL_KERNEL, &b), 0);
		CHECK(!b);
	}
	for (size_t i = 0; i < sizeof(neither) / sizeof(neither[0]); i++) {
		CHECK_EQ_INT(units_bool(neither[i], UNITS_BOOL_FIO, &b), -1);
		CHECK_EQ_INT(units_bool(neither[i], UNITS_BOOL_KERNEL, &b), -1);
	}
	/* the kernel's y and n: on the command line only, as kstrtobool reads them */
	CHECK_EQ_INT(units_bool("y", UNITS_BOOL_FIO, &b), -1);
	CHECK_EQ_INT(units_bool("n", UNITS_BOOL_FIO, &b), -1);
	b = false;
	CHECK_EQ_INT(units_bool("Y", UNITS_BOOL_KERNEL, &b), 0);
	CHECK(b);
	CHECK_EQ_INT(units_bool("n", UNITS_BOOL_KERNEL, &b), 0);
	CHECK(!b);
	b = false;
	CHECK_EQ_INT(units_bool(NULL, UNITS_BOOL_FIO, &b), 0);
	CHECK(b);
	b = false;
	CHECK_EQ_INT(units_bool(NULL, UNITS_BOOL_KERNEL, &b), 0);
	CHECK(b);
}

int main(void)
{
	RUN_TEST(test_size_suffixes);
	RUN_TEST(test_arithmetic);
	RUN_TEST(test_size_errors);
	RUN_TEST(test_times);
	RUN_TEST(test_keywords);
	RUN_TEST(test_bool_words);
	CHECK_EXIT();
}
