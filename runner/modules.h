/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loading the kernel modules the image lists. The image builder writes
 * /lib/modules/RELEASE/modules.load, one module a line in load order
 * (dependencies and soft dependencies first):
 *
 *   # comment
 *   <name> /lib/modules/RELEASE/<path>.ko
 *
 * The kernel has no usermode modprobe to fall back on here, so the order is
 * the builder's job and this file only follows it. finit_module's EEXIST
 * (built in or already loaded) and ENODEV (no such hardware, e.g.
 * crc32c-intel on a CPU without SSE4.2) are not errors.
 */
#ifndef IOMATRIX_RUNNER_MODULES_H
#define IOMATRIX_RUNNER_MODULES_H

#include <stddef.h>

#define MODULES_MAX	256
#define MODULES_ERR_LEN 512

struct module_entry {
	char name[64];
	char path[256];
	char params[128]; /* "key=value ..." passed to finit_module, or "" */
	int line;
};

struct module_list {
	struct module_entry mod[MODULES_MAX];
	size_t count;
};

/*
 * Parses the text of a modules.load (file names the source in errors).
 * Returns 0, or -1 with "file:line: what is wrong" in err.
 */
int modules_parse(const char *file, const char *text, size_t len, struct module_list *list,
		  char *err, size_t errlen);

/* Reads and parses the file at path (at most 1 MiB). */
int modules_read(const char *path, struct module_list *list, char *err, size_t errlen);

enum module_result {
	MODULE_LOADED,
	MODULE_PRESENT,	  /* EEXIST: built in or loaded already */
	MODULE_NO_DEVICE, /* ENODEV: nothing for it to drive */
	MODULE_FAILED,
};

struct modules_summary {
	size_t loaded, present, no_device, failed;
	double seconds; /* all loads together */
};

/*
 * Loads one module with finit_module(2); *seconds gets how long it took and
 * *error the errno of a failure.
 */
enum module_result module_load(const struct module_entry *m, double *seconds, int *error);

/*
 * Loads the whole list in order, one console line per failure (the
 * module's name, its path and strerror) and, with iomatrix.debug, one per
 * module with its time. A failure does not stop the others.
 */
void modules_load_all(const struct module_list *list, struct modules_summary *sum);

#endif
