// SPDX-License-Identifier: GPL-2.0
/* The job-file INI dialect: sections, options, flags, comments, include, ${ENV}. */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "lib/ini.h"

struct seen {
	char log[4096];
};

static int record(void *ctx, const struct ini_event *ev, char *err, size_t errlen)
{
	struct seen *s = ctx;
	size_t n = strlen(s->log);

	if (ev->key && !strcmp(ev->key, "reject")) {
		snprintf(err, errlen, "option reject is refused");
		return -1;
	}
	if (ev->kind == INI_SECTION)
		snprintf(s->log + n, sizeof(s->log) - n, "[%s]@%d ", ev->section, ev->line);
	else
		snprintf(s->log + n, sizeof(s->log) - n, "%s:%s=%s@%d ",
			 ev->section ? ev->section : "-", ev->key, ev->value ? ev->value : "(flag)",
			 ev->line);
	return 0;
}

static int parse(const char *text, struct seen *s, char *err)
{
	memset(s, 0, sizeof(*s));
	return ini_parse_buffer("t.fio", text, strlen(text), record, s, err, INI_ERR_LEN);
}

static void test_sections_options_flags(void)
{
	struct seen s;
	char err[INI_ERR_LEN];

	CHECK_EQ_INT(parse("top=1\n[global]\n  ioengine = psync \nthread\n\n[job1]\nbs=4k\n", &s,
			   err), 0);
	CHECK_EQ_STR(s.log, "-:top=1@1 [global]@2 global:ioengine=psync@3 global:thread=(flag)@4 "
			    "[job1]@6 job1:bs=4k@7 ");
}

static void test_comments(void)
{
	struct seen s;
	char err[INI_ERR_LEN];

	/* fio 3.33 cuts "filename=a#b" at the '#' too. */
	CHECK_EQ_INT(parse("; a comment\n# another\n[j]\n;bs=$bs\nsize=1G ; trailing\n"
			   "filename=a#b\n  ; indented\n", &s, err), 0);
	CHECK_EQ_STR(s.log, "[j]@3 j:size=1G@5 j:filename=a@6 ");
}

static void test_env_expansion(void)
{
	struct seen s;
	char err[INI_ERR_LEN];

	setenv("IOMATRIX_T_BS", "64k", 1);
	CHECK_EQ_INT(parse("[j]\nbs=${IOMATRIX_T_BS}\n", &s, err), 0);
	CHECK_EQ_STR(s.log, "[j]@1 j:bs=64k@2 ");
	unsetenv("IOMATRIX_T_UNSET");
	CHECK_EQ_INT(parse("[j]\nbs=${IOMATRIX_T_UNSET}\n", &s, err), -1);
	CHECK_EQ_STR(err, "t.fio:2: environment variable IOMATRIX_T_UNSET is not set");
}

static void test_errors_name_the_line(void)
{
	struct seen s;
	char err[INI_ERR_LEN];

	CHECK_EQ_INT(parse("[j]\n\nreject=1\n", &s, err), -1);
	CHECK_EQ_STR(err, "t.fio:3: option reject is refused");
	CHECK_EQ_INT(parse("[j\n", &s, err), -1);
	CHECK_EQ_STR(err, "t.fio:1: malformed section header '[j'");
	CHECK_EQ_INT(parse("[ ]\n", &s, err), -1);
	CHECK_EQ_INT(parse("=5\n", &s, err), -1);
	CHECK_EQ_STR(err, "t.fio:1: option with no name");
}

static void test_include_relative_and_loops(void)
{
	char dir[] = "/tmp/iomatrix-ini-XXXXXX";
	char path[256], err[INI_ERR_LEN];
	struct seen s;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/inc.fio", dir);
	f = fopen(path, "w");
	fputs("bs=1M\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/main.fio", dir);
	f = fopen(path, "w");
	fputs("[j]\ninclude inc.fio\nsize=2G\n", f);
	fclose(f);
	memset(&s, 0, sizeof(s));
	CHECK_EQ_INT(ini_parse_file(path, record, &s, err, sizeof(err)), 0);
	CHECK_EQ_STR(s.log, "[j]@1 j:bs=1M@1 j:size=2G@3 ");

	snprintf(path, sizeof(path), "%s/loop.fio", dir);
	f = fopen(path, "w");
	fputs("include loop.fio\n", f);
	fclose(f);
	memset(&s, 0, sizeof(s));
	CHECK_EQ_INT(ini_parse_file(path, record, &s, err, sizeof(err)), -1);
	CHECK(strstr(err, "nested deeper") != NULL);

	CHECK_EQ_INT(ini_parse_file("/nonexistent/x.fio", record, &s, err, sizeof(err)), -1);
	CHECK_EQ_STR(err, "/nonexistent/x.fio: No such file or directory");

	snprintf(path, sizeof(path), "rm -rf %s", dir);
	CHECK_EQ_INT(system(path), 0);
}

int main(void)
{
	RUN_TEST(test_sections_options_flags);
	RUN_TEST(test_comments);
	RUN_TEST(test_env_expansion);
	RUN_TEST(test_errors_name_the_line);
	RUN_TEST(test_include_relative_and_loops);
	CHECK_EXIT();
}
