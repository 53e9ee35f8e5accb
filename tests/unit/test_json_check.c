// SPDX-License-Identifier: GPL-2.0
/* The strict JSON checker: what it accepts, what it refuses, paths, minified text. */
#include <stdlib.h>

#include "check.h"
#include "lib/json_check.h"

static int check_text(const char *s)
{
	char err[128];

	return json_check(s, strlen(s), NULL, err, sizeof(err));
}

static void test_accepts(void)
{
	static const char *const good[] = {
		"{}", "[]", "0", "-0", "1.5e10", "-2.25E-3", "\"\"", "true", "false", "null",
		" \t\r\n{ \"a\" : [ 1 , 2 , { \"b\" : null } ] }\n",
		"\"esc \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9\"",
		"\"utf-8 \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"",
		"[[[[[[[[[[1]]]]]]]]]]",
	};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		if (check_text(good[i]))
			printf("# refused: %s\n", good[i]), check_failures++;
}

static void test_refuses(void)
{
	static const char *const bad[] = {
		"", " ", "{", "[1,]", "{\"a\":1,}", "{a:1}", "{\"a\" 1}", "01", "1.", ".5", "1e",
		"+1", "-", "NaN", "Infinity", "nul", "truex", "\"tab\tin string\"", "\"\\x\"",
		"\"\\u12g4\"", "\"unterminated", "\"\xc3\"", "\"\xc0\xaf\"", "\"\xed\xa0\x80\"",
		"{} {}", "[1] x", "'single'", "[1 2]",
	};
	char err[128];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!check_text(bad[i]))
			printf("# accepted: %s\n", bad[i]), check_failures++;
	CHECK_EQ_INT(json_check("[1,]", 4, NULL, err, sizeof(err)), -1);
	CHECK_EQ_STR(err, "byte 3: not a value");
	CHECK_EQ_INT(json_check("{\"a\":1 \"b\"", 10, NULL, err, sizeof(err)), -1);
	CHECK_EQ_STR(err, "byte 7: ',' or '}' expected");
}

static void test_depth_limit(void)
{
	char deep[2 * JSON_CHECK_MAX_DEPTH + 8], err[128];
	size_t n = 0;

	for (int i = 0; i <= JSON_CHECK_MAX_DEPTH + 1; i++)
		deep[n++] = '[';
	for (int i = 0; i <= JSON_CHECK_MAX_DEPTH + 1; i++)
		deep[n++] = ']';
	CHECK_EQ_INT(json_check(deep, n, NULL, err, sizeof(err)), -1);
	CHECK(strstr(err, "nested too deep") != NULL);
}

struct seen {
	char paths[16][64];
	char toks[16][32];
	int types[16];
	int n;
};

static void leaf(void *ctx, const char *path, enum json_leaf_type type, const char *tok,
		 size_t len)
{
	struct seen *s = ctx;

	if (s->n < 16) {
		snprintf(s->paths[s->n], sizeof(s->paths[0]), "%s", path);
		snprintf(s->toks[s->n], sizeof(s->toks[0]), "%.*s", (int)len, tok);
		s->types[s->n++] = type;
	}
}

static void test_paths_and_minified(void)
{
	const char *text = "{ \"jobs\" : [ { \"read\" : { \"bw_bytes\" : 100 } },\n"
			   "  { \"read\" : { \"bw_bytes\" : 2.5e2, \"x\" : \"a b\" } } ],\n"
			   "  \"ok\" : true, \"none\" : null }\n";
	struct seen s = {0};
	char out[256], err[128];
	struct json_check_opts o = {.leaf = leaf, .ctx = &s, .minified = out};

	CHECK_EQ_INT(json_check(text, strlen(text), &o, err, sizeof(err)), 0);
	CHECK_EQ_INT(s.n, 5);
	CHECK_EQ_STR(s.paths[0], "jobs.0.read.bw_bytes");
	CHECK_EQ_STR(s.toks[0], "100");
	CHECK_EQ_STR(s.paths[1], "jobs.1.read.bw_bytes");
	CHECK_EQ_STR(s.toks[1], "2.5e2");
	CHECK_EQ_STR(s.paths[2], "jobs.1.read.x");
	CHECK_EQ_STR(s.toks[2], "\"a b\"");
	CHECK_EQ_INT(s.types[2], JSON_LEAF_STRING);
	CHECK_EQ_STR(s.paths[3], "ok");
	CHECK_EQ_INT(s.types[3], JSON_LEAF_BOOL);
	CHECK_EQ_INT(s.types[4], JSON_LEAF_NULL);
	CHECK_EQ_STR(out, "{\"jobs\":[{\"read\":{\"bw_bytes\":100}},{\"read\":{\"bw_bytes\":2.5e2,"
			  "\"x\":\"a b\"}}],\"ok\":true,\"none\":null}");
	CHECK_EQ_INT(o.minified_len, strlen(out));
	/* the minified text is valid and minifies to itself */
	CHECK_EQ_INT(check_text(out), 0);
}

static void test_long_path_is_cut(void)
{
	char text[1024], err[128];
	size_t n = 0;
	struct seen s = {0};
	struct json_check_opts o = {.leaf = leaf, .ctx = &s};

	for (int i = 0; i < 30; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "{\"member%02d\":", i);
	n += (size_t)snprintf(text + n, sizeof(text) - n, "7");
	for (int i = 0; i < 30; i++)
		text[n++] = '}';
	CHECK_EQ_INT(json_check(text, n, &o, err, sizeof(err)), 0);
	CHECK_EQ_INT(s.n, 1);
	CHECK(!strncmp(s.paths[0], "member00.member01.", 18));
}

int main(void)
{
	RUN_TEST(test_accepts);
	RUN_TEST(test_refuses);
	RUN_TEST(test_depth_limit);
	RUN_TEST(test_paths_and_minified);
	RUN_TEST(test_long_path_is_cut);
	CHECK_EXIT();
}
