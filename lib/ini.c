// SPDX-License-Identifier: GPL-2.0
/* The job-file INI dialect; see ini.h. */
#include "lib/ini.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/byte_buf.h"

#define INI_MAX_INCLUDE_DEPTH 16

struct ini_state {
	ini_handler handler;
	void *ctx;
	char *err;
	size_t errlen;
	char section[256];
	int have_section;
	int depth;
};

static int parse_text(struct ini_state *st, const char *name, const char *text, size_t len);

static int fail(struct ini_state *st, const char *file, int line, const char *fmt, ...)
{
	char msg[INI_ERR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(st->err, st->errlen, "%s:%d: %s", file, line, msg);
	return -1;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/*
 * Cut a comment: fio 3.33 ends a line at the first ';' or '#' wherever it
 * stands ("filename=a#b" names the file "a"), so this does too.
 */
static void strip_comment(char *s)
{
	s[strcspn(s, ";#")] = '\0';
}

/* Expand ${NAME} from the environment into a new string. */
static char *expand_env(struct ini_state *st, const char *file, int line, const char *s)
{
	size_t cap = strlen(s) + 1, n = 0;
	char *out = malloc(cap);

	if (!out) {
		fail(st, file, line, "out of memory");
		return NULL;
	}
	while (*s) {
		const char *val, *end;
		char var[256];
		size_t vlen;

		if (s[0] != '$' || s[1] != '{') {
			out[n++] = *s++;
			continue;
		}
		end = strchr(s + 2, '}');
		if (!end || (size_t)(end - s - 2) >= sizeof(var) || end == s + 2) {
			fail(st, file, line, "malformed ${...} in '%s'", s);
			free(out);
			return NULL;
		}
		memcpy(var, s + 2, end - s - 2);
		var[end - s - 2] = '\0';
		val = getenv(var);
		if (!val) {
			fail(st, file, line, "environment variable %s is not set", var);
			free(out);
			return NULL;
		}
		vlen = strlen(val);
		cap += vlen;
		char *grown = realloc(out, cap);
		if (!grown) {
			free(out);
			fail(st, file, line, "out of memory");
			return NULL;
		}
		out = grown;
		memcpy(out + n, val, vlen);
		n += vlen;
		s = end + 1;
	}
	out[n] = '\0';
	return out;
}

static int call(struct ini_state *st, struct ini_event *ev)
{
	char msg[INI_ERR_LEN] = "";

	if (st->handler(st->ctx, ev, msg, sizeof(msg)) == 0)
		return 0;
	return fail(st, ev->file, ev->line, "%s", msg[0] ? msg : "rejected");
}

/* A job file is text a person wrote: anything bigger is a mistake (or /dev/zero). */
#define INI_MAX_FILE (16 << 20)

static int parse_file(struct ini_state *st, const char *path, const char *from, int line)
{
	struct byte_buf b = { 0 };
	int rc;

	if (st->depth >= INI_MAX_INCLUDE_DEPTH)
		return fail(st, from, line, "include nested deeper than %d (a loop?)",
			    INI_MAX_INCLUDE_DEPTH);
	rc = byte_buf_load(&b, path, INI_MAX_FILE);
	if (rc) {
		if (!from) {
			snprintf(st->err, st->errlen, "%s: %s", path, strerror(rc));
			return -1;
		}
		return fail(st, from, line, "include %s: %s", path, strerror(rc));
	}
	st->depth++;
	rc = parse_text(st, path, (const char *)b.data, b.len);
	st->depth--;
	byte_buf_free(&b);
	return rc;
}

static int include_file(struct ini_state *st, const char *from, int line, const char *arg)
{
	const char *slash = strrchr(from, '/');
	char path[4096];

	if (!*arg)
		return fail(st, from, line, "include needs a file name");
	if (arg[0] == '/' || !slash)
		snprintf(path, sizeof(path), "%s", arg);
	else
		snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - from), from, arg);
	return parse_file(st, path, from, line);
}

static int parse_line(struct ini_state *st, const char *name, int lineno, char *line)
{
	struct ini_event ev = { .file = name, .line = lineno };
	char *s, *eq;

	strip_comment(line);
	s = trim(line);
	if (!*s)
		return 0;

	if (*s == '[') {
		char *close = strchr(s, ']');

		if (!close || close[1] != '\0')
			return fail(st, name, lineno, "malformed section header '%s'", s);
		*close = '\0';
		s = trim(s + 1);
		if (!*s)
			return fail(st, name, lineno, "empty section name");
		if (strlen(s) >= sizeof(st->section))
			return fail(st, name, lineno, "section name too long");
		strcpy(st->section, s);
		st->have_section = 1;
		ev.kind = INI_SECTION;
		ev.section = st->section;
		return call(st, &ev);
	}

	if (!strncmp(s, "include", 7) && isspace((unsigned char)s[7]))
		return include_file(st, name, lineno, trim(s + 8));

	char *expanded = expand_env(st, name, lineno, s);
	if (!expanded)
		return -1;
	ev.kind = INI_OPTION;
	ev.section = st->have_section ? st->section : NULL;
	eq = strchr(expanded, '=');
	if (eq) {
		*eq = '\0';
		ev.key = trim(expanded);
		ev.value = trim(eq + 1);
	} else {
		ev.key = trim(expanded);
		ev.value = NULL;
	}
	int rc = *ev.key ? call(st, &ev) : fail(st, name, lineno, "option with no name");
	free(expanded);
	return rc;
}

static int parse_text(struct ini_state *st, const char *name, const char *text, size_t len)
{
	size_t pos = 0;
	int lineno = 0;

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
		char *line = malloc(n + 1);
		int rc;

		if (!line)
			return fail(st, name, lineno + 1, "out of memory");
		memcpy(line, text + pos, n);
		line[n] = '\0';
		if (memchr(line, '\0', n))
			rc = fail(st, name, lineno + 1, "NUL byte in line");
		else
			rc = parse_line(st, name, ++lineno, line);
		free(line);
		if (rc)
			return rc;
		pos += n + (nl ? 1 : 0);
	}
	return 0;
}

int ini_parse_buffer(const char *name, const char *text, size_t len, ini_handler h, void *ctx,
		     char *err, size_t errlen)
{
	struct ini_state st = { .handler = h, .ctx = ctx, .err = err, .errlen = errlen };

	return parse_text(&st, name, text, len);
}

int ini_parse_file(const char *path, ini_handler h, void *ctx, char *err, size_t errlen)
{
	struct ini_state st = { .handler = h, .ctx = ctx, .err = err, .errlen = errlen };

	return parse_file(&st, path, NULL, 0);
}
