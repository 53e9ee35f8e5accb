// SPDX-License-Identifier: GPL-2.0
/*
 * The duration model behind `iomatrix plan`, the automatic time limit and
 * the runner's first ETA.
 *
 * Constants: tools/measure-plan-model booted Debian's 6.1 kernel under QEMU
 * TCG (-smp 2, -m 2048, default CPU model with rdrand) on the project's
 * 2-core build machine, over 4 sparse 1 GiB virtio disks, and timed each
 * step of every fs x array kind: mdadm --create (assume-clean), mkfs with
 * iomatrix's default options, mount, 64 MiB dd conv=fsync, 4k O_DIRECT
 * random writes and reads (2 s each), umount, wipefs, mdadm --stop and
 * --zero-superblock, and the resync of a 4-disk raid1 and raid5. The numbers
 * are the mean of two such boots, on a machine shared with other work: the
 * two differed by up to 2x in IOPS and 1.5x in mkfs. The model is for small
 * disks under TCG; on real hardware only runtime-bound workloads mean much.
 */
#include <math.h>
#include <string.h>

#include "matrix/matrix_estimate.h"
#include "matrix/matrix_units.h"

/* mkfs of one filesystem, seconds: [array][fs] (fs: ext2 ext3 ext4 btrfs xfs) */
static const double mkfs_s[ARRAY_LEVEL_COUNT][FS_TYPE_COUNT] = {
	[ARRAY_JBOD] = {0.22, 0.67, 0.20, 0.28, 0.18},
	[ARRAY_LINEAR] = {0.29, 1.29, 0.18, 0.25, 0.15},
	[ARRAY_RAID0] = {0.38, 1.28, 0.26, 0.26, 0.49},
	[ARRAY_RAID1] = {0.28, 0.55, 0.43, 0.40, 0.87},
	[ARRAY_RAID10] = {0.29, 0.80, 0.51, 0.39, 0.44},
	[ARRAY_RAID5] = {0.77, 2.51, 1.73, 0.47, 1.52},
	[ARRAY_RAID6] = {0.65, 1.68, 0.81, 0.38, 1.52},
};
static const double mount_s[FS_TYPE_COUNT] = {0.04, 0.04, 0.04, 0.15, 0.09};
static const double umount_s[FS_TYPE_COUNT] = {0.12, 0.14, 0.14, 0.22, 0.17};
static const double wipefs_s = 0.12; /* per device */
static const double md_create_s = 0.17;
static const double md_stop_s = 0.17;
static const double md_zero_s = 0.14;
static const double drop_caches_s = 0.05;
static const double workload_start_s = 0.3; /* start the engine, write the record */
/* Initial resync, seconds per GiB of each member (raid1: 14-17, raid5: 16-61 over
 * three boots; raid10 and raid6 were not measured and take raid1's and raid5's). */
static const double resync_s_per_gib[ARRAY_LEVEL_COUNT] = {
	[ARRAY_RAID1] = 15,
	[ARRAY_RAID10] = 15,
	[ARRAY_RAID5] = 43,
	[ARRAY_RAID6] = 43,
};
/* One sequential stream (dd 64 MiB conv=fsync, mean over the five fs), MiB/s. */
static const double seq_mibps[ARRAY_LEVEL_COUNT] = {74, 105, 84, 64, 79, 39, 36};
/* 4k O_DIRECT random IOPS, one stream, mean over ext2/3/4 and xfs. */
static const double iops_write[ARRAY_LEVEL_COUNT] = {4100, 4000, 4200, 1800, 2600, 600, 600};
static const double iops_read[ARRAY_LEVEL_COUNT] = {7000, 7000, 5100, 5800, 4800, 3500, 4700};
/* btrfs reached these fractions of the others' random IOPS. */
static const double btrfs_write_factor = 0.33, btrfs_read_factor = 0.16;
/* Booting to the runner (bzImage, TCG; MEASURED.md) and loading every fs and md module. */
static const double boot_s = 5.5 + 3.0;

static const char model_text[] =
	"model: boot 8.5 s once; per cell and repeat: setup (mdadm --create, mkfs and mount per\n"
	"  filesystem, resync when resync=wait) + workload + teardown (umount, wipefs, mdadm\n"
	"  --stop); constants measured under QEMU TCG, -smp 2, 4 x 1 GiB sparse virtio disks\n"
	"  (matrix/matrix_estimate.c). Workload: its runtime when time-based, else its bytes at\n"
	"  one stream's rate (sequential 36-105 MiB/s by array; random 4k 600-7000 IOPS),\n"
	"  capped by runtime; fio lays out files first when it reads. Steps varied 0.5x-2x\n"
	"  between boots; cached reads (counted as disk reads) and many writers are rougher.";

const char *matrix_estimate_model(void)
{
	return model_text;
}

double matrix_boot_estimate_s(void)
{
	return boot_s;
}

static bool is_md(const struct cell *c)
{
	return c->array != ARRAY_JBOD;
}

double estimate_setup_s(const struct cell *c, uint64_t member_bytes)
{
	double t = drop_caches_s;

	if (is_md(c)) {
		t += md_create_s;
		if (c->resync == RESYNC_WAIT)
			t += resync_s_per_gib[c->array] * (double)member_bytes / MX_GIB;
	}
	t += c->filesystems * (mkfs_s[c->array][c->fs] + mount_s[c->fs]);
	return t;
}

double estimate_teardown_s(const struct cell *c)
{
	double t = c->filesystems * (umount_s[c->fs] + wipefs_s);

	if (is_md(c))
		t += md_stop_s + md_zero_s;
	return t;
}

/* Seconds per byte of one stream doing f's kind of IO. */
static double seconds_per_byte(const struct cell *c, const struct fio_facts *f)
{
	double seq = seq_mibps[c->array] * MX_MIB;
	bool random = !strncmp(f->rw, "rand", 4);
	bool reads = strstr(f->rw, "read") || !strcmp(f->rw, "rw") || !strcmp(f->rw, "randrw");
	bool writes = strstr(f->rw, "write") || !strcmp(f->rw, "rw") || !strcmp(f->rw, "randrw");
	double bs = (double)f->bs, t_read, t_write, t_io;

	if (!random)
		return 1 / seq;
	/* a random IO costs its 4k IOPS time plus the rest of its bytes at the sequential rate */
	t_read = 1 / (iops_read[c->array] * (c->fs == FS_BTRFS ? btrfs_read_factor : 1));
	t_write = 1 / (iops_write[c->array] * (c->fs == FS_BTRFS ? btrfs_write_factor : 1));
	if (bs > 4096) {
		t_read += (bs - 4096) / seq;
		t_write += (bs - 4096) / seq;
	}
	t_io = reads && writes ? (t_read + t_write) / 2 : reads ? t_read : t_write;
	return t_io / bs;
}

static bool reads_files(const struct fio_facts *f)
{
	return strstr(f->rw, "read") || !strcmp(f->rw, "rw") || !strcmp(f->rw, "randrw");
}

/* -1 when neither a size nor a runtime bounds it. */
static double estimate_fio(const struct cell *c, const struct workload_shape *shape)
{
	double layout = 0, io = 0, cap = 0, floor_t = 0;
	bool every_job_capped = true;

	for (int j = 0; j < shape->njobs; j++) {
		const struct fio_facts *f = &shape->jobs[j];
		uint64_t per_job = f->io_size ? f->io_size : f->size;

		if (f->time_based && f->runtime > 0) {
			floor_t = fmax(floor_t, f->runtime);
			cap = fmax(cap, f->runtime);
			continue;
		}
		if (f->runtime > 0)
			cap = fmax(cap, f->runtime);
		else
			every_job_capped = false;
		if (!per_job) {
			if (f->runtime <= 0)
				return -1;
			io += f->runtime; /* size relative (size=50%): it runs its runtime */
			continue;
		}
		io += (double)per_job * f->loops * f->numjobs * seconds_per_byte(c, f);
		if (reads_files(f) && f->size)
			layout += (double)f->size * (f->shared_file ? 1 : f->numjobs) /
				  (seq_mibps[c->array] * MX_MIB);
	}
	if (every_job_capped && cap > 0)
		io = fmin(io, cap);
	return layout + fmax(io, floor_t);
}

double estimate_workload_s(const struct cell *c, const struct workload_shape *shape)
{
	const struct cell_workload *w = &c->workload;
	double t;

	if (w->kind == WORKLOAD_DD) {
		if (w->runtime_s > 0)
			return workload_start_s + w->runtime_s + 1; /* + the final sync */
		return workload_start_s +
		       (double)w->writers * w->size / (seq_mibps[c->array] * MX_MIB);
	}
	t = estimate_fio(c, shape);
	return t < 0 ? -1 : workload_start_s + t;
}
