// SPDX-License-Identifier: GPL-2.0
/* A kernel's .config; see kernel_config.h. */
#include "initramfs/kernel_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/byte_buf.h"
#include "lib/errmsg.h"

#define MAX_CONFIG_SIZE (16u << 20)

static int add(struct kernel_config *c, const char *key, size_t klen, const char *val,
	       size_t vlen)
{
	char **keys = realloc(c->keys, (c->count + 1) * sizeof(*keys));
	char **values;

	if (!keys)
		return -1;
	c->keys = keys;
	values = realloc(c->values, (c->count + 1) * sizeof(*values));
	if (!values)
		return -1;
	c->values = values;
	c->keys[c->count] = strndup(key, klen);
	c->values[c->count] = strndup(val, vlen);
	if (!c->keys[c->count] || !c->values[c->count]) {
		free(c->keys[c->count]);
		free(c->values[c->count]);
		return -1;
	}
	c->count++;
	return 0;
}

/* "CONFIG_NAME=value": the key is CONFIG_ and [A-Za-z0-9_]. */
static int parse_line(struct kernel_config *c, const char *line, size_t len)
{
	size_t k = 0;

	if (len < 8 || memcmp(line, "CONFIG_", 7))
		return 0;
	while (k < len && (line[k] == '_' || (line[k] >= 'A' && line[k] <= 'Z') ||
			   (line[k] >= 'a' && line[k] <= 'z') || (line[k] >= '0' && line[k] <= '9')))
		k++;
	if (k == 7 || k == len || line[k] != '=')
		return 0;
	while (len > k + 1 && (line[len - 1] == '\r' || line[len - 1] == ' '))
		len--;
	return add(c, line, k, line + k + 1, len - k - 1);
}

int kernel_config_parse(struct kernel_config *c, const char *name, const char *text,
			size_t len)
{
	size_t pos = 0;

	memset(c, 0, sizeof(*c));
	c->path = strdup(name);
	if (!c->path)
		return -1;
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;

		if (parse_line(c, text + pos, end - pos)) {
			kernel_config_free(c);
			return -1;
		}
		pos = end + 1;
	}
	return 0;
}

int kernel_config_load(struct kernel_config *c, const char *path, char *err, size_t errlen)
{
	struct byte_buf b = { 0 };
	int ret;

	memset(c, 0, sizeof(*c));
	if (byte_buf_read_file(&b, path, MAX_CONFIG_SIZE, err, errlen))
		return -1;
	ret = kernel_config_parse(c, path, (const char *)b.data, b.len);
	byte_buf_free(&b);
	if (ret)
		return errmsg(err, errlen, "%s: out of memory", path);
	return 0;
}

void kernel_config_free(struct kernel_config *c)
{
	for (size_t i = 0; i < c->count; i++) {
		free(c->keys[i]);
		free(c->values[i]);
	}
	free(c->keys);
	free(c->values);
	free(c->path);
	memset(c, 0, sizeof(*c));
}

const char *kernel_config_get(const struct kernel_config *c, const char *key)
{
	/* The last assignment wins, as in Kconfig. */
	for (size_t i = c->count; i > 0; i--)
		if (!strcmp(c->keys[i - 1], key))
			return c->values[i - 1];
	return NULL;
}

int kernel_config_find(const char *modules_root, const char *release, char *out, size_t outlen,
		       char *tried, size_t triedlen)
{
	/* Formats of the path below the root; %s is the release. */
	static const char *const system_places[] = {
		"/boot/config-%s", "/lib/modules/%s/build/.config", NULL,
	};
	static const char *const tree_places[] = {
		"/boot/config-%s", "/lib/modules/%s/build/.config", "/lib/modules/%s/config",
		"/config-%s", "/.config", NULL,
	};
	const char *const *places = modules_root ? tree_places : system_places;
	const char *root = modules_root ? modules_root : "";
	size_t used = 0;

	if (triedlen)
		tried[0] = '\0';
	for (int i = 0; places[i]; i++) {
		char below[512];
		int n = snprintf(below, sizeof(below), places[i], release);

		if (n < 0 || (size_t)n >= sizeof(below))
			continue;
		n = snprintf(out, outlen, "%s%s", root, below);
		if (n < 0 || (size_t)n >= outlen)
			continue;
		if (!access(out, R_OK))
			return 0;
		if (used < triedlen) {
			n = snprintf(tried + used, triedlen - used, "%s%s", used ? ", " : "", out);
			if (n > 0)
				used += (size_t)n;
		}
	}
	return -1;
}
