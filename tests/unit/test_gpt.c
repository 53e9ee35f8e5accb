// SPDX-License-Identifier: GPL-2.0
/* The GPT reader: PARTLABEL and PARTUUID as blkid shows them, the kernel's validity rules. */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "lib/crc32.h"
#include "records/gpt.h"
#include "lib/le.h"

#define DISK_BYTES (4u << 20)

static uint8_t img[DISK_BYTES];

/* An ASCII name as UTF-16LE, or raw units when units is given. */
static void put_name(uint8_t *entry, const char *ascii)
{
	for (size_t i = 0; ascii[i] && i < 36; i++)
		entry[56 + 2 * i] = (uint8_t)ascii[i];
}

static const uint8_t linux_type[16] = {0xaf, 0x3d, 0xc6, 0x0f, 0x83, 0x84, 0x72, 0x47,
				       0x8e, 0x79, 0x3d, 0x69, 0xd8, 0x47, 0x7d, 0xe4};

/* A disk of DISK_BYTES with a protective MBR and both GPT headers; entries filled by the caller. */
struct layout {
	uint32_t bs;
	uint64_t last_lba, entries_lba, backup_entries_lba;
};

static void header(const struct layout *l, uint64_t my, uint64_t alt, uint64_t entries_lba)
{
	uint8_t *h = img + my * l->bs;
	uint32_t crc;

	memset(h, 0, 92);
	memcpy(h, "EFI PART", 8);
	put_le32(h + 8, 0x00010000);
	put_le32(h + 12, 92);
	put_le64(h + 24, my);
	put_le64(h + 32, alt);
	put_le64(h + 40, 34);
	put_le64(h + 48, l->last_lba - 33);
	for (int i = 0; i < 16; i++)
		h[56 + i] = (uint8_t)(0xa0 + i);
	put_le64(h + 72, entries_lba);
	put_le32(h + 80, 128);
	put_le32(h + 84, 128);
	put_le32(h + 88, crc32_ieee(0, img + entries_lba * l->bs, 128 * 128));
	crc = crc32_ieee(0, h, 92);
	put_le32(h + 16, crc);
}

static uint8_t *entry(const struct layout *l, int index)
{
	return img + l->entries_lba * l->bs + 128 * index;
}

static void add_part(const struct layout *l, int index, uint8_t uuid_seed, uint64_t first,
		     uint64_t last, const char *name)
{
	uint8_t *e = entry(l, index);

	memcpy(e, linux_type, 16);
	for (int i = 0; i < 16; i++)
		e[16 + i] = (uint8_t)(uuid_seed + i);
	put_le64(e + 32, first);
	put_le64(e + 40, last);
	put_name(e, name);
}

/* Writes both headers (and the backup entries) after the entries were filled. */
static void seal(const struct layout *l)
{
	memcpy(img + l->backup_entries_lba * l->bs, img + l->entries_lba * l->bs, 128 * 128);
	header(l, 1, l->last_lba, l->entries_lba);
	header(l, l->last_lba, 1, l->backup_entries_lba);
}

static struct layout make_disk(uint32_t bs)
{
	struct layout l = {bs, DISK_BYTES / bs - 1, 2, 0};

	memset(img, 0, sizeof(img));
	l.backup_entries_lba = l.last_lba - 128 * 128 / bs;
	img[446 + 4] = 0xee;
	img[510] = 0x55;
	img[511] = 0xaa;
	return l;
}

static struct gpt_table t;

static void test_two_partitions(void)
{
	struct layout l = make_disk(512);
	char err[GPT_ERR_LEN];

	add_part(&l, 0, 0x10, 2048, 2047 + 512, "iomatrix-results");
	add_part(&l, 2, 0x40, 4096, 8191, "data");
	seal(&l);
	CHECK_EQ_INT(gpt_read_buffer(img, sizeof(img), 0, &t, err, sizeof(err)), 0);
	CHECK_EQ_INT(t.block_size, 512);
	CHECK(!t.from_backup);
	CHECK_EQ_INT(t.count, 2);
	CHECK_EQ_INT(t.parts[0].number, 1);
	CHECK_EQ_INT(t.parts[1].number, 3); /* the entry's index + 1, gaps kept */
	CHECK_EQ_STR(t.parts[0].label, "iomatrix-results");
	/* the first three fields little-endian, the rest as stored, as blkid prints it */
	CHECK_EQ_STR(t.parts[0].uuid, "13121110-1514-1716-1819-1a1b1c1d1e1f");
	CHECK_EQ_STR(t.parts[0].type, "0fc63daf-8483-4772-8e79-3d69d8477de4");
	CHECK_EQ_STR(t.disk_uuid, "a3a2a1a0-a5a4-a7a6-a8a9-aaabacadaeaf");
	CHECK(gpt_find_label(&t, "data") == &t.parts[1]);
	CHECK(gpt_find_label(&t, "Data") == NULL);
	CHECK(gpt_find_uuid(&t, "13121110-1514-1716-1819-1A1B1C1D1E1F") == &t.parts[0]);
	CHECK(gpt_find_uuid(&t, "13121110") == NULL);
}

static void test_4k_blocks(void)
{
	struct layout l = make_disk(4096);
	char err[GPT_ERR_LEN];

	add_part(&l, 0, 0x10, 64, 127, "four-k");
	seal(&l);
	CHECK_EQ_INT(gpt_read_buffer(img, sizeof(img), 0, &t, err, sizeof(err)), 0);
	CHECK_EQ_INT(t.block_size, 4096);
	CHECK_EQ_INT(t.count, 1);
	CHECK_EQ_STR(t.parts[0].label, "four-k");
	/* told 512-byte blocks, there is no GPT at LBA 1 */
	CHECK_EQ_INT(gpt_read_buffer(img, sizeof(img), 512, &t, err, sizeof(err)), -1);
	CHECK(strstr(err, "no GPT header at LBA 1") != NULL);
}

static void test_backup_when_the_primary_is_damaged(void)
{
	struct layout l = make_disk(512);
	char err[GPT_ERR_LEN];

	add_part(&l, 0, 0x10, 2048, 4095, "survivor");
	seal(&l);
	img[512 + 40] ^= 1; /* first usable LBA: the header CRC no longer holds */
	CHECK_EQ_INT(gpt_read_buffer(img, sizeof(img), 512, &t, err, sizeof(err)), 0);
	CHECK(t.from_backup);
	CHECK_EQ_STR(t.parts[0].label, "survivor");
	/* both damaged: an error naming both */
	img[l.last_lba * 512 + 40] ^= 1;
	CHECK_EQ_INT(gpt_read_buffer(img, sizeof(img), 512, &t, err, sizeof(err)), -1);
	CHECK(strstr(err, "LBA 1: CRC mismatch") != NULL);
	CHECK(strstr(err, "backup: GPT header at LBA 8191: CRC mismatch") != NULL);
}

static void test_entries_crc(void)
{
	struct layout l = make_disk(512);
	char err[GPT_ERR_LEN];

	add_part(&l, 0, 0x10, 2048, 4095, "a");
	seal(&l);
	entry(&l, 0)[56] = 'b'; /* after sealing: the primary array's CRC fails */
	CHECK_EQ_INT(gpt_read_buffer(img, sizeof(img), 512, &t, err, sizeof(err)), 0);
	CHECK(t.from_backup);
	CHECK_EQ_STR(t.parts[0].label, "a");
}

static void test_not_gpt(void)
{
	char err[GPT_ERR_LEN];

	memset(img, 0, sizeof(img));
	CHECK_EQ_INT(gpt_read_buffer(img, sizeof(img), 0, &t, err, sizeof(err)), -1);
	CHECK(strstr(err, "no MBR signature") != NULL);
	img[510] = 0x55;
	img[511] = 0xaa;
	img[446 + 4] = 0x83;
	CHECK_EQ_INT(gpt_read_buffer(img, sizeof(img), 0, &t, err, sizeof(err)), -1);
	CHECK(strstr(err, "an MBR partition table, not GPT") != NULL);
	CHECK_EQ_INT(gpt_read_buffer(img, 1000, 0, &t, err, sizeof(err)), -1);
	CHECK(strstr(err, "too small") != NULL);
}

/* Entries the kernel does not make partitions of: no type, or past the device's end. */
static void test_invalid_entries_are_skipped(void)
{
	struct layout l = make_disk(512);
	char err[GPT_ERR_LEN];

	add_part(&l, 0, 0x10, 2048, 4095, "ok");
	add_part(&l, 1, 0x20, 2048, 4095, "no type");
	memset(entry(&l, 1), 0, 16);
	add_part(&l, 2, 0x30, 2048, l.last_lba + 1, "too far");
	seal(&l);
	CHECK_EQ_INT(gpt_read_buffer(img, sizeof(img), 512, &t, err, sizeof(err)), 0);
	CHECK_EQ_INT(t.count, 1);
	CHECK_EQ_STR(t.parts[0].label, "ok");
}

/* Names: UTF-16LE with a surrogate pair and a lone surrogate. */
static void test_names_in_utf8(void)
{
	struct layout l = make_disk(512);
	const uint16_t units[] = {'x', 0xe9, 0x20ac, 0xd83d, 0xde00, 0xdc00, 'y', 0};
	char err[GPT_ERR_LEN];
	uint8_t *e;

	add_part(&l, 0, 0x10, 2048, 4095, "");
	e = entry(&l, 0);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		e[56 + 2 * i] = (uint8_t)units[i];
		e[57 + 2 * i] = (uint8_t)(units[i] >> 8);
	}
	seal(&l);
	CHECK_EQ_INT(gpt_read_buffer(img, sizeof(img), 512, &t, err, sizeof(err)), 0);
	CHECK_EQ_STR(t.parts[0].label, "x\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xef\xbf\xbdy");
	/* 36 units, no NUL: all of them */
	memset(e + 56, 0, 72);
	for (int i = 0; i < 36; i++)
		e[56 + 2 * i] = 'a' + i % 26;
	seal(&l);
	CHECK_EQ_INT(gpt_read_buffer(img, sizeof(img), 512, &t, err, sizeof(err)), 0);
	CHECK_EQ_INT(strlen(t.parts[0].label), 36);
}

static void test_header_fields_checked(void)
{
	struct layout l = make_disk(512);
	char err[GPT_ERR_LEN];
	uint8_t *h = img + 512;

	add_part(&l, 0, 0x10, 2048, 4095, "p");
	seal(&l);
	/* an entry size the kernel refuses, with a correct CRC: primary refused, backup used */
	put_le32(h + 84, 256);
	memset(h + 16, 0, 4);
	put_le32(h + 16, crc32_ieee(0, h, 92));
	CHECK_EQ_INT(gpt_read_buffer(img, sizeof(img), 512, &t, err, sizeof(err)), 0);
	CHECK(t.from_backup);
	/* "my LBA" wrong in the backup too: nothing */
	h = img + l.last_lba * 512;
	put_le64(h + 24, 5);
	memset(h + 16, 0, 4);
	put_le32(h + 16, crc32_ieee(0, h, 92));
	CHECK_EQ_INT(gpt_read_buffer(img, sizeof(img), 512, &t, err, sizeof(err)), -1);
	CHECK(strstr(err, "256 bytes") != NULL);
	CHECK(strstr(err, "do not fit the device") != NULL);
}

/* One line of a command's output, without its newline ("" when none). */
static void first_line(const char *cmd, char *out, size_t len)
{
	FILE *f = popen(cmd, "r");

	out[0] = '\0';
	if (!f)
		return;
	if (fgets(out, (int)len, f))
		out[strcspn(out, "\n")] = '\0';
	pclose(f);
}

/* A table made by a real tool (util-linux's sfdisk, Debian package fdisk) reads the same. */
static void test_against_sfdisk(void)
{
	char dir[] = "/tmp/iomatrix-gpt-XXXXXX", path[64], cmd[512], want[128];
	char err[GPT_ERR_LEN];
	FILE *f;
	size_t n;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/disk.img", dir);
	snprintf(cmd, sizeof(cmd),
		 "truncate -s 4M %s && printf 'label: gpt\\nstart=2048, size=2048, "
		 "name=\"iomatrix-results\"\\nstart=4096, size=1024, name=\"zwei teil\"\\n' | "
		 "sfdisk -q %s",
		 path, path);
	if (system(cmd)) {
		printf("# sfdisk failed or is missing (make deps installs fdisk)\n");
		check_failures++;
		return;
	}
	f = fopen(path, "rb");
	CHECK(f != NULL);
	if (!f)
		return;
	n = fread(img, 1, sizeof(img), f);
	fclose(f);
	CHECK_EQ_INT(n, 4u << 20);
	CHECK_EQ_INT(gpt_read_buffer(img, n, 0, &t, err, sizeof(err)), 0);
	CHECK_EQ_INT(t.count, 2);
	for (int i = 0; i < 2; i++) {
		snprintf(cmd, sizeof(cmd), "sfdisk --part-uuid %s %d | tr A-F a-f", path, i + 1);
		first_line(cmd, want, sizeof(want));
		CHECK_EQ_STR(t.parts[i].uuid, want);
		snprintf(cmd, sizeof(cmd), "sfdisk --part-label %s %d", path, i + 1);
		first_line(cmd, want, sizeof(want));
		CHECK_EQ_STR(t.parts[i].label, want);
		CHECK_EQ_INT(t.parts[i].number, i + 1);
	}
	CHECK_EQ_INT(t.parts[1].first_lba, 4096);
	CHECK_EQ_INT(t.parts[1].last_lba, 4096 + 1023);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	RUN_TEST(test_two_partitions);
	RUN_TEST(test_4k_blocks);
	RUN_TEST(test_backup_when_the_primary_is_damaged);
	RUN_TEST(test_entries_crc);
	RUN_TEST(test_not_gpt);
	RUN_TEST(test_invalid_entries_are_skipped);
	RUN_TEST(test_names_in_utf8);
	RUN_TEST(test_header_fields_checked);
	RUN_TEST(test_against_sfdisk);
	CHECK_EXIT();
}
