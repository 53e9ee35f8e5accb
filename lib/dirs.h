/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the host command finds the files it reads and the directory it
 * writes to, decided from its own path (/proc/self/exe) alone: never from
 * the current directory, so every subcommand works from anywhere, and a
 * copy installed under DESTDIR finds its own files, not the system's.
 *
 *              in the tree: build/iomatrix     installed: PREFIX/bin/iomatrix
 *   data       the tree (the nearest folder    PREFIX/share/iomatrix
 *              above with matrix/, initramfs/)
 *   runner     build/iomatrix-runner           PREFIX/libexec/iomatrix/iomatrix-runner
 *   work       build/                          $XDG_CACHE_HOME/iomatrix, else
 *                                              ~/.cache/iomatrix
 *
 * It is installed when PREFIX/share/iomatrix is a directory (make install
 * makes it); anything else is a tree. $IOMATRIX_WORK_DIR, when set (an
 * absolute path), is the work directory in either. The data directory holds the files at their
 * paths in the tree (matrix/quick.matrix, configs/jobs/dio_read.fio,
 * initramfs/NAME.list), so a reader takes DATA/PATH and never asks which it
 * is. The work directory holds image/ (what `iomatrix image` writes and
 * `iomatrix qemu` boots) and qemu/ (vmlinux cache, serial logs, temporary
 * disks): a cache, nothing in it that cannot be made again.
 */
#ifndef IOMATRIX_LIB_DIRS_H
#define IOMATRIX_LIB_DIRS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/* Below PREFIX; the Makefile's install rule uses the same. */
#define DIRS_DATA   "share/iomatrix"
#define DIRS_RUNNER "libexec/iomatrix"
#define DIRS_WORK_ENV "IOMATRIX_WORK_DIR"

/* The work directory without $IOMATRIX_WORK_DIR, as --help texts say it. */
#define DIRS_WORK_DEFAULT \
	"the build directory (build/) in the tree; installed: $XDG_CACHE_HOME/iomatrix, else " \
	"~/.cache/iomatrix"

struct iomatrix_dirs {
	bool installed;
	char exe[PATH_MAX];    /* this program */
	char data[PATH_MAX];   /* the tree, or PREFIX/share/iomatrix */
	char runner[PATH_MAX]; /* the runner binary the image gets as /init */
	char work[PATH_MAX];   /* not created here: dirs_make() it when writing */
};

/* Returns 0, or -1 with why in err (no /proc, or no work directory to name). */
int iomatrix_dirs(struct iomatrix_dirs *d, char *err, size_t errlen);

/* mkdir -p: path and its missing parents. Returns 0, or -1 with why in err. */
int dirs_make(const char *path, char *err, size_t errlen);

#endif
