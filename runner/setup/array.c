// SPDX-License-Identifier: GPL-2.0
/* md arrays with mdadm; see array.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runner/setup/array.h"
#include "runner/console.h"
#include "runner/machine_info.h"
#include "runner/setup/md_registry.h"

/* Levels that carry redundancy: the only ones an initial resync concerns. */
static bool redundant(enum array_level level)
{
	return level == ARRAY_RAID1 || level == ARRAY_RAID10 || level == ARRAY_RAID5 ||
	       level == ARRAY_RAID6;
}

/* Copies s into buf at *used and returns it, or NULL when buf is full. */
static const char *keep(char *buf, size_t len, size_t *used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static const char *keep(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	char *at = buf + *used;
	int n;

	if (*used >= len)
		return NULL;
	va_start(ap, fmt);
	n = vsnprintf(at, len - *used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - *used)
		return NULL;
	*used += (size_t)n + 1;
	return at;
}

int array_create_argv(const struct cell *c, const char *const *members, int n, const char *dev,
		      const char **argv, int max, char *buf, size_t buflen)
{
	const struct array_info *ai = array_info(c->array);
	size_t used = 0;
	int k = 0;

	if (max < n + 12)
		return -1;
	argv[k++] = "mdadm";
	argv[k++] = "--create";
	argv[k++] = dev;
	argv[k++] = "--run";
	argv[k++] = "--metadata=1.2";
	argv[k++] = keep(buf, buflen, &used, "--level=%s", ai->name);
	argv[k++] = keep(buf, buflen, &used, "--raid-devices=%d", n);
	if (ai->has_chunk)
		argv[k++] = keep(buf, buflen, &used, "--chunk=%lluK",
				 (unsigned long long)(c->chunk_bytes / 1024));
	if (c->array == ARRAY_RAID10)
		argv[k++] = "--layout=n2";
	if (redundant(c->array) && c->resync == RESYNC_ASSUME_CLEAN)
		argv[k++] = "--assume-clean";
	for (int i = 0; i < n; i++)
		argv[k++] = members[i];
	argv[k] = NULL;
	for (int i = 0; i < k; i++)
		if (!argv[i])
			return -1;
	return k;
}

static double now(void)
{
	return step_now();
}

/* Waits until md's sync_action is idle: the initial resync is done. */
static int wait_resync(struct array *a, double deadline, struct step_error *e)
{
	const struct timespec tick = {0, 200 * 1000 * 1000};
	char path[128], action[64], what[256];

	snprintf(path, sizeof(path), "/sys/block/%s/md/sync_action", a->name);
	snprintf(what, sizeof(what), "wait for the resync of %s (%s)", a->dev, path);
	for (;;) {
		int ret = read_text_file(path, action, sizeof(action));

		if (ret) {
			step_fail(e, "resync", what, strerror(-ret), NULL);
			return -1;
		}
		if (!strncmp(action, "idle", 4))
			return 0;
		if (now() >= deadline) {
			step_fail(e, "resync", what, "timed out", action);
			e->timeout = true;
			return -1;
		}
		nanosleep(&tick, NULL);
	}
}

int array_create(struct array *a, const struct cell *c, const char *const *members, int n,
		 const char *name, double timeout, struct step_error *e)
{
	const char *argv[MATRIX_MAX_DISKS + 16];
	char buf[256];
	double start = now();
	int ret;

	memset(a, 0, sizeof(*a));
	a->resync_s = -1;
	snprintf(a->name, sizeof(a->name), "%s", name);
	snprintf(a->dev, sizeof(a->dev), "/dev/%s", name);
	if (array_create_argv(c, members, n, a->dev, argv, MATRIX_MAX_DISKS + 16, buf,
			      sizeof(buf)) < 0) {
		step_fail(e, "array", "mdadm --create", "too many members for one command", NULL);
		return -1;
	}
	step_join_argv(argv, a->create_cmd, sizeof(a->create_cmd));
	ret = step_run("array", argv, timeout, e);
	/* Even when mdadm failed half-way there may be an array to stop. */
	snprintf(buf, sizeof(buf), "/sys/block/%s/md", a->name);
	a->created = ret == 0 || access(buf, F_OK) == 0;
	if (a->created)
		md_registry_add(a->dev);
	if (ret)
		return -1;
	if (c->resync == RESYNC_WAIT && redundant(c->array)) {
		double t = now();

		if (wait_resync(a, start + timeout, e))
			return -1;
		a->resync_s = now() - t;
	}
	read_text_file("/proc/mdstat", a->mdstat, sizeof(a->mdstat));
	return 0;
}

int array_stop(struct array *a, double timeout, struct step_error *e)
{
	const char *const argv[] = {"mdadm", "--stop", a->dev, NULL};

	if (!a->created)
		return 0;
	if (step_run("stop", argv, timeout, e))
		return -1;
	md_registry_remove(a->dev);
	a->created = false;
	return 0;
}
