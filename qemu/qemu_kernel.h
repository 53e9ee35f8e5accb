/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel `iomatrix qemu` boots: which one (a release installed under
 * /boot, or a bzImage given by path), its version string, and the ELF
 * vmlinux inside it for PVH direct boot.
 *
 * PVH: QEMU starts an ELF kernel that carries the Xen PHYS32_ENTRY note
 * directly in 32-bit protected mode, skipping the firmware's real-mode
 * path and the kernel's own decompressor (about half the boot time under
 * TCG). The bzImage holds that ELF compressed; its setup header says where
 * (payload_offset, payload_length), and the payload ends with the
 * uncompressed size (le32), as the kernel's build appends it.
 */
#ifndef IOMATRIX_QEMU_QEMU_KERNEL_H
#define IOMATRIX_QEMU_QEMU_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/byte_buf.h"
#include "lib/compress.h"

#define QK_ERR_LEN 512

/* The newest release in /lib/modules that has /boot/vmlinuz-RELEASE. */
int qk_newest_release(const char *modules_root, const char *boot_dir, char *out, size_t len,
		      char *err, size_t errlen);

/* The shared decompressor's kinds, and one more for payloads it cannot read. */
enum qk_compression {
	QK_NONE = COMP_NONE,
	QK_GZIP = COMP_GZIP,
	QK_XZ = COMP_XZ,
	QK_ZSTD = COMP_ZSTD,
	QK_UNSUPPORTED = COMP_COUNT,
};

struct qk_bzimage {
	char version[128]; /* "6.1.0-57-amd64 (debian-kernel@...) #1 SMP ..." */
	char release[64];  /* its first word */
	uint16_t protocol;
	size_t payload_offset; /* from the start of the file */
	size_t payload_length;
	enum qk_compression compression;
	const char *compression_name; /* "xz", "gzip", "zstd", "none", or what it looks like */
};

/* Parses the setup header of a bzImage held in data. 0, or -1 with why in err. */
int qk_parse_bzimage(const uint8_t *data, size_t len, struct qk_bzimage *bz, char *err,
		     size_t errlen);

/* Does an ELF image carry the PVH entry note (Xen, type 18)? Bounds-checked. */
bool qk_elf_has_pvh_note(const uint8_t *elf, size_t len);

/*
 * Decompresses bz's payload into a malloc'ed buffer. 0, or -1 with why in
 * err (a compression this build cannot read, a corrupt stream).
 */
int qk_extract_payload(const uint8_t *data, const struct qk_bzimage *bz, uint8_t **out,
		       size_t *outlen, char *err, size_t errlen);

/* Reads a kernel file (at most 1 GiB) into b, which must be empty. */
int qk_read_kernel(const char *path, struct byte_buf *b, char *err, size_t errlen);

/*
 * The PVH-bootable vmlinux for a bzImage, extracted once and cached as
 * cache_dir/vmlinux-<hash of the bzImage>. Returns 1 with the cached path
 * in out when the kernel supports PVH, 0 when it does not (no PVH note, or
 * a payload this build cannot decompress: reason in err), -1 on an error.
 */
int qk_pvh_vmlinux(const char *bzimage, const char *cache_dir, char *out, size_t len, char *err,
		   size_t errlen);

#endif
