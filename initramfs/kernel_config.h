/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel's .config, as far as the image builder asks it: which initramfs
 * compressions the kernel unpacks (CONFIG_RD_*) and which filesystems are
 * modules (CONFIG_EXT2_FS, ...). Only "CONFIG_X=value" lines count; "#
 * CONFIG_X is not set" and anything else mean unset.
 */
#ifndef IOMATRIX_INITRAMFS_KERNEL_CONFIG_H
#define IOMATRIX_INITRAMFS_KERNEL_CONFIG_H

#include <stddef.h>

struct kernel_config {
	char *path; /* where it was read from */
	char **keys;
	char **values;
	size_t count;
};

/* Parse text (name is for messages). Returns 0, or -1 when memory ran out. */
int kernel_config_parse(struct kernel_config *c, const char *name, const char *text,
			size_t len);
/* Read and parse path. Returns 0, or -1 with "path: cause" in err. */
int kernel_config_load(struct kernel_config *c, const char *path, char *err, size_t errlen);
void kernel_config_free(struct kernel_config *c);

/* The value ("y", "m", a number, a quoted string), or NULL when unset. */
const char *kernel_config_get(const struct kernel_config *c, const char *key);

/*
 * Where a kernel's config is usually found: with modules_root NULL,
 * /boot/config-R and /lib/modules/R/build/.config; with a modules_root
 * DIR (INSTALL_MOD_PATH), DIR/boot/config-R, DIR/lib/modules/R/build/.config,
 * DIR/lib/modules/R/config, DIR/config-R and DIR/.config. The first that
 * exists goes into out; returns 0, or -1 when none does (tried lists them).
 */
int kernel_config_find(const char *modules_root, const char *release, char *out, size_t outlen,
		       char *tried, size_t triedlen);

#endif
