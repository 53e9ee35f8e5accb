// SPDX-License-Identifier: GPL-2.0
/* The image's contents as a text list; see appliance_list.h. */
#include "initramfs/appliance_list.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "initramfs/image_tree.h"
#include "initramfs/module_lists.h"
#include "lib/byte_buf.h"
#include "lib/errmsg.h"

#define MAX_LIST_SIZE (4u << 20)
#define MAX_WORDS     32 /* options lines are the longest: a module's parameters */
#define MAX_MODE      07777u
#define MAX_MAJOR     4095u	/* the kernel's dev_t: 12 bits of major, 20 of minor */
#define MAX_MINOR     1048575u

struct word {
	const char *s;
	size_t len;
};

/* One line being parsed: its words, and where to say what is wrong. */
struct line_ctx {
	struct appliance_list *l;
	const char *dir; /* of the list file, for relative HOST paths */
	unsigned int line;
	struct word w[MAX_WORDS];
	size_t n;
	char *err;
	size_t errlen;
};

static int bad(struct line_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int bad(struct line_ctx *c, const char *fmt, ...)
{
	char what[ERRMSG_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return errmsg(c->err, c->errlen, "%s:%u: %s", c->l->file, c->line, what);
}

static int nomem(struct line_ctx *c)
{
	return errmsg(c->err, c->errlen, "%s: out of memory", c->l->file);
}

static bool blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r';
}

/* Split [s, end) into words; a '#' starting a word ends the line. */
static int split(struct line_ctx *c, const char *s, const char *end)
{
	c->n = 0;
	for (;;) {
		const char *w;

		while (s < end && blank(*s))
			s++;
		if (s == end || *s == '#')
			return 0;
		if (c->n == MAX_WORDS)
			return bad(c, "more than %d words", MAX_WORDS);
		if (*s == '"') {
			w = ++s;
			while (s < end && *s != '"')
				s++;
			if (s == end)
				return bad(c, "a quote that does not end on its line");
			c->w[c->n++] = (struct word){ w, (size_t)(s - w) };
			s++;
			if (s < end && !blank(*s))
				return bad(c, "a quoted word must be followed by a blank");
			continue;
		}
		w = s;
		while (s < end && !blank(*s))
			s++;
		if (memchr(w, '"', (size_t)(s - w)))
			return bad(c, "a quote inside the word '%.*s'", (int)(s - w), w);
		c->w[c->n++] = (struct word){ w, (size_t)(s - w) };
	}
}

static bool is(const struct word *w, const char *s)
{
	return w->len == strlen(s) && !memcmp(w->s, s, w->len);
}

static char *dup_word(const struct word *w)
{
	return strndup(w->s, w->len);
}

/* Printed in messages: a word as written, shortened when long. */
#define WORD(w) (int)((w)->len < 80 ? (w)->len : 80), (w)->s

static bool all_of(const struct word *w, const char *set)
{
	if (!w->len)
		return false;
	for (size_t i = 0; i < w->len; i++)
		if (!w->s[i] || !strchr(set, w->s[i]))
			return false;
	return true;
}

#define DIGITS "0123456789"
#define UPPER  "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#define LOWER  "abcdefghijklmnopqrstuvwxyz"

static int need_path(struct line_ctx *c, const struct word *w, char **out)
{
	*out = dup_word(w);
	if (!*out)
		return nomem(c);
	if (!image_path_ok(*out))
		return bad(c, "'%.*s' is not a clean absolute path in the image", WORD(w));
	return 0;
}

static int need_mode(struct line_ctx *c, const struct word *w, uint32_t *out)
{
	uint32_t v = 0;

	if (!all_of(w, "01234567") || w->len > 5)
		return bad(c, "mode '%.*s' is not octal from 0 to 7777", WORD(w));
	for (size_t i = 0; i < w->len; i++)
		v = v * 8 + (uint32_t)(w->s[i] - '0');
	if (v > MAX_MODE)
		return bad(c, "mode '%.*s' is not octal from 0 to 7777", WORD(w));
	*out = v;
	return 0;
}

static int need_number(struct line_ctx *c, const struct word *w, const char *what, uint32_t max,
		       uint32_t *out)
{
	uint32_t v = 0;

	if (!all_of(w, DIGITS) || w->len > 7)
		return bad(c, "%s '%.*s' is not a number from 0 to %u", what, WORD(w), max);
	for (size_t i = 0; i < w->len; i++)
		v = v * 10 + (uint32_t)(w->s[i] - '0');
	if (v > max)
		return bad(c, "%s '%.*s' is not a number from 0 to %u", what, WORD(w), max);
	*out = v;
	return 0;
}

static int need_text(struct line_ctx *c, const struct word *w, const char *what, char **out)
{
	if (!w->len)
		return bad(c, "%s is empty", what);
	*out = dup_word(w);
	return *out ? 0 : nomem(c);
}

static bool module_name_ok(const struct word *w)
{
	return all_of(w, DIGITS UPPER LOWER "_-") && w->len < 64;
}

static int need_module(struct line_ctx *c, const struct word *w, char **out)
{
	if (!module_name_ok(w))
		return bad(c, "'%.*s' is not a module name (letters, digits, '_' and '-')",
			   WORD(w));
	*out = dup_word(w);
	return *out ? 0 : nomem(c);
}

static int need_config(struct line_ctx *c, const struct word *w, char **out)
{
	if (w->len < 8 || memcmp(w->s, "CONFIG_", 7) || !all_of(w, DIGITS UPPER "_"))
		return bad(c, "'%.*s' is not a kernel option (CONFIG_ and capitals, digits, '_')",
			   WORD(w));
	*out = dup_word(w);
	return *out ? 0 : nomem(c);
}

/* Relative HOST paths are from the list's directory, so a list travels with its files. */
static int need_host(struct line_ctx *c, const struct word *w, char **out)
{
	size_t n;

	if (need_text(c, w, "the host path", out))
		return -1;
	if (**out == '/' || !strcmp(c->dir, "."))
		return 0;
	free(*out);
	n = strlen(c->dir) + 1 + w->len + 1;
	*out = malloc(n);
	if (!*out)
		return nomem(c);
	snprintf(*out, n, "%s/%.*s", c->dir, (int)w->len, w->s);
	return 0;
}

/* A glob below --data-dir: relative, and never climbing out of it. */
static int need_pattern(struct line_ctx *c, const struct word *w, char **out)
{
	const char *p;

	if (need_text(c, w, "the pattern", out))
		return -1;
	if (**out == '/')
		return bad(c, "pattern '%s' is not relative to --data-dir", *out);
	for (p = *out; p; p = strchr(p, '/') ? strchr(p, '/') + 1 : NULL)
		if (!strncmp(p, "..", 2) && (p[2] == '/' || !p[2]))
			return bad(c, "pattern '%s' climbs out of --data-dir", *out);
	return 0;
}

static bool in_image(enum list_kind kind)
{
	return kind == LIST_DIR || kind == LIST_NOD || kind == LIST_SLINK || kind == LIST_FILE ||
	       kind == LIST_TOOL;
}

/*
 * An earlier entry at e's image path, or for e's module: the tree would
 * take a second one silently (or fail without a line), so say it here.
 */
static const struct list_entry *earlier(const struct appliance_list *l, const struct list_entry *e)
{
	for (const struct list_entry *o = l->entries; o < e; o++) {
		if (in_image(e->kind) && in_image(o->kind) && !strcmp(o->path, e->path))
			return o;
		if ((e->kind == LIST_MODULE || e->kind == LIST_OPTIONS) && o->kind == e->kind) {
			char a[64], b[64];

			module_name_normalise(o->name, strlen(o->name), a, sizeof(a));
			module_name_normalise(e->name, strlen(e->name), b, sizeof(b));
			if (!strcmp(a, b))
				return o;
		}
	}
	return NULL;
}

static int parse_dir(struct line_ctx *c, struct list_entry *e)
{
	return need_path(c, &c->w[1], &e->path) || need_mode(c, &c->w[2], &e->mode) ? -1 : 0;
}

static int parse_nod(struct line_ctx *c, struct list_entry *e)
{
	if (need_path(c, &c->w[1], &e->path) || need_mode(c, &c->w[2], &e->mode))
		return -1;
	if (!is(&c->w[3], "c"))
		return bad(c, "device type '%.*s': only character devices (c) are supported",
			   WORD(&c->w[3]));
	return need_number(c, &c->w[4], "major", MAX_MAJOR, &e->major) ||
			       need_number(c, &c->w[5], "minor", MAX_MINOR, &e->minor)
		       ? -1
		       : 0;
}

static int parse_slink(struct line_ctx *c, struct list_entry *e)
{
	return need_path(c, &c->w[1], &e->path) ||
			       need_text(c, &c->w[2], "the link target", &e->target)
		       ? -1
		       : 0;
}

static int parse_file(struct line_ctx *c, struct list_entry *e)
{
	if (need_path(c, &c->w[1], &e->path) || need_host(c, &c->w[2], &e->host) ||
	    need_mode(c, &c->w[3], &e->mode))
		return -1;
	return c->n == 5 ? need_text(c, &c->w[4], "the package", &e->package) : 0;
}

static int parse_tool(struct line_ctx *c, struct list_entry *e)
{
	if (need_path(c, &c->w[1], &e->path) ||
	    need_text(c, &c->w[2], "the package", &e->package) ||
	    need_text(c, &c->w[3], "WHY", &e->why))
		return -1;
	if (c->n == 5) {
		if (!is(&c->w[4], "optional"))
			return bad(c, "'%.*s': the only word after WHY can be 'optional'",
				   WORD(&c->w[4]));
		e->optional = true;
	}
	return 0;
}

static int parse_served_by(struct line_ctx *c, const struct word *w, struct list_entry *e)
{
	const char *colon = memchr(w->s, ':', w->len);
	struct word mod, opt;

	if (!colon)
		return bad(c, "'%.*s' is not served-by=MODULE:OPTION", WORD(w));
	mod = (struct word){ w->s + 10, (size_t)(colon - w->s - 10) };
	opt = (struct word){ colon + 1, (size_t)(w->s + w->len - colon - 1) };
	return need_module(c, &mod, &e->served_by) || need_config(c, &opt, &e->served_by_config)
		       ? -1
		       : 0;
}

static int parse_module(struct line_ctx *c, struct list_entry *e)
{
	bool optional = false, if_module = false;

	if (!all_of(&c->w[1], DIGITS LOWER "_-"))
		return bad(c, "class '%.*s' is not a word of small letters, digits, '_' and '-'",
			   WORD(&c->w[1]));
	e->class = dup_word(&c->w[1]);
	if (!e->class)
		return nomem(c);
	if (need_module(c, &c->w[2], &e->name) || need_config(c, &c->w[3], &e->config) ||
	    need_text(c, &c->w[4], "WHY", &e->why))
		return -1;
	for (size_t i = 5; i < c->n; i++) {
		const struct word *w = &c->w[i];

		if (is(w, "optional") && !optional) {
			optional = true;
		} else if (is(w, "if-module") && !if_module) {
			if_module = true;
		} else if (w->len > 10 && !memcmp(w->s, "served-by=", 10) && !e->served_by) {
			if (parse_served_by(c, w, e))
				return -1;
		} else {
			return bad(c, "'%.*s': after WHY come 'optional', or 'if-module' and "
				   "'served-by=MODULE:OPTION', each once", WORD(w));
		}
	}
	if (optional && if_module)
		return bad(c, "a module is 'optional' or 'if-module', not both");
	if (e->served_by && !if_module)
		return bad(c, "served-by= is for an 'if-module' module");
	e->need = optional ? NEED_OPTIONAL : if_module ? NEED_IF_MODULE : NEED_ALWAYS;
	return 0;
}

static int parse_options(struct line_ctx *c, struct list_entry *e)
{
	size_t len = 0, at = 0;

	if (need_module(c, &c->w[1], &e->name))
		return -1;
	/* stored as the kernel names it: the closure's names are normalised */
	module_name_normalise(e->name, strlen(e->name), e->name, strlen(e->name) + 1);
	for (size_t i = 2; i < c->n; i++) {
		if (!c->w[i].len)
			return bad(c, "an empty parameter");
		len += c->w[i].len + 1;
	}
	e->params = malloc(len);
	if (!e->params)
		return nomem(c);
	for (size_t i = 2; i < c->n; i++) {
		memcpy(e->params + at, c->w[i].s, c->w[i].len);
		at += c->w[i].len;
		e->params[at++] = i + 1 < c->n ? ' ' : '\0';
	}
	return 0;
}

static int parse_data(struct line_ctx *c, struct list_entry *e)
{
	return need_pattern(c, &c->w[1], &e->path) || need_path(c, &c->w[2], &e->dir) ? -1 : 0;
}

static const struct list_kind_info {
	const char *name;
	enum list_kind kind;
	size_t min, max; /* words after the kind */
	const char *usage;
	int (*parse)(struct line_ctx *c, struct list_entry *e);
} kinds[] = {
	{ "dir", LIST_DIR, 2, 2, "PATH MODE", parse_dir },
	{ "nod", LIST_NOD, 5, 5, "PATH MODE c MAJOR MINOR", parse_nod },
	{ "slink", LIST_SLINK, 2, 2, "PATH TARGET", parse_slink },
	{ "file", LIST_FILE, 3, 4, "PATH HOST MODE [PACKAGE]", parse_file },
	{ "tool", LIST_TOOL, 3, 4, "PATH PACKAGE WHY [optional]", parse_tool },
	{ "module", LIST_MODULE, 4, 6,
	  "CLASS NAME CONFIG WHY [optional | if-module [served-by=MODULE:OPTION]]", parse_module },
	{ "options", LIST_OPTIONS, 2, MAX_WORDS - 1, "MODULE PARAM...", parse_options },
	{ "data", LIST_DATA, 2, 2, "PATTERN DIR", parse_data },
};

static void entry_free(struct list_entry *e)
{
	free(e->path);
	free(e->target);
	free(e->host);
	free(e->package);
	free(e->why);
	free(e->dir);
	free(e->class);
	free(e->name);
	free(e->config);
	free(e->served_by);
	free(e->served_by_config);
	free(e->params);
}

static int parse_line(struct line_ctx *c, const char *s, const char *end)
{
	const struct list_kind_info *k = NULL;
	struct appliance_list *l = c->l;
	const struct list_entry *o;
	struct list_entry *e, *v;

	/* a NUL would end a word unseen: the line would not be read as written */
	if (memchr(s, '\0', (size_t)(end - s)))
		return bad(c, "a NUL byte");
	if (split(c, s, end))
		return -1;
	if (!c->n)
		return 0;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (is(&c->w[0], kinds[i].name))
			k = &kinds[i];
	if (!k)
		return bad(c, "'%.*s' is not a kind of entry (dir, nod, slink, file, tool, module, "
			   "options, data)", WORD(&c->w[0]));
	if (c->n - 1 < k->min || c->n - 1 > k->max)
		return bad(c, "%s takes %s (%zu word%s given)", k->name, k->usage, c->n - 1,
			   c->n == 2 ? "" : "s");
	v = realloc(l->entries, (l->count + 1) * sizeof(*v));
	if (!v)
		return nomem(c);
	l->entries = v;
	e = &l->entries[l->count++];
	memset(e, 0, sizeof(*e));
	e->kind = k->kind;
	e->line = c->line;
	if (k->parse(c, e))
		return -1;
	o = earlier(l, e);
	if (o && e->kind == LIST_MODULE)
		return bad(c, "module %s is on line %u already", e->name, o->line);
	if (o && e->kind == LIST_OPTIONS)
		return bad(c, "options for %s are on line %u already", e->name, o->line);
	if (o)
		return bad(c, "%s is on line %u already", e->path, o->line);
	return 0;
}

int appliance_list_parse(struct appliance_list *l, const char *file, const char *text,
			 size_t len, char *err, size_t errlen)
{
	struct line_ctx c = { .l = l, .err = err, .errlen = errlen };
	const char *slash = strrchr(file, '/');
	size_t pos = 0;
	char *dir;

	memset(l, 0, sizeof(*l));
	l->file = strdup(file);
	dir = slash ? strndup(file, (size_t)(slash - file) + (slash == file)) : strdup(".");
	if (!l->file || !dir) {
		free(dir);
		appliance_list_free(l);
		return errmsg(err, errlen, "%s: out of memory", file);
	}
	c.dir = dir;
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;

		c.line++;
		if (parse_line(&c, text + pos, text + end)) {
			free(dir);
			appliance_list_free(l);
			return -1;
		}
		pos = end + 1;
	}
	free(dir);
	return 0;
}

int appliance_list_load(struct appliance_list *l, const char *path, char *err, size_t errlen)
{
	struct byte_buf b = { 0 };
	int ret;

	memset(l, 0, sizeof(*l));
	if (byte_buf_read_file(&b, path, MAX_LIST_SIZE, err, errlen))
		return -1;
	ret = appliance_list_parse(l, path, (const char *)b.data, b.len, err, errlen);
	byte_buf_free(&b);
	return ret;
}

void appliance_list_free(struct appliance_list *l)
{
	for (size_t i = 0; i < l->count; i++)
		entry_free(&l->entries[i]);
	free(l->entries);
	free(l->file);
	memset(l, 0, sizeof(*l));
}

const char *appliance_list_params(const struct appliance_list *l, const char *name)
{
	for (size_t i = 0; i < l->count; i++)
		if (l->entries[i].kind == LIST_OPTIONS && !strcmp(l->entries[i].name, name))
			return l->entries[i].params;
	return NULL;
}

struct wanted_module *appliance_list_modules(const struct appliance_list *l)
{
	struct wanted_module *w = calloc(l->count + 1, sizeof(*w));
	size_t n = 0;

	if (!w)
		return NULL;
	for (size_t i = 0; i < l->count; i++) {
		const struct list_entry *e = &l->entries[i];

		if (e->kind != LIST_MODULE)
			continue;
		w[n++] = (struct wanted_module){
			.name = e->name, .config = e->config, .need = e->need,
			.served_by_config = e->served_by_config, .served_by = e->served_by,
			.why = e->why,
		};
	}
	return w;
}
