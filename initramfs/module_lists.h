/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two text files of a kernel's module tree that libkmod does not answer
 * the way the image needs:
 *
 *   modules.builtin  one path a line ("kernel/fs/ext4/ext4.ko"): modules
 *                    built into the kernel. libkmod's lookup also looks at
 *                    the running kernel's /sys/module, which says nothing
 *                    about the kernel the image is for.
 *   modules.softdep  "softdep NAME pre: A B post: C" lines. libkmod uses
 *                    only the first line for a module (as modprobe does),
 *                    but depmod writes one line per softdep= in modinfo,
 *                    so btrfs's xxhash64 and crc32c would be lost.
 *
 * Module names are normalised as the kernel does: '-' becomes '_'.
 */
#ifndef IOMATRIX_INITRAMFS_MODULE_LISTS_H
#define IOMATRIX_INITRAMFS_MODULE_LISTS_H

#include <stdbool.h>
#include <stddef.h>

struct name_list {
	char **names;
	size_t count;
};

struct softdep {
	char *module;	      /* normalised */
	struct name_list pre; /* as written: aliases or names */
	struct name_list post;
};

struct softdep_list {
	struct softdep *items;
	size_t count;
};

/* Both return 0, or -1 when memory runs out; anything unparsable is skipped. */
int module_builtin_parse(const char *text, size_t len, struct name_list *out);
int module_softdep_parse(const char *text, size_t len, struct softdep_list *out);

void name_list_free(struct name_list *l);
bool name_list_has(const struct name_list *l, const char *name);
int name_list_add(struct name_list *l, const char *name, size_t len);
void softdep_list_free(struct softdep_list *l);

/* Copy name into out (outlen > 0) with '-' as '_'. */
void module_name_normalise(const char *name, size_t len, char *out, size_t outlen);

#endif
