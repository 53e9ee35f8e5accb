/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The appliance's settings, read from the kernel command line. One table
 * (cmdline_keys) names every iomatrix.* key with its type, default and
 * help; parsing, validation, the printed configuration and the
 * documentation all come from it. An unknown iomatrix.* key or a bad value
 * is an error: the appliance says so in one line and powers off, because a
 * run with a setting quietly ignored is worse than no run.
 *
 *   iomatrix.debug           a bare key means 1
 *   iomatrix.disks=vdb,vdc   values may be quoted: iomatrix.matrix="x"
 */
#ifndef IOMATRIX_RUNNER_CMDLINE_H
#define IOMATRIX_RUNNER_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

#define CMDLINE_PREFIX "iomatrix."

struct appliance_config {
	char matrix[64];   /* the matrix to run */
	char cells[256];   /* which of its cells: "all" or "1,4-7,fs=ext4" */
	char disks[256];   /* the disks it may use, comma-separated */
	bool wipe;	   /* may destroy signatures found on those disks */
	char results[256]; /* where records go, comma-separated channels (results_spec.h) */
	int results_init;  /* no log on the results disk: 0 refuse, 1 make one, 2 even over data */
	bool debug;	   /* more verbose console */
	bool shell;	   /* busybox sh instead of powering off */
	double scale;	   /* the matrix's scale knob; 0: the matrix's own */
	int repeats;	   /* runs of every cell; 0: the matrix's own */
	int watchdog;	   /* hardware watchdog timeout, seconds; 0 off; CMDLINE_AUTO */
	char test_crash[32]; /* test only: "CELL[:STEP]" to crash the kernel in; "" none */
	char test_hang[32];  /* test only: "CELL[:STEP]" where PID 1 hangs; "" none */
};

#define CMDLINE_AUTO (-1) /* CMDLINE_AUTO_SECONDS: "auto" */

/* iomatrix.results_init= */
enum results_init { RESULTS_INIT_NO, RESULTS_INIT_YES, RESULTS_INIT_FORCE };

enum cmdline_type {
	CMDLINE_BOOL,	 /* 1/0, y/n, yes/no, on/off, true/false; bare key = 1 */
	CMDLINE_NAME,	 /* one word: letters, digits, '_', '.', '-' */
	CMDLINE_CELLS,	 /* "all", or comma-separated N, N-M (N <= M), dim=value, dim!=value */
	CMDLINE_LIST,	 /* comma-separated words (may be empty); words may hold ':', '/', '=' */
	CMDLINE_SCALE,	 /* "default" (stored as 0), or a number above 0, at most 1 (a double) */
	CMDLINE_COUNT,	 /* "default" (stored as 0), or a whole number 1-1000 (an int) */
	CMDLINE_RESULTS, /* channels, as results_spec.h parses them */
	CMDLINE_INIT,	 /* a bool, or "force" (an int: enum results_init) */
	CMDLINE_AUTO_SECONDS, /* "auto" (CMDLINE_AUTO), a bool's off words or 0 (0), 1-3600 */
	CMDLINE_TESTPOINT,    /* "" or CELL[:STEP]: a cell number, setup|workload|teardown */
};

/* The stages of a cell a test point names; cmdline_testpoint_parse. */
#define CMDLINE_STAGES "setup, workload or teardown"

struct cmdline_key {
	const char *name; /* without the "iomatrix." prefix */
	enum cmdline_type type;
	size_t offset; /* where the value lands in struct appliance_config */
	size_t size;   /* the size of that field (strings: including the NUL) */
	const char *def;
	const char *help;
};

extern const struct cmdline_key cmdline_keys[];
extern const size_t cmdline_nkeys;

#define CMDLINE_ERR_LEN 512

void cmdline_defaults(struct appliance_config *cfg);

/*
 * Reads every iomatrix.* word of a kernel command line (as in /proc/cmdline)
 * into cfg, which should hold the defaults. Other words are left to the
 * kernel. Returns 0, or -1 with one line in err naming the key, the value
 * and what is wrong (and, for an unknown key, the known ones).
 */
int cmdline_parse(struct appliance_config *cfg, const char *cmdline, char *err, size_t errlen);

/* One key (name without the prefix) and value (NULL: bare key). */
int cmdline_set(struct appliance_config *cfg, const char *name, const char *value, char *err,
		size_t errlen);

/* "matrix=quick cells=all ..." for the console, in table order. */
void cmdline_format(const struct appliance_config *cfg, char *buf, size_t len);

/*
 * A CMDLINE_TESTPOINT value: its cell (from 1) and stage (default
 * "workload"). Returns 0, or -1 when the value is "" or not one.
 */
int cmdline_testpoint_parse(const char *value, int *cell, const char **stage);

#endif
