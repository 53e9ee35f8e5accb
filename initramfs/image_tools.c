// SPDX-License-Identifier: GPL-2.0
/* The list's tools, their files and links; see image_tools.h. */
#include "initramfs/image_tools.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/errmsg.h"
#include "initramfs/library_closure.h"

/* Look program up in the tool path; out gets the first executable match. */
static int find_tool(const char *program, char *out, size_t outlen)
{
	const char *path = getenv(TOOL_PATH_ENV);
	char *copy, *save = NULL;
	int ret = -1;

	copy = strdup(path && *path ? path : TOOL_PATH_DEFAULT);
	if (!copy)
		return -1;
	for (char *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		struct stat st;

		if (snprintf(out, outlen, "%s/%s", dir, program) >= (int)outlen)
			continue;
		if (!stat(out, &st) && S_ISREG(st.st_mode) && !access(out, X_OK)) {
			ret = 0;
			break;
		}
	}
	free(copy);
	return ret;
}

static const char *tool_path_shown(void)
{
	const char *path = getenv(TOOL_PATH_ENV);

	return path && *path ? path : TOOL_PATH_DEFAULT;
}

/* Where link leads in the image, "." and ".." resolved. Returns 0, or -1 when too long. */
static int link_leads_to(const struct list_entry *link, char *out, size_t outlen)
{
	/* a relative target is from the link's directory */
	int dirlen = link->target[0] == '/' ? 0 : (int)(strrchr(link->path, '/') - link->path);
	char buf[PATH_MAX], *save = NULL;
	size_t n = 0;

	if (snprintf(buf, sizeof(buf), "%.*s/%s", dirlen, link->path, link->target) >=
	    (int)sizeof(buf))
		return -1;
	out[0] = '\0';
	for (char *c = strtok_r(buf, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		if (!strcmp(c, "."))
			continue;
		if (!strcmp(c, "..")) {
			n = strrchr(out, '/') ? (size_t)(strrchr(out, '/') - out) : 0;
			out[n] = '\0';
			continue;
		}
		n += (size_t)snprintf(out + n, outlen - n, "/%s", c);
		if (n >= outlen)
			return -1;
	}
	return 0;
}

/* The tool of the list a link points at, or NULL. */
static const struct list_entry *link_tool(const struct appliance_list *l,
					  const struct list_entry *link)
{
	char path[PATH_MAX];

	if (link_leads_to(link, path, sizeof(path)))
		return NULL;
	for (size_t i = 0; i < l->count; i++)
		if (l->entries[i].kind == LIST_TOOL && !strcmp(l->entries[i].path, path))
			return &l->entries[i];
	return NULL;
}

static int add_tool(struct image_tree *t, const struct list_entry *tool, FILE *notes, char *err,
		    size_t errlen)
{
	const char *program = strrchr(tool->path, '/') + 1;
	char host[PATH_MAX];

	if (!find_tool(program, host, sizeof(host)))
		return image_add_program(t, tool->path, host, PART_TOOLS, err, errlen);
	if (!tool->optional)
		return errmsg(err, errlen, "%s not found in %s: install %s (make deps)", program,
			      tool_path_shown(), tool->package);
	if (notes)
		fprintf(notes,
			"iomatrix image: note: %s not found in %s, left out (optional, for %s; "
			"install %s to have it)\n",
			program, tool_path_shown(), tool->why, tool->package);
	return 0;
}

static int add_file(struct image_tree *t, const struct list_entry *f, char *err, size_t errlen)
{
	if (access(f->host, R_OK)) {
		if (f->package)
			return errmsg(err, errlen, "%s not found: install %s (make deps)", f->host,
				      f->package);
		return errmsg(err, errlen, "%s not found", f->host);
	}
	return image_add_host_file(t, f->path, f->mode, PART_TOOLS, f->host, err, errlen);
}

static int add_link(struct image_tree *t, const struct appliance_list *l,
		    const struct list_entry *link, char *err, size_t errlen)
{
	const struct list_entry *tool = link_tool(l, link);

	if (tool && !image_find(t, tool->path))
		return 0; /* an optional tool left out: no dangling link to it */
	return image_add_symlink(t, link->path, link->target, tool ? PART_TOOLS : PART_LAYOUT, err,
				 errlen);
}

/* Links last: whether a tool made it in is known only then. */
int image_add_tools(struct image_tree *t, const struct appliance_list *l, FILE *notes,
		    char *err, size_t errlen)
{
	for (size_t i = 0; i < l->count; i++)
		if (l->entries[i].kind == LIST_TOOL &&
		    add_tool(t, &l->entries[i], notes, err, errlen))
			return -1;
	for (size_t i = 0; i < l->count; i++)
		if (l->entries[i].kind == LIST_FILE && add_file(t, &l->entries[i], err, errlen))
			return -1;
	for (size_t i = 0; i < l->count; i++)
		if (l->entries[i].kind == LIST_SLINK && add_link(t, l, &l->entries[i], err, errlen))
			return -1;
	return 0;
}
