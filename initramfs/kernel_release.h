/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which kernel release an image is for, and where its modules are.
 *
 *   system (modules_root NULL): /lib/modules/R. With no release given,
 *       the newest R in /lib/modules that has /boot/vmlinuz-R.
 *   a tree (modules_root DIR, as `make modules_install INSTALL_MOD_PATH=DIR`
 *       leaves it): DIR/lib/modules/R. With no release given, DIR must hold
 *       exactly one.
 */
#ifndef IOMATRIX_INITRAMFS_KERNEL_RELEASE_H
#define IOMATRIX_INITRAMFS_KERNEL_RELEASE_H

#include <stddef.h>

/*
 * Fill release and moddir. system_root prefixes the system paths ("" in
 * use; tests point it at a fake root). Returns 0, or -1 with one line in
 * err saying what is missing and how to get it.
 */
int kernel_release_pick(const char *system_root, const char *modules_root,
			const char *release_opt, char *release, size_t release_len,
			char *moddir, size_t moddir_len, char *err, size_t errlen);

/*
 * The releases in dir (its subdirectories); with need_kernel_in set, only
 * those with need_kernel_in/vmlinuz-R. best gets the newest (strverscmp),
 * "" for none; all, unless all_len is 0, a comma list of them. Returns how
 * many there are, or -1 with errno when dir cannot be listed.
 */
int kernel_release_scan(const char *dir, const char *need_kernel_in, char *best,
			size_t best_len, char *all, size_t all_len);

#endif
