// SPDX-License-Identifier: GPL-2.0
/* modules.builtin and modules.softdep; see module_lists.h. */
#include "initramfs/module_lists.h"

#include <stdlib.h>
#include <string.h>

#define MAX_NAME 256

void module_name_normalise(const char *name, size_t len, char *out, size_t outlen)
{
	size_t n = len < outlen - 1 ? len : outlen - 1;

	for (size_t i = 0; i < n; i++)
		out[i] = name[i] == '-' ? '_' : name[i];
	out[n] = '\0';
}

int name_list_add(struct name_list *l, const char *name, size_t len)
{
	char **v = realloc(l->names, (l->count + 1) * sizeof(*v));

	if (!v)
		return -1;
	l->names = v;
	l->names[l->count] = strndup(name, len);
	if (!l->names[l->count])
		return -1;
	l->count++;
	return 0;
}

bool name_list_has(const struct name_list *l, const char *name)
{
	for (size_t i = 0; i < l->count; i++)
		if (!strcmp(l->names[i], name))
			return true;
	return false;
}

void name_list_free(struct name_list *l)
{
	for (size_t i = 0; i < l->count; i++)
		free(l->names[i]);
	free(l->names);
	l->names = NULL;
	l->count = 0;
}

void softdep_list_free(struct softdep_list *l)
{
	for (size_t i = 0; i < l->count; i++) {
		free(l->items[i].module);
		name_list_free(&l->items[i].pre);
		name_list_free(&l->items[i].post);
	}
	free(l->items);
	l->items = NULL;
	l->count = 0;
}

/* Walk lines; fn gets each without its newline. */
static int for_each_line(const char *text, size_t len, void *ctx,
			 int (*fn)(void *ctx, const char *line, size_t len))
{
	size_t pos = 0;

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;

		if (fn(ctx, text + pos, end - pos))
			return -1;
		pos = end + 1;
	}
	return 0;
}

static int builtin_line(void *ctx, const char *line, size_t len)
{
	const char *base = line, *end = line + len;
	char name[MAX_NAME];

	while (end > line && (end[-1] == '\r' || end[-1] == ' '))
		end--;
	for (const char *p = line; p < end; p++)
		if (*p == '/')
			base = p + 1;
	if (end - base <= 3 || memcmp(end - 3, ".ko", 3))
		return 0;
	module_name_normalise(base, (size_t)(end - 3 - base), name, sizeof(name));
	if (name_list_has(ctx, name))
		return 0;
	return name_list_add(ctx, name, strlen(name));
}

int module_builtin_parse(const char *text, size_t len, struct name_list *out)
{
	memset(out, 0, sizeof(*out));
	if (for_each_line(text, len, out, builtin_line)) {
		name_list_free(out);
		return -1;
	}
	return 0;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* The next blank-separated word in [*p, end), or NULL. */
static const char *next_word(const char **p, const char *end, size_t *wlen)
{
	const char *w;

	while (*p < end && blank(**p))
		(*p)++;
	if (*p == end)
		return NULL;
	w = *p;
	while (*p < end && !blank(**p))
		(*p)++;
	*wlen = (size_t)(*p - w);
	return w;
}

static int softdep_line(void *ctx, const char *line, size_t len)
{
	struct softdep_list *l = ctx;
	const char *p = line, *end = line + len, *w;
	struct name_list *into = NULL;
	struct softdep *sd, *items;
	char name[MAX_NAME];
	size_t wlen;

	w = next_word(&p, end, &wlen);
	if (!w || wlen != 7 || memcmp(w, "softdep", 7))
		return 0; /* comments, blank lines, other commands */
	w = next_word(&p, end, &wlen);
	if (!w)
		return 0;
	module_name_normalise(w, wlen, name, sizeof(name));
	items = realloc(l->items, (l->count + 1) * sizeof(*items));
	if (!items)
		return -1;
	l->items = items;
	sd = &l->items[l->count];
	memset(sd, 0, sizeof(*sd));
	sd->module = strdup(name);
	if (!sd->module)
		return -1;
	l->count++;
	while ((w = next_word(&p, end, &wlen))) {
		if (wlen == 4 && !memcmp(w, "pre:", 4))
			into = &sd->pre;
		else if (wlen == 5 && !memcmp(w, "post:", 5))
			into = &sd->post;
		else if (into && name_list_add(into, w, wlen))
			return -1;
		/* words before any "pre:"/"post:" are not softdeps: skipped */
	}
	return 0;
}

int module_softdep_parse(const char *text, size_t len, struct softdep_list *out)
{
	memset(out, 0, sizeof(*out));
	if (for_each_line(text, len, out, softdep_line)) {
		softdep_list_free(out);
		return -1;
	}
	return 0;
}
