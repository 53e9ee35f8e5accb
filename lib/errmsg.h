/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How host code reports errors: a function that fails writes one line
 * (without a trailing newline) into the caller's buffer and returns -1.
 * The line names the thing, the place and the cause.
 */
#ifndef IOMATRIX_LIB_ERRMSG_H
#define IOMATRIX_LIB_ERRMSG_H

#include <stddef.h>

#define ERRMSG_LEN 1024

/* snprintf into err, then return -1 (so "return errmsg(...)" fails). */
int errmsg(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
