/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Numbers as fio reads them.
 *
 *   sizes   4096, 4k, 4K, 4KiB, 4kb, 1.5g, 0x1000, (8*1024)+512, 50%
 *           With kb_base=1024 (fio's default) k/kB/KiB all mean 1024.
 *           With kb_base=1000, k/kB mean 1000 and only KiB/Ki means 1024.
 *           Prefixes: k m g t p (case-insensitive); b alone means bytes.
 *   times   10, 10s, 500ms, 20us, 100ns, 2m, 1h, 1d; a bare number is in
 *           the option's default unit (seconds for runtime, ...).
 *   floats  1.2, 99.5
 *   flags   1/0, yes/no, on/off, true/false (any case); the kernel
 *           command line's y/n as well (units_bool)
 *
 * Any of these may be an arithmetic expression, as fio allows:
 * + - * / % ^ and parentheses, with units on the numbers inside
 * ("(4k*2)", "8*1024+512", "2*10s"). The job reader replaces $ncpus,
 * $mb_memory and $pagesize before a value gets here (units_expand_keywords).
 *
 * Every function returns 0, or -1 with a message (no location: the caller
 * knows the option and the line) in err.
 */
#ifndef IOMATRIX_LIB_UNITS_H
#define IOMATRIX_LIB_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define UNITS_ERR_LEN 256

enum units_kind {
	UNITS_SIZE,  /* bytes, suffixes k/m/g/t/p */
	UNITS_TIME,  /* suffixes ns/us/ms/s/m/h/d */
	UNITS_PLAIN, /* a number; k/m/g suffixes as sizes (fio allows iodepth=1k) */
};

/* Evaluates s into *out (bytes; nanoseconds for UNITS_TIME). */
int units_eval(const char *s, enum units_kind kind, unsigned kb_base, uint64_t time_unit_ns,
	       long double *out, char *err, size_t errlen);

/* A size in bytes: a non-negative integer that fits in 64 bits. */
int units_size(const char *s, unsigned kb_base, uint64_t *out, char *err, size_t errlen);

/*
 * A time. A bare number is in default_unit_ns (1e9 for options measured in
 * seconds); the result is in microseconds, fio's resolution for options.
 */
int units_time_us(const char *s, uint64_t default_unit_ns, uint64_t *out_us, char *err,
		  size_t errlen);

/* A plain integer (may use k/m/g as multipliers of kb_base). */
int units_int(const char *s, unsigned kb_base, long long *out, char *err, size_t errlen);

/* A floating point number (an expression is allowed). */
int units_float(const char *s, double *out, char *err, size_t errlen);

/*
 * Which words a flag may be. The two sets differ on purpose: fio's job
 * options take 1 0 yes no on off true false, and a job file must mean to us
 * what it means to fio; the iomatrix.* keys of the kernel command line take
 * the kernel's own y and n (kstrtobool) as well.
 */
enum units_bool_words {
	UNITS_BOOL_FIO,
	UNITS_BOOL_KERNEL,
};

/*
 * A flag's value, case-insensitive. NULL (a bare "--flag" or "key" with no
 * "=value") is true. 0, or -1 when s is none of the words.
 */
int units_bool(const char *s, enum units_bool_words words, bool *out);

/*
 * Replaces fio's reserved keywords $ncpus, $mb_memory, $pagesize in s
 * with their values on this machine. Returns a new string (malloc) or NULL
 * when out of memory. Unknown $words are left alone for the ${ENV} pass.
 */
char *units_expand_keywords(const char *s);

#endif
