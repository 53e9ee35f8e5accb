/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The md arrays the appliance made, so power-off can stop them first:
 * while any array exists md's reboot notifier sleeps a second, and a
 * stopped array is left clean. Whoever creates an array registers it at
 * once and removes it after stopping it.
 */
#ifndef IOMATRIX_RUNNER_SETUP_MD_REGISTRY_H
#define IOMATRIX_RUNNER_SETUP_MD_REGISTRY_H

#include <stddef.h>

#define MD_REGISTRY_MAX 32

/* dev: "/dev/md0". Returns 0, -ENOSPC when full, -EEXIST when registered. */
int md_registry_add(const char *dev);
/* Returns 0, or -ENOENT when dev was not registered. */
int md_registry_remove(const char *dev);
size_t md_registry_count(void);
/* The i-th registered array, oldest first; NULL past the end. */
const char *md_registry_get(size_t i);

/*
 * Stops every registered array, newest first (an array built on another
 * goes before it), with "mdadm --stop DEV", each within timeout seconds.
 * One console line per array. Returns the number that failed to stop;
 * those stay registered.
 */
int md_registry_stop_all(double timeout);

#endif
