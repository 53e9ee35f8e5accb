/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The INI dialect of fio's job files, shared by job files and matrix files:
 *
 *   [section]          starts a section ("global" is only a name here)
 *   key=value          an option; blanks around '=' and at the ends are dropped
 *   key                a bare flag (value NULL)
 *   ; comment          ';' or '#' anywhere ends the line, as in fio 3.33
 *   include FILE       reads FILE in place, relative to the including file
 *   ${NAME}            replaced by the environment variable NAME (an
 *                      undefined one is an error: nothing is guessed)
 *
 * The parser only tokenises: it calls a handler for each section and
 * option with the file and line it came from, and the handler decides what
 * the names mean. Every error names file:line.
 */
#ifndef IOMATRIX_LIB_INI_H
#define IOMATRIX_LIB_INI_H

#include <stddef.h>

enum ini_kind { INI_SECTION, INI_OPTION };

struct ini_event {
	enum ini_kind kind;
	const char *file; /* the file (or buffer name) the line came from */
	int line;	  /* 1-based */
	const char *section; /* INI_SECTION: its name; INI_OPTION: the enclosing
				section, or NULL before the first one */
	const char *key;     /* INI_OPTION only */
	const char *value;   /* INI_OPTION only; NULL for a bare flag */
};

#define INI_ERR_LEN 512

/*
 * A handler returns 0 to go on, or -1 after writing a message (without a
 * location: the parser prefixes "file:line: ") into err.
 */
typedef int (*ini_handler)(void *ctx, const struct ini_event *ev, char *err, size_t errlen);

/* Both return 0, or -1 with "file:line: message" in err. */
int ini_parse_file(const char *path, ini_handler h, void *ctx, char *err, size_t errlen);
int ini_parse_buffer(const char *name, const char *text, size_t len, ini_handler h, void *ctx,
		     char *err, size_t errlen);

#endif
