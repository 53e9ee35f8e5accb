// SPDX-License-Identifier: GPL-2.0
/* Size accounting per part of the image; see image_sizes.h. */
#include "initramfs/image_sizes.h"

#include <string.h>

void size_meter_init(struct size_meter *m, struct compressor *comp)
{
	memset(m, 0, sizeof(*m));
	m->comp = comp;
	m->current = PART_LAYOUT;
}

int size_meter_write(void *meter, const void *buf, size_t len, char *err, size_t errlen)
{
	struct size_meter *m = meter;

	m->raw[m->current] += len;
	return compressor_write(m->comp, buf, len, err, errlen);
}

/* The compressed bytes out since the last change belong to the current part. */
static void settle(struct size_meter *m)
{
	uint64_t out = compressor_bytes_out(m->comp);

	m->packed[m->current] += out - m->packed_mark;
	m->packed_mark = out;
}

int size_meter_part(void *meter, enum image_part part, char *err, size_t errlen)
{
	struct size_meter *m = meter;

	if (part == m->current)
		return 0;
	if (compressor_flush(m->comp, err, errlen))
		return -1;
	settle(m);
	m->current = part;
	return 0;
}

int size_meter_finish(struct size_meter *m, char *err, size_t errlen)
{
	if (compressor_finish(m->comp, err, errlen))
		return -1;
	settle(m);
	return 0;
}

void size_meter_count_files(struct size_meter *m, const struct image_tree *t)
{
	memset(m->files, 0, sizeof(m->files));
	for (size_t i = 0; i < t->count; i++)
		if (t->entries[i].kind == ENTRY_FILE)
			m->files[t->entries[i].part]++;
}

static void human(uint64_t bytes, char *out, size_t outlen)
{
	if (bytes >= 10u << 20)
		snprintf(out, outlen, "%.1f MiB", bytes / 1048576.0);
	else
		snprintf(out, outlen, "%.0f KiB", bytes / 1024.0);
}

void size_meter_print(const struct size_meter *m, FILE *f)
{
	uint64_t raw = 0, packed = 0, files = 0;
	char r[32], p[32];

	for (int i = 0; i < PART_COUNT; i++) {
		raw += m->raw[i];
		packed += m->packed[i];
		files += m->files[i];
	}
	fprintf(f, "  %-10s %5s %11s %11s %7s\n", "part", "files", "raw", "compressed", "share");
	for (int i = 0; i < PART_COUNT; i++) {
		human(m->raw[i], r, sizeof(r));
		human(m->packed[i], p, sizeof(p));
		fprintf(f, "  %-10s %5llu %11s %11s %6.1f%%\n", image_part_names[i],
			(unsigned long long)m->files[i], r, p,
			packed ? 100.0 * m->packed[i] / packed : 0.0);
	}
	human(raw, r, sizeof(r));
	human(packed, p, sizeof(p));
	fprintf(f, "  %-10s %5llu %11s %11s %6.1f%%\n", "total", (unsigned long long)files, r, p,
		100.0);
}
