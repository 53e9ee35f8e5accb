// SPDX-License-Identifier: GPL-2.0
/* bzImage setup header, payload extraction (gzip, xz, zstd) and the PVH note, on built images. */
#include <lzma.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "check.h"
#include "qemu/qemu_kernel.h"

static void put16(uint8_t *p, uint32_t v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v & 0xffff);
	put16(p + 2, v >> 16);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

/* A minimal ELF64 with one PT_NOTE segment holding a note of the given owner and type. */
static size_t make_elf(uint8_t *e, const char *owner, uint32_t type)
{
	size_t note = 64 + 56;

	memset(e, 0, 256);
	memcpy(e,
	       "\x7f"
	       "ELF\x02\x01\x01",
	       7);
	put64(e + 0x20, 64); /* e_phoff */
	put16(e + 0x36, 56); /* e_phentsize */
	put16(e + 0x38, 1);  /* e_phnum */
	put32(e + 64, 4);    /* p_type PT_NOTE */
	put64(e + 64 + 0x08, note);
	put64(e + 64 + 0x20, 20);
	put32(e + note, 4);
	put32(e + note + 4, 4);
	put32(e + note + 8, type);
	memcpy(e + note + 12, owner, 4);
	return note + 20 + 100; /* some trailing bytes, as the relocations would be */
}

enum { GZ, XZ, ZS, RAW };

static size_t pack(int kind, const uint8_t *in, size_t n, uint8_t *out, size_t cap)
{
	size_t len = 0;

	if (kind == GZ) {
		z_stream z;

		memset(&z, 0, sizeof(z));
		deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
		z.next_in = (Bytef *)in;
		z.avail_in = (uInt)n;
		z.next_out = out;
		z.avail_out = (uInt)cap;
		deflate(&z, Z_FINISH);
		len = z.total_out;
		deflateEnd(&z);
	} else if (kind == XZ) {
		lzma_easy_buffer_encode(6, LZMA_CHECK_CRC32, NULL, in, n, out, &len, cap);
	} else if (kind == ZS) {
		len = ZSTD_compress(out, cap, in, n, 19);
	} else {
		memcpy(out, in, n);
		return n;
	}
	put32(out + len, (uint32_t)n); /* the kernel's build appends the size */
	return len + 4;
}

/* setup_sects 1: protected-mode code at 1024; the payload right there. */
static size_t make_bzimage(uint8_t *img, int kind, const uint8_t *elf, size_t elen)
{
	size_t plen;

	memset(img, 0, 1024);
	img[0x1f1] = 1;
	put16(img + 0x1fe, 0xaa55);
	memcpy(img + 0x202, "HdrS", 4);
	put16(img + 0x206, 0x20f);
	put16(img + 0x20e, 0x300 - 0x200);
	strcpy((char *)img + 0x300, "6.9.0-test (me@host) #1 SMP");
	plen = pack(kind, elf, elen, img + 1024, 8192);
	put32(img + 0x248, 0);
	put32(img + 0x24c, (uint32_t)plen);
	return 1024 + plen;
}

static void test_every_compression_round_trips(void)
{
	static const char *const names[] = {"gzip", "xz", "zstd", "none"};
	uint8_t elf[256], img[16384], *out = NULL;
	size_t elen = make_elf(elf, "Xen", 18);

	for (int kind = GZ; kind <= RAW; kind++) {
		struct qk_bzimage bz;
		char err[QK_ERR_LEN];
		size_t len = make_bzimage(img, kind, elf, elen), olen = 0;

		CHECK_EQ_INT(qk_parse_bzimage(img, len, &bz, err, sizeof(err)), 0);
		CHECK_EQ_STR(bz.release, "6.9.0-test");
		CHECK_EQ_STR(bz.compression_name, names[kind]);
		CHECK_EQ_INT(bz.payload_offset, 1024);
		CHECK_EQ_INT(qk_extract_payload(img, &bz, &out, &olen, err, sizeof(err)), 0);
		if (kind != RAW)
			CHECK_EQ_INT(olen, elen);
		CHECK(out && !memcmp(out, elf, elen));
		CHECK(out && qk_elf_has_pvh_note(out, olen));
		free(out);
		out = NULL;
	}
}

static void test_pvh_note_is_required(void)
{
	uint8_t elf[256];
	size_t n = make_elf(elf, "Xen", 17);

	CHECK(!qk_elf_has_pvh_note(elf, n));
	n = make_elf(elf, "GNU", 18);
	CHECK(!qk_elf_has_pvh_note(elf, n));
	n = make_elf(elf, "Xen", 18);
	CHECK(!qk_elf_has_pvh_note(elf, 100)); /* the note cut off */
}

static void test_not_a_bzimage(void)
{
	uint8_t img[2048] = {0};
	struct qk_bzimage bz;
	char err[QK_ERR_LEN];

	CHECK_EQ_INT(qk_parse_bzimage(img, sizeof(img), &bz, err, sizeof(err)), -1);
	CHECK_EQ_STR(err, "not a bzImage (no boot flag or HdrS setup header)");
}

static void test_corrupt_payload_and_bad_bounds(void)
{
	uint8_t elf[256], img[16384], *out = NULL;
	size_t elen = make_elf(elf, "Xen", 18), len = make_bzimage(img, XZ, elf, elen), olen;
	struct qk_bzimage bz;
	char err[QK_ERR_LEN];

	CHECK_EQ_INT(qk_parse_bzimage(img, len, &bz, err, sizeof(err)), 0);
	img[1024 + 40] ^= 0xff;
	CHECK_EQ_INT(qk_extract_payload(img, &bz, &out, &olen, err, sizeof(err)), -1);
	CHECK(strstr(err, "xz payload") != NULL);
	put32(img + 0x24c, 1u << 30);
	CHECK_EQ_INT(qk_parse_bzimage(img, len, &bz, err, sizeof(err)), -1);
	CHECK(strstr(err, "outside the file") != NULL);
}

static void test_cache_extracts_once(void)
{
	char dir[] = "/tmp/iomatrix-qk-XXXXXX", path[256], out[512], again[512], err[QK_ERR_LEN];
	uint8_t elf[256], img[16384];
	size_t len = make_bzimage(img, GZ, elf, make_elf(elf, "Xen", 18));
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/bzImage", dir);
	f = fopen(path, "w");
	fwrite(img, 1, len, f);
	fclose(f);
	CHECK_EQ_INT(qk_pvh_vmlinux(path, dir, out, sizeof(out), err, sizeof(err)), 1);
	CHECK(access(out, R_OK) == 0);
	CHECK_EQ_INT(qk_pvh_vmlinux(path, dir, again, sizeof(again), err, sizeof(err)), 1);
	CHECK_EQ_STR(again, out);
	unlink(out);
	/* Without the note the kernel is booted as a bzImage: 0, and why. */
	len = make_bzimage(img, GZ, elf, make_elf(elf, "Xen", 1));
	f = fopen(path, "w");
	fwrite(img, 1, len, f);
	fclose(f);
	CHECK_EQ_INT(qk_pvh_vmlinux(path, dir, out, sizeof(out), err, sizeof(err)), 0);
	CHECK(strstr(err, "no PVH entry note") != NULL);
	unlink(path);
	rmdir(dir);
}

static void test_newest_release(void)
{
	char root[] = "/tmp/iomatrix-rel-XXXXXX", p[512], out[64], err[QK_ERR_LEN];
	static const char *const rels[] = {"6.1.0-9-amd64", "6.1.0-10-amd64", "6.12.0-1-amd64"};

	CHECK(mkdtemp(root) != NULL);
	snprintf(p, sizeof(p), "%s/modules", root);
	mkdir(p, 0755);
	for (int i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s/modules/%s", root, rels[i]);
		mkdir(p, 0755);
		/* The newest has no vmlinuz: it must not be chosen. */
		if (i < 2) {
			snprintf(p, sizeof(p), "%s/vmlinuz-%s", root, rels[i]);
			fclose(fopen(p, "w"));
		}
	}
	snprintf(p, sizeof(p), "%s/modules", root);
	CHECK_EQ_INT(qk_newest_release(p, root, out, sizeof(out), err, sizeof(err)), 0);
	CHECK_EQ_STR(out, "6.1.0-10-amd64");
	snprintf(p, sizeof(p), "rm -rf '%s'", root);
	CHECK_EQ_INT(system(p), 0);
}

int main(void)
{
	RUN_TEST(test_every_compression_round_trips);
	RUN_TEST(test_pvh_note_is_required);
	RUN_TEST(test_not_a_bzimage);
	RUN_TEST(test_corrupt_payload_and_bad_bounds);
	RUN_TEST(test_cache_extracts_once);
	RUN_TEST(test_newest_release);
	CHECK_EXIT();
}
