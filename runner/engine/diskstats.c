// SPDX-License-Identifier: GPL-2.0
/* Disk utilisation from /proc/diskstats; see diskstats.h. */
#include "runner/engine/diskstats.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "runner/clock.h"

static void add_name(struct disk_watch *w, const char *name)
{
	for (size_t i = 0; i < w->n; i++)
		if (!strcmp(w->d[i].name, name))
			return;
	if (w->n >= DISK_WATCH_MAX)
		return;
	memset(&w->d[w->n], 0, sizeof(w->d[0]));
	snprintf(w->d[w->n].name, sizeof(w->d[0].name), "%s", name);
	w->n++;
}

void disk_watch_add(struct disk_watch *w, dev_t dev)
{
	char path[PATH_MAX], link[PATH_MAX];
	const char *name;
	ssize_t n;
	DIR *dir;
	struct dirent *de;

	if (!major(dev))
		return;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return;
	link[n] = '\0';
	name = strrchr(link, '/');
	name = name ? name + 1 : link;
	add_name(w, name);
	/* md and dm devices: their members do the real IO (fio's "slaves"). */
	snprintf(path, sizeof(path), "/sys/block/%.200s/slaves", name);
	dir = opendir(path);
	if (!dir)
		return;
	while ((de = readdir(dir)))
		if (de->d_name[0] != '.')
			add_name(w, de->d_name);
	closedir(dir);
}

/* Reads the counters of every watched disk into snap[]. */
static void read_all(struct disk_watch *w, struct jr_disk *snap)
{
	FILE *f = fopen("/proc/diskstats", "r");
	char line[512];

	memset(snap, 0, sizeof(*snap) * w->n);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[11];
		unsigned maj, min;
		char name[64];

		if (sscanf(line, "%u %u %63s %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
			   &maj, &min, name, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
			   &v[8], &v[9], &v[10]) != 14)
			continue;
		for (size_t i = 0; i < w->n; i++) {
			struct jr_disk *d = &snap[i];

			if (strcmp(w->d[i].name, name))
				continue;
			d->ios[0] = v[0];
			d->merges[0] = v[1];
			d->sectors[0] = v[2];
			d->ticks[0] = v[3];
			d->ios[1] = v[4];
			d->merges[1] = v[5];
			d->sectors[1] = v[6];
			d->ticks[1] = v[7];
			d->io_ticks = v[9];
			d->in_queue = v[10];
		}
	}
	fclose(f);
}

void disk_watch_start(struct disk_watch *w)
{
	struct jr_disk snap[DISK_WATCH_MAX];

	read_all(w, snap);
	for (size_t i = 0; i < w->n; i++) {
		char name[64];

		memcpy(name, w->d[i].name, sizeof(name));
		w->d[i] = snap[i];
		memcpy(w->d[i].name, name, sizeof(name));
	}
	w->t0_ms = clock_ns() / 1000000;
}

void disk_watch_stop(struct disk_watch *w)
{
	struct jr_disk snap[DISK_WATCH_MAX];
	uint64_t msec = clock_ns() / 1000000 - w->t0_ms;

	read_all(w, snap);
	for (size_t i = 0; i < w->n; i++) {
		struct jr_disk *d = &w->d[i];

		for (int k = 0; k < 2; k++) {
			d->ios[k] = snap[i].ios[k] - d->ios[k];
			d->merges[k] = snap[i].merges[k] - d->merges[k];
			d->sectors[k] = snap[i].sectors[k] - d->sectors[k];
			d->ticks[k] = snap[i].ticks[k] - d->ticks[k];
		}
		d->io_ticks = snap[i].io_ticks - d->io_ticks;
		d->in_queue = snap[i].in_queue - d->in_queue;
		d->msec = msec;
		d->util = msec ? 100.0 * (double)d->io_ticks / (double)msec : 0;
		if (d->util > 100.0)
			d->util = 100.0;
	}
}
