// SPDX-License-Identifier: GPL-2.0
/* iomatrix.results=: channels, disk specs, and what is refused. */
#include "check.h"
#include "runner/results/results_spec.h"

static struct results_spec s;

static void test_default_console(void)
{
	char err[RESULTS_SPEC_ERR_LEN];

	CHECK_EQ_INT(results_spec_parse("console", &s, err, sizeof(err)), 0);
	CHECK_EQ_INT(s.count, 1);
	CHECK_EQ_INT(s.ch[0].kind, RESULTS_CONSOLE);
	CHECK_EQ_INT(s.disk, -1);
}

static void test_every_kind(void)
{
	char err[RESULTS_SPEC_ERR_LEN];

	CHECK_EQ_INT(results_spec_parse("disk:serial=iomatrix-results,serial:ttyS1,kmsg:3,console",
					&s, err, sizeof(err)),
		     0);
	CHECK_EQ_INT(s.count, 4);
	CHECK_EQ_INT(s.disk, 0);
	CHECK_EQ_INT(s.ch[0].kind, RESULTS_DISK);
	CHECK_EQ_INT(s.ch[0].by, RESULTS_BY_SERIAL);
	CHECK_EQ_STR(s.ch[0].value, "iomatrix-results");
	CHECK_EQ_STR(s.ch[0].word, "disk:serial=iomatrix-results");
	CHECK_EQ_INT(s.ch[1].kind, RESULTS_SERIAL);
	CHECK_EQ_STR(s.ch[1].value, "/dev/ttyS1");
	CHECK_EQ_INT(s.ch[2].kind, RESULTS_KMSG);
	CHECK_EQ_INT(s.ch[2].kmsg_level, 3);
	CHECK_EQ_INT(s.ch[3].kind, RESULTS_CONSOLE);
	CHECK_EQ_INT(results_spec_parse("kmsg", &s, err, sizeof(err)), 0);
	CHECK_EQ_INT(s.ch[0].kmsg_level, RESULTS_KMSG_LEVEL);
	CHECK_EQ_INT(results_spec_parse("serial:/dev/ttyUSB0", &s, err, sizeof(err)), 0);
	CHECK_EQ_STR(s.ch[0].value, "/dev/ttyUSB0");
}

static void test_disk_specs(void)
{
	static const struct {
		const char *text;
		enum results_disk_by by;
		const char *value;
	} good[] = {
		{"disk:PARTLABEL=iomatrix-results", RESULTS_BY_PARTLABEL, "iomatrix-results"},
		{"disk:partlabel=a=b", RESULTS_BY_PARTLABEL, "a=b"},
		{"disk:PARTUUID=8CD80E87-BFEF-0F4D-AF50-964617D7D04E", RESULTS_BY_PARTUUID,
		 "8CD80E87-BFEF-0F4D-AF50-964617D7D04E"},
		{"disk:serial=S3Z9NB0K123456", RESULTS_BY_SERIAL, "S3Z9NB0K123456"},
		{"disk:vdd", RESULTS_BY_NAME, "vdd"},
		{"disk:/dev/nvme0n1p2", RESULTS_BY_NAME, "nvme0n1p2"},
	};
	char err[RESULTS_SPEC_ERR_LEN];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		CHECK_EQ_INT(results_spec_parse(good[i].text, &s, err, sizeof(err)), 0);
		CHECK_EQ_INT(s.ch[0].by, good[i].by);
		CHECK_EQ_STR(s.ch[0].value, good[i].value);
	}
}

static void test_refused(void)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{"", "empty: name at least one channel"},
		{"ttyS1", "'ttyS1': not a channel (console, serial:TTY, kmsg[:LEVEL], disk:"},
		{"console,", "an empty word"},
		{",console", "an empty word"},
		{"console:x", "'console:x': not a channel"},
		{"serial", "'serial': not a channel"},
		{"serial:", "'serial:': not a tty name"},
		{"serial:/tmp/x", "'serial:/tmp/x': not a tty name"},
		{"serial:../ttyS1", "not a tty name"},
		{"serial:/dev/..", "not a tty name"},
		{"kmsg:8", "'kmsg:8': the kmsg level is a syslog level, 0 to 7"},
		{"kmsg:", "the kmsg level"},
		{"disk:",
		 "'disk:': not a disk: PARTLABEL=x, PARTUUID=x, serial=x, or a device name"},
		{"disk:PARTLABEL=", "'disk:PARTLABEL=': PARTLABEL= needs a value"},
		{"disk:PARTUUID=1234", "PARTUUID= needs a GPT partition GUID"},
		{"disk:PARTUUID=8cd80e87-bfef-0f4d-af50-964617d7d04g",
		 "needs a GPT partition GUID"},
		{"disk:/sys/x", "not a disk"},
		{"disk:vdd,disk:vde", "'disk:vde': a second results disk"},
		{"console,console", "'console': named twice"},
		{"kmsg,kmsg:2", "'kmsg:2': named twice"},
		{"serial:ttyS1,serial:/dev/ttyS1", "'serial:/dev/ttyS1': named twice"},
		{"console,kmsg,serial:a,serial:b,serial:c,serial:d,serial:e,serial:f,serial:g",
		 "more than 8 channels"},
	};
	char err[RESULTS_SPEC_ERR_LEN];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		CHECK_EQ_INT(results_spec_parse(bad[i].text, &s, err, sizeof(err)), -1);
		if (!strstr(err, bad[i].why))
			printf("# '%s': %s\n", bad[i].text, err);
		CHECK(strstr(err, bad[i].why) != NULL);
	}
}

/* Found by fuzz_results_spec: a newline in a word broke the error into two lines. */
static void test_error_is_one_line(void)
{
	char err[RESULTS_SPEC_ERR_LEN];

	CHECK_EQ_INT(results_spec_parse("d..k\n:PARTLABEL=x", &s, err, sizeof(err)), -1);
	CHECK(strchr(err, '\n') == NULL);
	CHECK(strstr(err, "'d..k?:PARTLABEL=x': not a channel") != NULL);
	CHECK_EQ_INT(results_spec_parse("a\tb,", &s, err, sizeof(err)), -1);
	CHECK(strchr(err, '\t') == NULL);
}

int main(void)
{
	RUN_TEST(test_default_console);
	RUN_TEST(test_every_kind);
	RUN_TEST(test_disk_specs);
	RUN_TEST(test_refused);
	RUN_TEST(test_error_is_one_line);
	CHECK_EXIT();
}
