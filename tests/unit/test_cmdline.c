// SPDX-License-Identifier: GPL-2.0
/* The iomatrix.* kernel command line keys. */
#include "check.h"
#include "runner/cmdline.h"

static int parse(struct appliance_config *c, const char *line, char *err)
{
	cmdline_defaults(c);
	return cmdline_parse(c, line, err, CMDLINE_ERR_LEN);
}

static void test_defaults(void)
{
	struct appliance_config c;
	char shown[512];

	cmdline_defaults(&c);
	cmdline_format(&c, shown, sizeof(shown));
	CHECK_EQ_STR(shown, "matrix=quick cells=all disks= wipe=0 results=console results_init=0 "
			    "debug=0 shell=0 scale=default repeats=default watchdog=auto "
			    "test_crash= test_hang=");
	CHECK(c.scale == 0);
	CHECK_EQ_INT(c.repeats, 0);
}

static void test_every_key_has_help_and_a_valid_default(void)
{
	struct appliance_config c;
	char err[CMDLINE_ERR_LEN];

	memset(&c, 0, sizeof(c));
	for (size_t i = 0; i < cmdline_nkeys; i++) {
		CHECK(cmdline_keys[i].help && cmdline_keys[i].help[0]);
		CHECK_EQ_INT(cmdline_set(&c, cmdline_keys[i].name, cmdline_keys[i].def, err,
					 sizeof(err)),
			     0);
	}
}

static void test_values_and_other_words(void)
{
	struct appliance_config c;
	char err[CMDLINE_ERR_LEN], shown[512];

	CHECK_EQ_INT(parse(&c,
			   "BOOT_IMAGE=/vmlinuz console=ttyS0 iomatrix.matrix=seed002 "
			   "iomatrix.cells=1,4-7 iomatrix.disks=vdb,vdc iomatrix.wipe=yes "
			   "iomatrix.debug iomatrix.shell=off "
			   "iomatrix.results=console,serial:ttyS1 quiet",
			   err),
		     0);
	cmdline_format(&c, shown, sizeof(shown));
	CHECK_EQ_STR(shown, "matrix=seed002 cells=1,4-7 disks=vdb,vdc wipe=1 "
			    "results=console,serial:ttyS1 results_init=0 debug=1 shell=0 "
			    "scale=default repeats=default watchdog=auto test_crash= test_hang=");
}

static void test_quotes_and_last_wins(void)
{
	struct appliance_config c;
	char err[CMDLINE_ERR_LEN];

	CHECK_EQ_INT(
		parse(&c, "iomatrix.matrix=a \"iomatrix.matrix=b\" iomatrix.disks=\"vdb\"", err),
		0);
	CHECK_EQ_STR(c.matrix, "b");
	CHECK_EQ_STR(c.disks, "vdb");
	/* A quoted blank makes one word, which a name cannot hold. */
	CHECK_EQ_INT(parse(&c, "iomatrix.matrix=\"a b\"", err), -1);
}

static void test_unknown_key_names_it_and_the_known_ones(void)
{
	struct appliance_config c;
	char err[CMDLINE_ERR_LEN];

	CHECK_EQ_INT(parse(&c, "quiet iomatrix.bogus=1", err), -1);
	CHECK(strstr(err, "unknown key iomatrix.bogus") != NULL);
	CHECK(strstr(err, "iomatrix.shell") != NULL);
	CHECK(strchr(err, '\n') == NULL);
}

static void test_bad_values(void)
{
	static const char *const bad[] = {
		"iomatrix.debug=maybe", "iomatrix.debug=",	   "iomatrix.matrix",
		"iomatrix.matrix=",	"iomatrix.matrix=a/b",	   "iomatrix.cells=",
		"iomatrix.cells=3-1",	"iomatrix.cells=1,,2",	   "iomatrix.cells=x",
		"iomatrix.cells=1-",	"iomatrix.disks=vdb,",	   "iomatrix.disks=,vdb",
		"iomatrix.disks=v;b",	"iomatrix.cells=99999999",
	};
	struct appliance_config c;
	char err[CMDLINE_ERR_LEN];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (parse(&c, bad[i], err) != -1)
			printf("# accepted: %s\n", bad[i]);
		CHECK(err[0] != '\0');
	}
	CHECK_EQ_INT(parse(&c, "iomatrix.debug=maybe", err), -1);
	CHECK_EQ_STR(err, "iomatrix.debug=maybe: not a boolean (use 1/0, y/n, yes/no, on/off, "
			  "true/false)");
}

/* Found by fuzz_cmdline: a quote kept a newline inside a key, and the error line broke in two. */
static void test_control_characters_stay_out_of_the_error_line(void)
{
	struct appliance_config c;
	char err[CMDLINE_ERR_LEN];

	CHECK_EQ_INT(parse(&c, "iomatrix.@eb\"\n", err), -1);
	CHECK_EQ_STR(err, "iomatrix.@eb?=: control character in a key or value");
	CHECK_EQ_INT(parse(&c, "\"iomatrix.matrix=a\tb\"", err), -1);
	CHECK(strchr(err, '\t') == NULL);
}

static void test_too_long(void)
{
	struct appliance_config c;
	char err[CMDLINE_ERR_LEN], line[256];

	snprintf(line, sizeof(line), "iomatrix.matrix=%0100d", 7);
	CHECK_EQ_INT(parse(&c, line, err), -1);
	CHECK(strstr(err, "longer than 63") != NULL);
}

static void test_cell_filters(void)
{
	struct appliance_config c;
	char err[CMDLINE_ERR_LEN];
	static const char *const good[] = {
		"iomatrix.cells=fs=ext4",
		"iomatrix.cells=1-3,array!=jbod,fs=ext4",
		"iomatrix.cells=bs=4k,iodepth=128",
		"iomatrix.cells=mount=dioread_nolock,7",
	};
	static const char *const bad[] = {
		"iomatrix.cells=fs=",	 "iomatrix.cells==ext4", "iomatrix.cells=fs==x",
		"iomatrix.cells=Fs=x",	 "iomatrix.cells=fs!x",	 "iomatrix.cells=fs=a,",
		"iomatrix.cells=fs=a;b",
	};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		CHECK_EQ_INT(parse(&c, good[i], err), 0);
		CHECK_EQ_STR(c.cells, strchr(good[i], '=') + 1);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_EQ_INT(parse(&c, bad[i], err), -1);
	CHECK(strstr(err, "not a cell selection (all, or N, N-M, dimension=value") != NULL);
}

static void test_scale_and_repeats(void)
{
	struct appliance_config c;
	char err[CMDLINE_ERR_LEN], shown[512];

	CHECK_EQ_INT(parse(&c, "iomatrix.scale=0.05 iomatrix.repeats=3", err), 0);
	CHECK(c.scale == 0.05);
	CHECK_EQ_INT(c.repeats, 3);
	cmdline_format(&c, shown, sizeof(shown));
	CHECK(strstr(shown, " scale=0.05 repeats=3") != NULL);
	CHECK_EQ_INT(
		parse(&c, "iomatrix.scale=1 iomatrix.scale=default iomatrix.repeats=1000", err), 0);
	CHECK(c.scale == 0);
	CHECK_EQ_INT(c.repeats, 1000);
	CHECK_EQ_INT(parse(&c, "iomatrix.scale=.5", err), 0);
	CHECK(c.scale == 0.5);

	static const char *const bad[] = {
		"iomatrix.scale=0",	"iomatrix.scale=1.5",  "iomatrix.scale=-0.1",
		"iomatrix.scale=nan",	"iomatrix.scale=0.1x", "iomatrix.scale",
		"iomatrix.scale=inf",	"iomatrix.repeats=0",  "iomatrix.repeats=1001",
		"iomatrix.repeats=2.5", "iomatrix.repeats=-1", "iomatrix.repeats",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_EQ_INT(parse(&c, bad[i], err), -1);
		CHECK(strstr(err, strchr(bad[i], '.') + 1) != NULL);
	}
	CHECK_EQ_INT(parse(&c, "iomatrix.scale=2", err), -1);
	CHECK_EQ_STR(err,
		     "iomatrix.scale=2: not a scale (default, or a number above 0 and at most 1)");
}

/* The keys of results that survive: channels, initialising, the watchdog, test points. */
static void test_results_watchdog_and_test_points(void)
{
	struct appliance_config c;
	char err[CMDLINE_ERR_LEN], shown[512];
	const char *stage;
	int cell;

	CHECK_EQ_INT(parse(&c,
			   "iomatrix.results=disk:serial=iomatrix-results,serial:ttyS1 "
			   "iomatrix.results_init iomatrix.watchdog=30 iomatrix.test_crash=3 "
			   "iomatrix.test_hang=2:teardown",
			   err),
		     0);
	CHECK_EQ_STR(c.results, "disk:serial=iomatrix-results,serial:ttyS1");
	CHECK_EQ_INT(c.results_init, RESULTS_INIT_YES);
	CHECK_EQ_INT(c.watchdog, 30);
	cmdline_format(&c, shown, sizeof(shown));
	CHECK(strstr(shown, " results_init=1 ") != NULL);
	CHECK(strstr(shown, " watchdog=30 test_crash=3 test_hang=2:teardown") != NULL);
	CHECK_EQ_INT(cmdline_testpoint_parse(c.test_crash, &cell, &stage), 0);
	CHECK_EQ_INT(cell, 3);
	CHECK_EQ_STR(stage, "workload");
	CHECK_EQ_INT(cmdline_testpoint_parse(c.test_hang, &cell, &stage), 0);
	CHECK_EQ_STR(stage, "teardown");
	CHECK_EQ_INT(cmdline_testpoint_parse("", &cell, &stage), -1);

	CHECK_EQ_INT(parse(&c, "iomatrix.results_init=force iomatrix.watchdog=off", err), 0);
	CHECK_EQ_INT(c.results_init, RESULTS_INIT_FORCE);
	CHECK_EQ_INT(c.watchdog, 0);
	cmdline_format(&c, shown, sizeof(shown));
	CHECK(strstr(shown, " results_init=force ") != NULL);
	CHECK(strstr(shown, " watchdog=0 ") != NULL);
	CHECK_EQ_INT(parse(&c, "iomatrix.watchdog=0 iomatrix.results_init=no", err), 0);
	CHECK_EQ_INT(c.watchdog, 0);
	CHECK_EQ_INT(c.results_init, RESULTS_INIT_NO);

	static const char *const bad[] = {
		"iomatrix.results=",
		"iomatrix.results=ttyS1",
		"iomatrix.results=serial:",
		"iomatrix.results=disk:",
		"iomatrix.results=console,console",
		"iomatrix.results_init=2",
		"iomatrix.watchdog=3601",
		"iomatrix.watchdog=yes",
		"iomatrix.watchdog",
		"iomatrix.test_crash=0",
		"iomatrix.test_crash=2:mkfs",
		"iomatrix.test_hang=x",
		"iomatrix.test_crash=3:",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (parse(&c, bad[i], err) != -1)
			printf("# accepted: %s\n", bad[i]);
		CHECK(err[0] != '\0');
	}
	/* The results parser's own words reach the error line. */
	CHECK_EQ_INT(parse(&c, "iomatrix.results=disk:a,disk:b", err), -1);
	CHECK_EQ_STR(err, "iomatrix.results=disk:a,disk:b: 'disk:b': a second results disk (one "
			  "run writes one results log; 'disk:a' is the first)");
	CHECK_EQ_INT(parse(&c, "iomatrix.test_crash=2:mkfs", err), -1);
	CHECK_EQ_STR(err, "iomatrix.test_crash=2:mkfs: not CELL[:STAGE] (a cell number; stage "
			  "setup, workload or teardown)");
}

int main(void)
{
	RUN_TEST(test_defaults);
	RUN_TEST(test_every_key_has_help_and_a_valid_default);
	RUN_TEST(test_values_and_other_words);
	RUN_TEST(test_quotes_and_last_wins);
	RUN_TEST(test_unknown_key_names_it_and_the_known_ones);
	RUN_TEST(test_bad_values);
	RUN_TEST(test_control_characters_stay_out_of_the_error_line);
	RUN_TEST(test_too_long);
	RUN_TEST(test_scale_and_repeats);
	RUN_TEST(test_cell_filters);
	RUN_TEST(test_results_watchdog_and_test_points);
	CHECK_EXIT();
}
