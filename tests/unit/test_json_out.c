// SPDX-License-Identifier: GPL-2.0
/* The streaming JSON writer: structure, escaping, numbers, fio's layout. */
#include <math.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "check.h"
#include "lib/json_out.h"

static char *render(void (*fill)(struct jw *), bool pretty, int *end_rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct jw j;

	jw_init(&j, f, pretty);
	fill(&j);
	*end_rc = jw_end(&j);
	fclose(f);
	return buf;
}

static void fill_sample(struct jw *j)
{
	jw_obj_begin(j, NULL);
	jw_str(j, "name", "a \"q\"\n\x01");
	jw_int(j, "neg", -5);
	jw_uint(j, "big", 18446744073709551615ULL);
	jw_double(j, "d", 1.5);
	jw_double(j, "tiny", 2.5e-9);
	jw_double(j, "nan", NAN);
	jw_bool(j, "t", true);
	jw_null(j, "n");
	jw_arr_begin(j, "arr");
	jw_int(j, NULL, 1);
	jw_obj_begin(j, NULL);
	jw_obj_end(j);
	jw_arr_end(j);
	jw_obj_end(j);
}

static void test_compact(void)
{
	int rc;
	char *s = render(fill_sample, false, &rc);

	CHECK_EQ_INT(rc, 0);
	CHECK_EQ_STR(s, "{\"name\":\"a \\\"q\\\"\\n\\u0001\",\"neg\":-5,"
			"\"big\":18446744073709551615,\"d\":1.500000,\"tiny\":2.500000e-09,"
			"\"nan\":null,\"t\":true,\"n\":null,\"arr\":[1,{}]}");
	free(s);
}

static void test_pretty_is_valid_json(void)
{
	int rc;
	char *s = render(fill_sample, true, &rc);
	struct json_object *o = json_tokener_parse(s);
	struct json_object *v;

	CHECK(o != NULL);
	CHECK(json_object_object_get_ex(o, "tiny", &v));
	CHECK(fabs(json_object_get_double(v) - 2.5e-9) < 1e-15);
	CHECK(strstr(s, "\n  \"neg\" : -5,") != NULL);
	json_object_put(o);
	free(s);
}

static void fill_unbalanced(struct jw *j)
{
	jw_obj_begin(j, NULL);
}

static void test_unbalanced_is_reported(void)
{
	int rc;
	char *s = render(fill_unbalanced, false, &rc);

	CHECK_EQ_INT(rc, -1);
	free(s);
}

int main(void)
{
	RUN_TEST(test_compact);
	RUN_TEST(test_pretty_is_valid_json);
	RUN_TEST(test_unbalanced_is_reported);
	CHECK_EXIT();
}
