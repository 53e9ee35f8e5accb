/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which kernel modules go into the image, in the order PID 1 loads them.
 * The caller names what the appliance needs (the module lines of the
 * image's list, appliance_list.h); the closure adds every dependency
 * (modules.dep, through libkmod) and every soft dependency (modules.softdep:
 * all lines of a module, pre and post, resolved through aliases)
 * recursively. The order is topological: a module's pre softdeps
 * and dependencies come before it, its post softdeps after it. A module
 * the kernel has built in (modules.builtin) is skipped; one that is
 * neither in the tree nor built in is an error naming it, unless it is
 * marked optional.
 */
#ifndef IOMATRIX_INITRAMFS_MODULE_CLOSURE_H
#define IOMATRIX_INITRAMFS_MODULE_CLOSURE_H

#include <stdbool.h>
#include <stdio.h>

#include "initramfs/kernel_config.h"
#include "initramfs/module_lists.h"

enum module_need {
	NEED_ALWAYS,	/* missing: an error */
	NEED_OPTIONAL,	/* missing: a note on stderr */
	NEED_IF_MODULE, /* only when config says =m; with no config known, optional */
};

struct wanted_module {
	const char *name;
	const char *config; /* the kernel option that builds it */
	enum module_need need;
	const char *served_by_config; /* when config is unset, the option that serves it */
	const char *served_by;	      /* ... and by what, for the note */
	const char *why;
};

struct closure_module {
	char *name;	 /* as the kernel names it ('_', not '-') */
	char *host_path; /* absolute path of the file in the tree */
	char *rel_path;	 /* below lib/modules/R, as in the file (.ko, .ko.xz ...) */
	bool soft;	 /* came in only as a soft dependency */
};

struct module_closure {
	struct closure_module *mods; /* in load order */
	size_t count;
	struct name_list builtin; /* wanted modules the kernel has built in */
	struct name_list info;	  /* lines worth telling the user (ext2 served by ext4 ...) */
};

/*
 * Resolve wanted (ending with a NULL name) against the module tree moddir (".../lib/modules/R");
 * config may be NULL when no kernel config was found. Notes on optional
 * modules left out go to notes (may be NULL). Returns 0, or -1 with err
 * naming the module that is missing and where it was looked for.
 */
int module_closure_build(const char *moddir, const struct wanted_module *wanted,
			 const struct kernel_config *config, struct module_closure *out,
			 FILE *notes, char *err, size_t errlen);
void module_closure_free(struct module_closure *c);

#endif
