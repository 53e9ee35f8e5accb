/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where `iomatrix qemu` sends the results, besides the console:
 *
 *   --results-serial FILE  a serial port of their own (the guest's ttyS1,
 *                          captured to FILE), so records never mix with
 *                          the kernel's messages;
 *   --results-disk FILE    a results log on a virtio disk of its own
 *                          (serial iomatrix-results), FILE created sparse
 *                          (QR_DISK_SIZE) when missing; it survives crashes
 *                          and lets a later boot resume the run.
 *
 * Both add to the kernel command line what the appliance needs to use them
 * (iomatrix.results=..., iomatrix.results_init=1 for a disk that holds
 * nothing yet), unless the user's --append sets those keys.
 */
#ifndef IOMATRIX_QEMU_QEMU_RESULTS_H
#define IOMATRIX_QEMU_QEMU_RESULTS_H

#include <stdbool.h>
#include <stddef.h>

#define QR_DISK_SIZE   (64ull << 20)
#define QR_DISK_SERIAL "iomatrix-results"
#define QR_SERIAL_TTY  "ttyS1"
#define QR_ERR_LEN     1024

struct qemu_results {
	char disk[4096];   /* the results disk file, "" when none */
	bool disk_block;   /* a block device, not a file */
	bool disk_blank;   /* created now, or never written: the appliance may initialise it */
	char serial[4096]; /* the results serial capture, "" when none */
};

/*
 * Prepares the results disk (created when missing; an existing one must be
 * a file or block device) and notes the serial capture. dry_run: nothing
 * is created. Returns 0, or -1 with why in err.
 */
int qr_prepare(const char *disk, const char *serial, bool dry_run, struct qemu_results *out,
	       char *err, size_t errlen);

/* Whether words (a kernel command line) sets iomatrix.KEY=. */
bool qr_cmdline_sets(const char *words, const char *key);

/*
 * The words to add to the kernel command line ("" or starting with a
 * blank): iomatrix.results= with the disk, and serial:ttyS1 or the console;
 * iomatrix.results_init=1 for a blank disk. user_append: the user's words.
 */
void qr_cmdline(const struct qemu_results *r, const char *user_append, char *buf, size_t len);

#endif
