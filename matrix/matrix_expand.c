// SPDX-License-Identifier: GPL-2.0
/*
 * Expansion: the ordered cartesian product of the dimensions (the first
 * varies slowest), minus what [rules] exclude, each combination resolved
 * into a cell for one machine. A cell the machine cannot run keeps its index
 * and says why in skip; the runner records it as skipped.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix/matrix_estimate.h"
#include "matrix/matrix_internal.h"
#include "matrix/matrix_units.h"

/* The time limit when the matrix says auto: generous, since TCG is noisy. */
#define AUTO_LIMIT_FLOOR_S 300.0
#define AUTO_LIMIT_FACTOR  3.0
/* IO buffers may take at most this share of memory. */
#define MEMORY_SHARE_FOR_BUFFERS 0.5

/*
 * md's data offset on each member for metadata 1.2 (mdadm 4.2): about a
 * 1024th of the member, a power of two from 1 MiB to 128 MiB, plus 1 MiB
 * for the superblock and bitmap space. 1 GiB members lose 2 MiB, as
 * /proc/mdstat showed under QEMU.
 */
static uint64_t md_member_bytes(uint64_t disk)
{
	uint64_t head = MX_MIB;

	while (head * 2 <= disk / 1024 && head * 2 <= 128 * MX_MIB)
		head *= 2;
	return disk > head + MX_MIB ? disk - head - MX_MIB : 0;
}

/* The size of the block device each filesystem is made on. */
static uint64_t fs_device_bytes(enum array_level level, int disks, uint64_t smallest,
				uint64_t chunk)
{
	uint64_t m;

	if (level == ARRAY_JBOD)
		return smallest;
	m = md_member_bytes(smallest);
	if (array_info(level)->has_chunk && chunk)
		m -= m % chunk;
	switch (level) {
	case ARRAY_LINEAR:
	case ARRAY_RAID0:
		return m * disks;
	case ARRAY_RAID1:
		return m;
	case ARRAY_RAID10:
		return m * disks / 2; /* near=2, mdadm's default layout */
	case ARRAY_RAID5:
		return m * (disks - 1);
	case ARRAY_RAID6:
		return m * (disks - 2);
	default:
		return 0;
	}
}

static int set_skip(struct cell *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int set_skip(struct cell *c, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vasprintf(&c->skip, fmt, ap);
	va_end(ap);
	if (rc < 0) {
		c->skip = NULL;
		return -1;
	}
	return 0;
}

static void describe_device(const struct cell *c, uint64_t smallest, char *buf, size_t len)
{
	char size[32];

	mx_format_size(smallest, size, sizeof(size));
	if (c->array == ARRAY_JBOD)
		snprintf(buf, len, "a %s disk", size);
	else
		snprintf(buf, len, "%s of %d x %s", array_info(c->array)->name, c->disks, size);
}

/* What the machine cannot run, first reason only. 0, or -1 out of memory. */
static int apply_hardware_rules(struct cell *c, const struct settings *s, const struct machine *mc)
{
	const struct array_info *ai = array_info(c->array);
	const struct fs_info *fi = fs_info(c->fs);
	uint64_t smallest = 0, usable;
	char dev[128], a[32], b[32];

	if (mc->ndisks < 1)
		return set_skip(c, "no disks given");
	if (s->disks > mc->ndisks)
		return set_skip(c, "disks=%d, but %d given", s->disks, mc->ndisks);
	if (c->disks < ai->min_disks)
		return set_skip(c, "%s needs %d disks, %d %s", ai->name, ai->min_disks, c->disks,
				s->disks ? "chosen (disks=)" : "given");
	for (int i = 0; i < c->disks; i++)
		if (!smallest || mc->disk_bytes[i] < smallest)
			smallest = mc->disk_bytes[i];
	c->fs_bytes = fs_device_bytes(c->array, c->disks, smallest, c->chunk_bytes);
	describe_device(c, smallest, dev, sizeof(dev));
	if (c->fs_bytes < fi->min_bytes) {
		mx_format_size(fi->min_bytes, a, sizeof(a));
		mx_format_size(c->fs_bytes, b, sizeof(b));
		if (!strcmp(a, b)) /* too close for people's units */
			return set_skip(c, "%s needs %llu bytes per filesystem, %s gives %llu",
					fi->name, (unsigned long long)fi->min_bytes, dev,
					(unsigned long long)c->fs_bytes);
		return set_skip(c, "%s needs %s per filesystem, %s gives %s", fi->name, a, dev, b);
	}
	usable = (uint64_t)(c->fs_bytes * fi->usable_fraction);
	if (c->workload.bytes_per_fs > usable) {
		mx_format_size(c->workload.bytes_per_fs, a, sizeof(a));
		mx_format_size(usable, b, sizeof(b));
		return set_skip(c, "the workload needs %s per filesystem, %s on %s holds about %s",
				a, fi->name, dev, b);
	}
	if (mc->mem_bytes && c->workload.buffer_bytes > mc->mem_bytes * MEMORY_SHARE_FOR_BUFFERS) {
		mx_format_size(c->workload.buffer_bytes, a, sizeof(a));
		mx_format_size(mc->mem_bytes, b, sizeof(b));
		return set_skip(c, "the workload's IO buffers need %s, more than half of %s memory",
				a, b);
	}
	return 0;
}

static int fill_cell(const struct matrix *m, const struct machine *mc, double scale, const int *idx,
		     int index, struct cell *c, char *err, size_t errlen)
{
	const struct fs_info *fi;
	struct workload_shape shape;
	struct settings s;
	char key[1024];
	size_t len;

	if (matrix_resolve(m, idx, &s, err, errlen))
		return -1;
	c->index = index;
	matrix_key(m, idx, key, sizeof(key));
	c->key = strdup(key);
	c->ndims = m->ndims;
	for (int d = 0; d < m->ndims; d++) {
		c->value_index[d] = idx[d];
		c->dims[d].name = strdup(m->dims[d].name);
		c->dims[d].value = strdup(m->dims[d].values[idx[d]].name);
		if (!c->dims[d].name || !c->dims[d].value)
			goto oom;
	}
	c->fs = s.fs;
	fi = fs_info(s.fs);
	len = strlen(fi->mkfs_defaults) + (s.mkfs_options ? strlen(s.mkfs_options) : 0) + 2;
	c->mkfs_options = malloc(len);
	if (!c->key || !c->mkfs_options)
		goto oom;
	snprintf(c->mkfs_options, len, "%s%s%s", fi->mkfs_defaults,
		 *fi->mkfs_defaults && s.mkfs_options ? " " : "",
		 s.mkfs_options ? s.mkfs_options : "");
	c->mount_options = strdup(s.mount_options ? s.mount_options : "");
	c->scheduler = s.scheduler ? strdup(s.scheduler) : NULL;
	if (!c->mount_options || (s.scheduler && !c->scheduler))
		goto oom;
	c->array = s.array;
	c->disks = s.disks ? s.disks : mc->ndisks;
	c->filesystems = s.array == ARRAY_JBOD ? c->disks : 1;
	if (c->filesystems < 1)
		c->filesystems = 1;
	c->chunk_bytes = array_info(s.array)->has_chunk ? s.chunk : 0;
	c->resync = s.resync;
	c->readahead_sectors = s.readahead;
	c->repeats = s.repeats;
	if (workload_resolve(m, &s, c->filesystems, scale, &c->workload, &shape, err, errlen)) {
		settings_free(&s);
		return -1;
	}
	if (apply_hardware_rules(c, &s, mc))
		goto oom;
	if (!c->skip) {
		double w = estimate_workload_s(c, &shape);
		uint64_t member = mc->disk_bytes[0];

		for (int i = 1; i < c->disks; i++) /* md makes every member the smallest's size */
			if (mc->disk_bytes[i] < member)
				member = mc->disk_bytes[i];
		c->estimate_s =
			w < 0 ? -1 : estimate_setup_s(c, member) + w + estimate_teardown_s(c);
	}
	c->time_limit_s = s.time_limit;
	if (!c->time_limit_s)
		c->time_limit_s = AUTO_LIMIT_FLOOR_S +
				  AUTO_LIMIT_FACTOR * (c->estimate_s > 0 ? c->estimate_s : 0);
	settings_free(&s);
	return 0;
oom:
	settings_free(&s);
	return mx_fail(err, errlen, "out of memory");
}

static void cell_free(struct cell *c)
{
	free(c->key);
	for (int d = 0; d < c->ndims; d++) {
		free(c->dims[d].name);
		free(c->dims[d].value);
	}
	free(c->mkfs_options);
	free(c->mount_options);
	free(c->scheduler);
	free(c->skip);
	cell_workload_free(&c->workload);
}

void cell_list_free(struct cell_list *cl)
{
	for (int i = 0; i < cl->count; i++)
		cell_free(&cl->cells[i]);
	free(cl->cells);
	memset(cl, 0, sizeof(*cl));
}

int matrix_expand(const struct matrix *m, const struct machine *mc, double scale,
		  struct cell_list *out, char *err, size_t errlen)
{
	int idx[MATRIX_MAX_DIMS] = {0};
	char msg[MATRIX_ERR_LEN];

	memset(out, 0, sizeof(*out));
	if (mc->ndisks < 0 || mc->ndisks > MATRIX_MAX_DISKS)
		return mx_fail(err, errlen, "%d disks: at most %d", mc->ndisks, MATRIX_MAX_DISKS);
	if (scale <= 0)
		scale = m->scale;
	if (!(scale <= 1))
		return mx_fail(err, errlen, "bad scale %g (above 0, at most 1)", scale);
	out->scale = scale;
	out->cells = calloc(m->cell_count, sizeof(*out->cells));
	if (!out->cells)
		return mx_fail(err, errlen, "out of memory");
	do {
		struct cell *c;

		if (matrix_excluded(m, idx))
			continue;
		c = &out->cells[out->count++];
		if (fill_cell(m, mc, scale, idx, out->count, c, msg, sizeof(msg))) {
			mx_fail(err, errlen, "%s: cell %d (%s): %s", m->path, out->count,
				c->key ? c->key : "?", msg);
			cell_list_free(out);
			return -1;
		}
		if (!c->skip)
			out->runnable++;
	} while (matrix_next_combination(m, idx));
	return 0;
}
