// SPDX-License-Identifier: GPL-2.0
/* bzImage setup header, payload extraction, PVH note, and the vmlinux cache. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "initramfs/kernel_release.h"
#include "lib/atomic_file.h"
#include "lib/decompress.h"
#include "lib/le.h"
#include "qemu/qemu_kernel.h"

/* Offsets in the setup header (Documentation/arch/x86/boot.rst). */
#define HDR_SETUP_SECTS	   0x1f1
#define HDR_BOOT_FLAG	   0x1fe
#define HDR_MAGIC	   0x202
#define HDR_VERSION	   0x206
#define HDR_KERNEL_VERSION 0x20e
#define HDR_PAYLOAD_OFFSET 0x248
#define HDR_PAYLOAD_LENGTH 0x24c
#define HDR_END		   0x250
#define MAX_VMLINUX	   (1024u * 1024 * 1024)

#define XEN_ELFNOTE_PHYS32_ENTRY 18
#define PT_NOTE_TYPE		 4

/* Payloads the shared decompressor does not know, named so errors can say what they are. */
static const struct {
	const uint8_t magic[4];
	size_t len;
	enum qk_compression kind;
	const char *name;
} other_payloads[] = {
	{{0x7f, 'E', 'L', 'F'}, 4, QK_NONE, "none"},
	{{0x5d, 0x00, 0x00}, 3, QK_UNSUPPORTED, "lzma"},
	{{'B', 'Z', 'h'}, 3, QK_UNSUPPORTED, "bzip2"},
	{{0x02, 0x21, 0x4c, 0x18}, 4, QK_UNSUPPORTED, "lz4"},
	{{0x89, 'L', 'Z', 'O'}, 4, QK_UNSUPPORTED, "lzo"},
};

int qk_parse_bzimage(const uint8_t *data, size_t len, struct qk_bzimage *bz, char *err,
		     size_t errlen)
{
	size_t setup_sects, pm_start, vpos, i;
	enum compression codec;
	const uint8_t *payload;

	memset(bz, 0, sizeof(*bz));
	if (len < HDR_END || get_le16(data + HDR_BOOT_FLAG) != 0xaa55 ||
	    memcmp(data + HDR_MAGIC, "HdrS", 4)) {
		snprintf(err, errlen, "not a bzImage (no boot flag or HdrS setup header)");
		return -1;
	}
	bz->protocol = (uint16_t)get_le16(data + HDR_VERSION);
	setup_sects = data[HDR_SETUP_SECTS] ? data[HDR_SETUP_SECTS] : 4;
	pm_start = (setup_sects + 1) * 512;
	vpos = get_le16(data + HDR_KERNEL_VERSION);
	if (vpos) {
		vpos += 0x200;
		for (i = 0; vpos + i < len && i + 1 < sizeof(bz->version) && data[vpos + i]; i++)
			bz->version[i] = (char)data[vpos + i];
		bz->version[i] = '\0';
		snprintf(bz->release, sizeof(bz->release), "%.*s", (int)strcspn(bz->version, " "),
			 bz->version);
	}
	if (bz->protocol < 0x208) {
		snprintf(err, errlen, "boot protocol %u.%02u has no payload fields (needs 2.08)",
			 bz->protocol >> 8, bz->protocol & 0xff);
		return -1;
	}
	bz->payload_offset = pm_start + get_le32(data + HDR_PAYLOAD_OFFSET);
	bz->payload_length = get_le32(data + HDR_PAYLOAD_LENGTH);
	if (bz->payload_offset > len || bz->payload_length > len - bz->payload_offset ||
	    bz->payload_length < 8) {
		snprintf(err, errlen,
			 "payload (offset %zu, length %zu) outside the file (%zu bytes)",
			 bz->payload_offset, bz->payload_length, len);
		return -1;
	}
	payload = data + bz->payload_offset;
	codec = compression_from_magic(payload, bz->payload_length);
	if (codec != COMP_NONE) {
		bz->compression = (enum qk_compression)codec;
		bz->compression_name = compression_kinds[codec].name;
		return 0;
	}
	bz->compression = QK_UNSUPPORTED;
	bz->compression_name = "unknown";
	for (i = 0; i < sizeof(other_payloads) / sizeof(other_payloads[0]); i++)
		if (other_payloads[i].len <= bz->payload_length &&
		    !memcmp(payload, other_payloads[i].magic, other_payloads[i].len)) {
			bz->compression = other_payloads[i].kind;
			bz->compression_name = other_payloads[i].name;
			break;
		}
	return 0;
}

bool qk_elf_has_pvh_note(const uint8_t *elf, size_t len)
{
	uint64_t phoff;
	size_t phentsize, phnum;

	/* ELF64, little-endian: the only kind an x86-64 kernel is. */
	if (len < 64 ||
	    memcmp(elf,
		   "\x7f"
		   "ELF",
		   4) ||
	    elf[4] != 2 || elf[5] != 1)
		return false;
	phoff = get_le64(elf + 0x20);
	phentsize = get_le16(elf + 0x36);
	phnum = get_le16(elf + 0x38);
	if (phentsize < 56 || phoff > len || phnum > (len - phoff) / phentsize)
		return false;
	for (size_t i = 0; i < phnum; i++) {
		const uint8_t *ph = elf + phoff + i * phentsize;
		uint64_t off = get_le64(ph + 0x08), size = get_le64(ph + 0x20), pos = 0;

		if (get_le32(ph) != PT_NOTE_TYPE || off > len || size > len - off)
			continue;
		while (size - pos >= 12) {
			const uint8_t *n = elf + off + pos;
			uint64_t namesz = get_le32(n), descsz = get_le32(n + 4),
				 type = get_le32(n + 8);
			uint64_t step = 12 + ((namesz + 3) & ~3ULL) + ((descsz + 3) & ~3ULL);

			if (namesz == 4 && size - pos >= 16 && !memcmp(n + 12, "Xen", 4) &&
			    type == XEN_ELFNOTE_PHYS32_ENTRY)
				return true;
			if (step > size - pos)
				break;
			pos += step;
		}
	}
	return false;
}

int qk_extract_payload(const uint8_t *data, const struct qk_bzimage *bz, uint8_t **out,
		       size_t *outlen, char *err, size_t errlen)
{
	const uint8_t *p = data + bz->payload_offset;
	size_t size = get_le32(p + bz->payload_length - 4);
	struct byte_buf b = {0};
	char what[32];

	if (bz->compression == QK_UNSUPPORTED) {
		snprintf(err, errlen, "payload compressed with %s, which iomatrix cannot read",
			 bz->compression_name);
		return -1;
	}
	if (bz->compression == QK_NONE)
		size = bz->payload_length;
	if (size < 64 || size > MAX_VMLINUX) {
		snprintf(err, errlen, "payload claims %zu bytes uncompressed", size);
		return -1;
	}
	snprintf(what, sizeof(what), "%s payload", bz->compression_name);
	if (bz->compression == QK_NONE) {
		if (byte_buf_append(&b, p, size)) {
			snprintf(err, errlen, "out of memory for %zu bytes", size);
			return -1;
		}
	} else if (decompress_first_stream((enum compression)bz->compression, p, bz->payload_length,
					   &b, size, what, err, errlen)) {
		byte_buf_free(&b);
		return -1;
	}
	if (b.len != size) {
		snprintf(err, errlen, "%s gave %zu bytes, its trailer says %zu", what, b.len, size);
		byte_buf_free(&b);
		return -1;
	}
	*out = b.data;
	*outlen = b.len;
	return 0;
}

int qk_read_kernel(const char *path, struct byte_buf *b, char *err, size_t errlen)
{
	int e = byte_buf_load(b, path, MAX_VMLINUX);

	if (e == EFBIG)
		snprintf(err, errlen, "%s: larger than 1 GiB", path);
	else if (e == ENOMEM)
		snprintf(err, errlen, "%s: out of memory", path);
	else if (e)
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(e));
	return e ? -1 : 0;
}

static uint64_t fnv1a64(const uint8_t *p, size_t n)
{
	uint64_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ULL;
	return h;
}

static int write_atomically(const char *path, const uint8_t *data, size_t len, char *err,
			    size_t errlen)
{
	struct atomic_file af;

	if (atomic_file_open(&af, path, err, errlen))
		return -1;
	if (atomic_file_write(&af, data, len, err, errlen)) {
		atomic_file_abort(&af);
		return -1;
	}
	return atomic_file_commit(&af, err, errlen);
}

int qk_pvh_vmlinux(const char *bzimage, const char *cache_dir, char *out, size_t len, char *err,
		   size_t errlen)
{
	struct byte_buf data = {0};
	struct qk_bzimage bz;
	uint8_t *elf = NULL;
	size_t elen;
	int ret = -1;

	if (qk_read_kernel(bzimage, &data, err, errlen))
		return -1;
	snprintf(out, len, "%s/vmlinux-%016llx", cache_dir,
		 (unsigned long long)fnv1a64(data.data, data.len));
	if (access(out, R_OK) == 0) {
		byte_buf_free(&data);
		return 1;
	}
	if (qk_parse_bzimage(data.data, data.len, &bz, err, errlen))
		goto out;
	if (qk_extract_payload(data.data, &bz, &elf, &elen, err, errlen)) {
		ret = 0; /* cannot read it here: boot the bzImage instead */
		goto out;
	}
	if (!qk_elf_has_pvh_note(elf, elen)) {
		snprintf(err, errlen, "the kernel has no PVH entry note (CONFIG_PVH is off)");
		ret = 0;
		goto out;
	}
	if (mkdir(cache_dir, 0755) && errno != EEXIST) {
		snprintf(err, errlen, "cannot create %s: %s", cache_dir, strerror(errno));
		goto out;
	}
	ret = write_atomically(out, elf, elen, err, errlen) ? -1 : 1;
out:
	free(elf);
	byte_buf_free(&data);
	return ret;
}

int qk_newest_release(const char *modules_root, const char *boot_dir, char *out, size_t len,
		      char *err, size_t errlen)
{
	int n = kernel_release_scan(modules_root, boot_dir, out, len, NULL, 0);

	if (n < 0) {
		snprintf(err, errlen,
			 "cannot list %s: %s (install a kernel: apt-get install "
			 "linux-image-amd64)",
			 modules_root, strerror(errno));
		return -1;
	}
	if (n == 0) {
		snprintf(err, errlen,
			 "no kernel in %s has a %s/vmlinuz-RELEASE (install one: "
			 "apt-get install linux-image-amd64)",
			 modules_root, boot_dir);
		return -1;
	}
	return 0;
}
