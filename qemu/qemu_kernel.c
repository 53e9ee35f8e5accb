// SPDX-License-Identifier: GPL-2.0
/* bzImage setup header, payload extraction, PVH note, and the vmlinux cache. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

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

static const struct {
	const uint8_t magic[6];
	size_t len;
	enum qk_compression kind;
	const char *name;
} payload_magics[] = {
	{{0x1f, 0x8b}, 2, QK_GZIP, "gzip"},
	{{0xfd, '7', 'z', 'X', 'Z', 0x00}, 6, QK_XZ, "xz"},
	{{0x28, 0xb5, 0x2f, 0xfd}, 4, QK_ZSTD, "zstd"},
	{{0x7f, 'E', 'L', 'F'}, 4, QK_NONE, "none"},
	{{0x5d, 0x00, 0x00}, 3, QK_UNSUPPORTED, "lzma"},
	{{'B', 'Z', 'h'}, 3, QK_UNSUPPORTED, "bzip2"},
	{{0x02, 0x21, 0x4c, 0x18}, 4, QK_UNSUPPORTED, "lz4"},
	{{0x89, 'L', 'Z', 'O'}, 4, QK_UNSUPPORTED, "lzo"},
};

static uint32_t le16(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t le32(const uint8_t *p)
{
	return le16(p) | le16(p + 2) << 16;
}

static uint64_t le64(const uint8_t *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

int qk_parse_bzimage(const uint8_t *data, size_t len, struct qk_bzimage *bz, char *err,
		     size_t errlen)
{
	size_t setup_sects, pm_start, vpos, i;

	memset(bz, 0, sizeof(*bz));
	if (len < HDR_END || le16(data + HDR_BOOT_FLAG) != 0xaa55 ||
	    memcmp(data + HDR_MAGIC, "HdrS", 4)) {
		snprintf(err, errlen, "not a bzImage (no boot flag or HdrS setup header)");
		return -1;
	}
	bz->protocol = (uint16_t)le16(data + HDR_VERSION);
	setup_sects = data[HDR_SETUP_SECTS] ? data[HDR_SETUP_SECTS] : 4;
	pm_start = (setup_sects + 1) * 512;
	vpos = le16(data + HDR_KERNEL_VERSION);
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
	bz->payload_offset = pm_start + le32(data + HDR_PAYLOAD_OFFSET);
	bz->payload_length = le32(data + HDR_PAYLOAD_LENGTH);
	if (bz->payload_offset > len || bz->payload_length > len - bz->payload_offset ||
	    bz->payload_length < 8) {
		snprintf(err, errlen,
			 "payload (offset %zu, length %zu) outside the file (%zu bytes)",
			 bz->payload_offset, bz->payload_length, len);
		return -1;
	}
	bz->compression = QK_UNSUPPORTED;
	bz->compression_name = "unknown";
	for (i = 0; i < sizeof(payload_magics) / sizeof(payload_magics[0]); i++)
		if (payload_magics[i].len <= bz->payload_length &&
		    !memcmp(data + bz->payload_offset, payload_magics[i].magic,
			    payload_magics[i].len)) {
			bz->compression = payload_magics[i].kind;
			bz->compression_name = payload_magics[i].name;
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
	phoff = le64(elf + 0x20);
	phentsize = le16(elf + 0x36);
	phnum = le16(elf + 0x38);
	if (phentsize < 56 || phoff > len || phnum > (len - phoff) / phentsize)
		return false;
	for (size_t i = 0; i < phnum; i++) {
		const uint8_t *ph = elf + phoff + i * phentsize;
		uint64_t off = le64(ph + 0x08), size = le64(ph + 0x20), pos = 0;

		if (le32(ph) != PT_NOTE_TYPE || off > len || size > len - off)
			continue;
		while (size - pos >= 12) {
			const uint8_t *n = elf + off + pos;
			uint64_t namesz = le32(n), descsz = le32(n + 4), type = le32(n + 8);
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

static int inflate_gzip(const uint8_t *in, size_t inlen, uint8_t *out, size_t outlen, size_t *got,
			char *err, size_t errlen)
{
	z_stream z;
	int ret;

	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
		snprintf(err, errlen, "zlib: inflateInit2 failed");
		return -1;
	}
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)inlen;
	z.next_out = out;
	z.avail_out = (uInt)outlen;
	ret = inflate(&z, Z_FINISH);
	*got = z.total_out;
	inflateEnd(&z);
	if (ret != Z_STREAM_END) {
		snprintf(err, errlen, "gzip payload: zlib error %d", ret);
		return -1;
	}
	return 0;
}

static int unxz(const uint8_t *in, size_t inlen, uint8_t *out, size_t outlen, size_t *got,
		char *err, size_t errlen)
{
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_ret ret;

	/* Not LZMA_CONCATENATED: the stream is followed by the le32 size, not by padding. */
	if (lzma_stream_decoder(&s, UINT64_MAX, 0) != LZMA_OK) {
		snprintf(err, errlen, "liblzma: cannot start a decoder");
		return -1;
	}
	s.next_in = in;
	s.avail_in = inlen;
	s.next_out = out;
	s.avail_out = outlen;
	ret = lzma_code(&s, LZMA_FINISH);
	*got = s.total_out;
	lzma_end(&s);
	if (ret != LZMA_STREAM_END) {
		snprintf(err, errlen, "xz payload: liblzma error %d", (int)ret);
		return -1;
	}
	return 0;
}

static int unzstd(const uint8_t *in, size_t inlen, uint8_t *out, size_t outlen, size_t *got,
		  char *err, size_t errlen)
{
	ZSTD_DStream *d = ZSTD_createDStream();
	ZSTD_inBuffer ib = {in, inlen, 0};
	ZSTD_outBuffer ob = {out, outlen, 0};
	size_t ret;

	if (!d) {
		snprintf(err, errlen, "libzstd: cannot start a decoder");
		return -1;
	}
	/* The kernel builds with --long (up to 2^31 window): allow it. */
	ZSTD_DCtx_setParameter(d, ZSTD_d_windowLogMax, 31);
	do {
		ret = ZSTD_decompressStream(d, &ob, &ib);
	} while (!ZSTD_isError(ret) && ret != 0 && ob.pos < ob.size && ib.pos < ib.size);
	ZSTD_freeDStream(d);
	*got = ob.pos;
	if (ZSTD_isError(ret) || ret != 0) {
		snprintf(err, errlen, "zstd payload: %s",
			 ZSTD_isError(ret) ? ZSTD_getErrorName(ret) : "truncated");
		return -1;
	}
	return 0;
}

int qk_extract_payload(const uint8_t *data, const struct qk_bzimage *bz, uint8_t **out,
		       size_t *outlen, char *err, size_t errlen)
{
	const uint8_t *p = data + bz->payload_offset;
	size_t size = le32(p + bz->payload_length - 4);
	size_t got = 0;
	uint8_t *buf;
	int ret;

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
	buf = malloc(size);
	if (!buf) {
		snprintf(err, errlen, "out of memory for %zu bytes", size);
		return -1;
	}
	switch (bz->compression) {
	case QK_GZIP:
		ret = inflate_gzip(p, bz->payload_length, buf, size, &got, err, errlen);
		break;
	case QK_XZ:
		ret = unxz(p, bz->payload_length, buf, size, &got, err, errlen);
		break;
	case QK_ZSTD:
		ret = unzstd(p, bz->payload_length, buf, size, &got, err, errlen);
		break;
	default:
		memcpy(buf, p, size);
		got = size;
		ret = 0;
		break;
	}
	if (ret == 0 && got != size) {
		snprintf(err, errlen, "%s payload gave %zu bytes, its trailer says %zu",
			 bz->compression_name, got, size);
		ret = -1;
	}
	if (ret) {
		free(buf);
		return -1;
	}
	*out = buf;
	*outlen = size;
	return 0;
}

int qk_read_file(const char *path, uint8_t **data, size_t *len, char *err, size_t errlen)
{
	struct stat st;
	uint8_t *buf;
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > (off_t)MAX_VMLINUX) {
		snprintf(err, errlen, "%s: not a regular file of at most 1 GiB", path);
		close(fd);
		return -1;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", path);
		close(fd);
		return -1;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n <= 0) {
			snprintf(err, errlen, "reading %s: %s", path,
				 n < 0 ? strerror(errno) : "file shrank");
			free(buf);
			close(fd);
			return -1;
		}
		got += (size_t)n;
	}
	close(fd);
	*data = buf;
	*len = got;
	return 0;
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
	char tmp[4200];
	size_t done = 0;
	int fd;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "cannot create %s: %s", tmp, strerror(errno));
		return -1;
	}
	while (done < len) {
		ssize_t n = write(fd, data + done, len - done);

		if (n < 0) {
			snprintf(err, errlen, "writing %s: %s", tmp, strerror(errno));
			close(fd);
			unlink(tmp);
			return -1;
		}
		done += (size_t)n;
	}
	if (close(fd) || rename(tmp, path)) {
		snprintf(err, errlen, "finishing %s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

int qk_pvh_vmlinux(const char *bzimage, const char *cache_dir, char *out, size_t len, char *err,
		   size_t errlen)
{
	struct qk_bzimage bz;
	uint8_t *data = NULL, *elf = NULL;
	size_t dlen, elen;
	int ret = -1;

	if (qk_read_file(bzimage, &data, &dlen, err, errlen))
		return -1;
	snprintf(out, len, "%s/vmlinux-%016llx", cache_dir,
		 (unsigned long long)fnv1a64(data, dlen));
	if (access(out, R_OK) == 0) {
		free(data);
		return 1;
	}
	if (qk_parse_bzimage(data, dlen, &bz, err, errlen))
		goto out;
	if (qk_extract_payload(data, &bz, &elf, &elen, err, errlen)) {
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
	free(data);
	return ret;
}

static int version_cmp(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

int qk_newest_release(const char *modules_root, const char *boot_dir, char *out, size_t len,
		      char *err, size_t errlen)
{
	char *names[256];
	size_t n = 0;
	struct dirent *de;
	DIR *d = opendir(modules_root);
	int ret = -1;

	if (!d) {
		snprintf(err, errlen,
			 "cannot list %s: %s (install a kernel: apt-get install "
			 "linux-image-amd64)",
			 modules_root, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) && n < sizeof(names) / sizeof(names[0])) {
		char path[4200];

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/vmlinuz-%s", boot_dir, de->d_name);
		if (access(path, F_OK) == 0 && (names[n] = strdup(de->d_name)))
			n++;
	}
	closedir(d);
	if (n == 0) {
		snprintf(err, errlen,
			 "no kernel in %s has a %s/vmlinuz-RELEASE (install one: "
			 "apt-get install linux-image-amd64)",
			 modules_root, boot_dir);
		return -1;
	}
	qsort(names, n, sizeof(names[0]), version_cmp);
	if (strlen(names[n - 1]) < len) {
		strcpy(out, names[n - 1]);
		ret = 0;
	} else {
		snprintf(err, errlen, "release name %s too long", names[n - 1]);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	return ret;
}
