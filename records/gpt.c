// SPDX-License-Identifier: GPL-2.0
/* The GUID partition table, read as the kernel reads it; see gpt.h. */
#include "records/gpt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/crc32.h"
#include "lib/le.h"

#define GPT_SIGNATURE	 "EFI PART"
#define GPT_HEADER_MIN	 92
#define GPT_ENTRY_SIZE	 128
#define MBR_SIGNATURE_AT 510
#define MBR_PARTS_AT	 446
#define MBR_TYPE_GPT	 0xee

/* The header's fields (UEFI 2.x, 5.3.2). */
enum {
	H_REVISION = 8,
	H_SIZE = 12,
	H_CRC = 16,
	H_MY_LBA = 24,
	H_ALT_LBA = 32,
	H_FIRST_USABLE = 40,
	H_LAST_USABLE = 48,
	H_DISK_GUID = 56,
	H_ENTRIES_LBA = 72,
	H_NUM_ENTRIES = 80,
	H_ENTRY_SIZE = 84,
	H_ENTRIES_CRC = 88,
};

/* An entry's fields. */
enum { E_TYPE = 0, E_UUID = 16, E_FIRST = 32, E_LAST = 40, E_NAME = 56, E_NAME_UNITS = 36 };

/* "xxxxxxxx-xxxx-..." of a GUID as stored on disk (mixed-endian), lowercase. */
static void gpt_guid_str(const uint8_t g[16], char out[GPT_GUID_STR])
{
	snprintf(out, GPT_GUID_STR,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", g[3], g[2],
		 g[1], g[0], g[5], g[4], g[7], g[6], g[8], g[9], g[10], g[11], g[12], g[13], g[14],
		 g[15]);
}

static bool guid_zero(const uint8_t *g)
{
	for (int i = 0; i < 16; i++)
		if (g[i])
			return false;
	return true;
}

/* One code point as UTF-8 into out (room for 4); returns the bytes written. */
static size_t put_utf8(uint32_t c, char *out)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xc0 | c >> 6);
		out[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xe0 | c >> 12);
		out[1] = (char)(0x80 | (c >> 6 & 0x3f));
		out[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | c >> 18);
	out[1] = (char)(0x80 | (c >> 12 & 0x3f));
	out[2] = (char)(0x80 | (c >> 6 & 0x3f));
	out[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

/* The entry's name, UTF-16LE up to the first NUL, as UTF-8; a lone surrogate is U+FFFD. */
static void name_utf8(const uint8_t *p, char *out, size_t len)
{
	size_t n = 0;

	for (int i = 0; i < E_NAME_UNITS; i++) {
		uint32_t c = (uint32_t)p[2 * i] | (uint32_t)p[2 * i + 1] << 8;

		if (!c)
			break;
		if (c >= 0xd800 && c < 0xdc00 && i + 1 < E_NAME_UNITS) {
			uint32_t lo = (uint32_t)p[2 * i + 2] | (uint32_t)p[2 * i + 3] << 8;

			if (lo >= 0xdc00 && lo < 0xe000) {
				c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
				i++;
			} else {
				c = 0xfffd;
			}
		} else if (c >= 0xd800 && c < 0xe000) {
			c = 0xfffd;
		}
		if (n + 4 >= len)
			break;
		n += put_utf8(c, out + n);
	}
	out[n] = '\0';
}

struct gpt_scan {
	const struct gpt_reader *r;
	uint32_t bs;
	uint64_t last_lba;
	uint8_t *buf; /* one block */
	char *err;
	size_t errlen;
};

static int read_block(struct gpt_scan *s, uint64_t lba, void *buf)
{
	int ret = s->r->read_at(s->r->ctx, buf, s->bs, lba * s->bs);

	if (ret)
		snprintf(s->err, s->errlen, "reading LBA %llu (%u-byte blocks): %s",
			 (unsigned long long)lba, s->bs, strerror(-ret));
	return ret ? -1 : 0;
}

/* The kernel's is_pmbr_valid: a partition of type 0xee in the MBR. */
static int check_pmbr(struct gpt_scan *s)
{
	uint8_t mbr[512];
	int ret = s->r->read_at(s->r->ctx, mbr, sizeof(mbr), 0);

	if (ret) {
		snprintf(s->err, s->errlen, "reading the MBR: %s", strerror(-ret));
		return -1;
	}
	if (mbr[MBR_SIGNATURE_AT] != 0x55 || mbr[MBR_SIGNATURE_AT + 1] != 0xaa) {
		snprintf(s->err, s->errlen, "no partition table (no MBR signature in sector 0)");
		return -1;
	}
	for (int i = 0; i < 4; i++)
		if (mbr[MBR_PARTS_AT + 16 * i + 4] == MBR_TYPE_GPT)
			return 0;
	snprintf(s->err, s->errlen, "an MBR partition table, not GPT (no protective partition)");
	return -1;
}

/*
 * The header at lba and its entries, checked as the kernel's is_gpt_valid
 * does. On success *entries (malloc) holds the array and h the header.
 */
static int read_header(struct gpt_scan *s, uint64_t lba, uint8_t *h, uint8_t **entries, char *why,
		       size_t whylen)
{
	uint32_t hsize, crc, n, esize;
	uint64_t first, last, elba, bytes;
	uint8_t *e;

	*entries = NULL;
	if (read_block(s, lba, h))
		return -1;
	if (memcmp(h, GPT_SIGNATURE, 8)) {
		snprintf(why, whylen, "no GPT header at LBA %llu", (unsigned long long)lba);
		return -1;
	}
	hsize = get_le32(h + H_SIZE);
	if (hsize < GPT_HEADER_MIN || hsize > s->bs) {
		snprintf(why, whylen, "GPT header at LBA %llu: size %u", (unsigned long long)lba,
			 hsize);
		return -1;
	}
	crc = get_le32(h + H_CRC);
	memset(h + H_CRC, 0, 4);
	if (crc32_ieee(0, h, hsize) != crc) {
		snprintf(why, whylen, "GPT header at LBA %llu: CRC mismatch",
			 (unsigned long long)lba);
		return -1;
	}
	first = get_le64(h + H_FIRST_USABLE);
	last = get_le64(h + H_LAST_USABLE);
	if (get_le64(h + H_MY_LBA) != lba || first > s->last_lba || last > s->last_lba ||
	    last < first || (lba >= first && lba <= last)) {
		snprintf(why, whylen, "GPT header at LBA %llu: its LBAs do not fit the device",
			 (unsigned long long)lba);
		return -1;
	}
	n = get_le32(h + H_NUM_ENTRIES);
	esize = get_le32(h + H_ENTRY_SIZE);
	elba = get_le64(h + H_ENTRIES_LBA);
	if (esize != GPT_ENTRY_SIZE || n == 0 || n > GPT_ENTRIES_MAX) {
		snprintf(why, whylen, "GPT header at LBA %llu: %u entries of %u bytes",
			 (unsigned long long)lba, n, esize);
		return -1;
	}
	bytes = (uint64_t)n * esize;
	if (elba > s->last_lba || bytes > (s->last_lba - elba + 1) * s->bs) {
		snprintf(why, whylen, "GPT header at LBA %llu: the entries lie outside the device",
			 (unsigned long long)lba);
		return -1;
	}
	e = malloc((size_t)bytes);
	if (!e) {
		snprintf(why, whylen, "out of memory for %llu bytes of entries",
			 (unsigned long long)bytes);
		return -1;
	}
	if (s->r->read_at(s->r->ctx, e, (size_t)bytes, elba * s->bs)) {
		snprintf(why, whylen, "GPT entries at LBA %llu: unreadable",
			 (unsigned long long)elba);
		free(e);
		return -1;
	}
	if (crc32_ieee(0, e, (size_t)bytes) != get_le32(h + H_ENTRIES_CRC)) {
		snprintf(why, whylen, "GPT entries at LBA %llu: CRC mismatch",
			 (unsigned long long)elba);
		free(e);
		return -1;
	}
	*entries = e;
	return 0;
}

static void fill_table(struct gpt_scan *s, const uint8_t *h, const uint8_t *e, struct gpt_table *t)
{
	uint32_t n = get_le32(h + H_NUM_ENTRIES);

	gpt_guid_str(h + H_DISK_GUID, t->disk_uuid);
	t->block_size = s->bs;
	for (uint32_t i = 0; i < n && i < GPT_PARTS_MAX - 1; i++) {
		const uint8_t *p = e + (size_t)i * GPT_ENTRY_SIZE;
		struct gpt_partition *part;

		/* The kernel's is_pte_valid: a type, and LBAs within the device. */
		if (guid_zero(p + E_TYPE) || get_le64(p + E_FIRST) > s->last_lba ||
		    get_le64(p + E_LAST) > s->last_lba)
			continue;
		part = &t->parts[t->count++];
		part->number = i + 1;
		part->first_lba = get_le64(p + E_FIRST);
		part->last_lba = get_le64(p + E_LAST);
		gpt_guid_str(p + E_TYPE, part->type);
		gpt_guid_str(p + E_UUID, part->uuid);
		name_utf8(p + E_NAME, part->label, sizeof(part->label));
	}
}

/* The primary, else the backup in the last LBA, at one block size. */
static int read_at_block_size(struct gpt_scan *s, struct gpt_table *t)
{
	char why[GPT_ERR_LEN], why_backup[GPT_ERR_LEN];
	uint8_t *entries = NULL;
	int ret = -1;

	s->last_lba = s->r->size / s->bs - 1;
	s->buf = malloc(s->bs);
	if (!s->buf) {
		snprintf(s->err, s->errlen, "out of memory");
		return -1;
	}
	if (!read_header(s, 1, s->buf, &entries, why, sizeof(why))) {
		fill_table(s, s->buf, entries, t);
		ret = 0;
	} else if (!read_header(s, s->last_lba, s->buf, &entries, why_backup, sizeof(why_backup))) {
		fill_table(s, s->buf, entries, t);
		t->from_backup = true;
		ret = 0;
	} else {
		snprintf(s->err, s->errlen, "%s; backup: %s", why, why_backup);
	}
	free(entries);
	free(s->buf);
	s->buf = NULL;
	return ret;
}

int gpt_read(const struct gpt_reader *r, struct gpt_table *t, char *err, size_t errlen)
{
	struct gpt_scan s = {.r = r, .err = err, .errlen = errlen};

	memset(t, 0, sizeof(*t));
	if (r->size < 3 * 512) {
		snprintf(err, errlen, "%llu bytes: too small for a GPT",
			 (unsigned long long)r->size);
		return -1;
	}
	if (check_pmbr(&s))
		return -1;
	if (r->block_size) {
		s.bs = r->block_size;
		if (s.bs < 512 || s.bs > 65536 || (s.bs & (s.bs - 1)) || r->size < 3ull * s.bs) {
			snprintf(err, errlen, "block size %u does not fit a %llu-byte device", s.bs,
				 (unsigned long long)r->size);
			return -1;
		}
		return read_at_block_size(&s, t);
	}
	/* A device of unknown block size: the GPT says which by where its header is. */
	s.bs = 512;
	if (!read_at_block_size(&s, t))
		return 0;
	if (r->size >= 3ull * 4096) {
		char at512[GPT_ERR_LEN], at4096[GPT_ERR_LEN];

		snprintf(at512, sizeof(at512), "%s", err);
		memset(t, 0, sizeof(*t));
		s.bs = 4096;
		if (!read_at_block_size(&s, t))
			return 0;
		snprintf(at4096, sizeof(at4096), "%s", err);
		snprintf(err, errlen, "512-byte blocks: %s; 4096-byte blocks: %s", at512, at4096);
	}
	return -1;
}

struct mem {
	const uint8_t *p;
	size_t len;
};

static int mem_read_at(void *ctx, void *buf, size_t len, uint64_t off)
{
	const struct mem *m = ctx;

	if (off > m->len || len > m->len - off)
		return -EIO;
	memcpy(buf, m->p + off, len);
	return 0;
}

int gpt_read_buffer(const void *buf, size_t len, uint32_t block_size, struct gpt_table *t,
		    char *err, size_t errlen)
{
	struct mem m = {buf, len};
	struct gpt_reader r = {mem_read_at, &m, len, block_size};

	return gpt_read(&r, t, err, errlen);
}

const struct gpt_partition *gpt_find_label(const struct gpt_table *t, const char *label)
{
	for (size_t i = 0; i < t->count; i++)
		if (!strcmp(t->parts[i].label, label))
			return &t->parts[i];
	return NULL;
}

const struct gpt_partition *gpt_find_uuid(const struct gpt_table *t, const char *uuid)
{
	for (size_t i = 0; i < t->count; i++)
		if (!strcasecmp(t->parts[i].uuid, uuid))
			return &t->parts[i];
	return NULL;
}
