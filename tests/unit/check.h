/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal unit-test harness: each CHECK prints nothing when it holds and
 * a located message when it fails; each TEST prints one TAP-style line
 * ("ok - name" / "not ok - name") that tests/run counts.
 */
#ifndef IOMATRIX_TESTS_CHECK_H
#define IOMATRIX_TESTS_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures;	/* failures inside the current test */
static int check_total_failed;	/* tests that failed in this binary */

#define CHECK(cond)                                                                   \
	do {                                                                          \
		if (!(cond)) {                                                        \
			fprintf(stdout, "# %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, \
				#cond);                                               \
			check_failures++;                                             \
		}                                                                     \
	} while (0)

#define CHECK_EQ_INT(a, b)                                                            \
	do {                                                                          \
		long long _a = (long long)(a), _b = (long long)(b);                   \
		if (_a != _b) {                                                       \
			fprintf(stdout, "# %s:%d: %s == %lld, expected %s == %lld\n",  \
				__FILE__, __LINE__, #a, _a, #b, _b);                  \
			check_failures++;                                             \
		}                                                                     \
	} while (0)

#define CHECK_EQ_STR(a, b)                                                            \
	do {                                                                          \
		const char *_a = (a), *_b = (b);                                      \
		if (!_a || !_b || strcmp(_a, _b)) {                                   \
			fprintf(stdout, "# %s:%d: %s == \"%s\", expected \"%s\"\n",    \
				__FILE__, __LINE__, #a, _a ? _a : "(null)",           \
				_b ? _b : "(null)");                                  \
			check_failures++;                                             \
		}                                                                     \
	} while (0)

#define RUN_TEST(fn)                                                                  \
	do {                                                                          \
		check_failures = 0;                                                   \
		fflush(stdout);                                                       \
		fn();                                                                 \
		printf("%s - %s\n", check_failures ? "not ok" : "ok", #fn);          \
		fflush(stdout);                                                       \
		if (check_failures)                                                   \
			check_total_failed++;                                         \
	} while (0)

#define CHECK_EXIT() return check_total_failed ? 1 : 0

#endif
