/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The image's contents as a text list (initramfs/appliance.list, whose top
 * describes the format; docs/image.md too): directories, device nodes,
 * symlinks, files, tools, kernel modules with their parameters, and data
 * file patterns, one a line. Parsing checks every word, so the builder only
 * meets errors the host causes (a tool or module missing); a bad line is
 * one message "FILE:LINE: what is wrong".
 */
#ifndef IOMATRIX_INITRAMFS_APPLIANCE_LIST_H
#define IOMATRIX_INITRAMFS_APPLIANCE_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "initramfs/module_closure.h"

/* Where the shipped list is, relative to the project tree. */
#define APPLIANCE_LIST_IN_TREE "initramfs/appliance.list"

enum list_kind { LIST_DIR, LIST_NOD, LIST_SLINK, LIST_FILE, LIST_TOOL, LIST_MODULE,
		 LIST_OPTIONS, LIST_DATA };

struct list_entry {
	enum list_kind kind;
	unsigned int line;
	/* dir nod slink file tool: the image path; data: the glob below --data-dir */
	char *path;
	char *target;	/* slink */
	char *host;	/* file: where its contents are read from */
	char *package;	/* tool; file: NULL when none was given */
	char *why;	/* tool module */
	char *dir;	/* data: the image directory */
	uint32_t mode;	/* dir nod file */
	uint32_t major, minor; /* nod */
	bool optional;	/* tool */
	/* module; options: only name (normalised) and params */
	char *class;
	char *name;	/* as written for module (libkmod resolves aliases) */
	char *config;
	enum module_need need;
	char *served_by, *served_by_config; /* NULL unless given */
	char *params;	/* options: the parameters joined by one space */
};

struct appliance_list {
	char *file; /* for messages */
	struct list_entry *entries; /* in the order of the file */
	size_t count;
};

/*
 * Parse text; file names it in messages, and relative file HOST paths are
 * taken from its directory. Returns 0, or -1 with "FILE:LINE: what" (or
 * "FILE: out of memory") in err; l is empty on failure.
 */
int appliance_list_parse(struct appliance_list *l, const char *file, const char *text,
			 size_t len, char *err, size_t errlen);
/* Read and parse path. Returns 0, or -1 with a message naming path in err. */
int appliance_list_load(struct appliance_list *l, const char *path, char *err, size_t errlen);
void appliance_list_free(struct appliance_list *l);

/*
 * The module lines as module_closure_build takes them, ending with a NULL
 * name; free() it, the strings stay the list's. NULL when memory runs out.
 */
struct wanted_module *appliance_list_modules(const struct appliance_list *l);

/* The parameters the list gives module name (normalised), or NULL. */
const char *appliance_list_params(const struct appliance_list *l, const char *name);

#endif
