/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Checking JSON text that another program wrote (the workload child's
 * report) before a record embeds it: one value, strictly as RFC 8259 says
 * (no trailing commas, no NaN, no control characters in strings, valid
 * UTF-8, blanks only around tokens), at most JSON_CHECK_MAX_DEPTH deep.
 *
 * The same pass can hand every scalar to a callback with its path, which
 * is how the runner reads a report's headline numbers without a JSON tree,
 * and can write the text without its insignificant blanks (the same
 * tokens, byte for byte):
 *
 *   static void leaf(void *ctx, const char *path, enum json_leaf_type t,
 *                    const char *tok, size_t len)
 *   {   // path "jobs.0.read.bw_bytes", tok "12345678"
 *   }
 *   struct json_check_opts o = { .leaf = leaf, .ctx = &sums };
 *   if (json_check(text, len, &o, err, sizeof(err))) ... err: "byte 17: ..."
 */
#ifndef IOMATRIX_LIB_JSON_CHECK_H
#define IOMATRIX_LIB_JSON_CHECK_H

#include <stddef.h>

#define JSON_CHECK_MAX_DEPTH 64
#define JSON_CHECK_PATH_MAX  256 /* a longer path is cut; the text is still checked */

enum json_leaf_type { JSON_LEAF_STRING, JSON_LEAF_NUMBER, JSON_LEAF_BOOL, JSON_LEAF_NULL };

/*
 * path: member names (as written, without quotes; escapes are kept) and
 * array positions from 0, joined by '.'; "" for a top-level scalar.
 * tok/len: the value's text (a string with its quotes).
 */
typedef void (*json_leaf_fn)(void *ctx, const char *path, enum json_leaf_type type, const char *tok,
			     size_t len);

struct json_check_opts {
	json_leaf_fn leaf; /* NULL: none */
	void *ctx;
	char *minified;	     /* NULL, or room for len + 1 bytes: the text without blanks */
	size_t minified_len; /* set on success: bytes in minified, before its NUL */
};

/*
 * Returns 0 when text[0..len) is one JSON value with optional blanks
 * around it; -1 with "byte N: what is wrong" in err otherwise. opts may be
 * NULL. The leaf callback may already have seen values when -1 returns.
 */
int json_check(const char *text, size_t len, struct json_check_opts *opts, char *err,
	       size_t errlen);

#endif
