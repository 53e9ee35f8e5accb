// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz the JSON checker the runner uses on a workload's report: any bytes
 * give 0 or one error line; accepted text minifies to text that is
 * accepted again and minifies to itself.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json_check.h"

static void leaf(void *ctx, const char *path, enum json_leaf_type type, const char *tok,
		 size_t len)
{
	(void)ctx;
	(void)type;
	if (strlen(path) >= JSON_CHECK_PATH_MAX || !len || !tok)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[128];
	char *min = malloc(size + 1), *again = malloc(size + 1);
	struct json_check_opts o = {.leaf = leaf, .minified = min};
	struct json_check_opts o2 = {.minified = again};

	if (!min || !again)
		abort();
	if (json_check((const char *)data, size, &o, err, sizeof(err))) {
		if (!err[0] || strchr(err, '\n'))
			abort();
	} else {
		if (o.minified_len > size)
			abort();
		if (json_check(min, o.minified_len, &o2, err, sizeof(err)))
			abort();
		if (o2.minified_len != o.minified_len || memcmp(min, again, o.minified_len))
			abort();
	}
	free(min);
	free(again);
	return 0;
}
