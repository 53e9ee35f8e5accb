// SPDX-License-Identifier: GPL-2.0
/* The registry of md arrays made by the appliance. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "runner/console.h"
#include "runner/setup/md_registry.h"
#include "runner/spawn.h"

static char arrays[MD_REGISTRY_MAX][64];
static size_t count;

static long find(const char *dev)
{
	for (size_t i = 0; i < count; i++)
		if (!strcmp(arrays[i], dev))
			return (long)i;
	return -1;
}

int md_registry_add(const char *dev)
{
	if (find(dev) >= 0)
		return -EEXIST;
	if (count == MD_REGISTRY_MAX || strlen(dev) >= sizeof(arrays[0]))
		return -ENOSPC;
	strcpy(arrays[count++], dev);
	return 0;
}

int md_registry_remove(const char *dev)
{
	long i = find(dev);

	if (i < 0)
		return -ENOENT;
	memmove(arrays[i], arrays[i + 1], (count - (size_t)i - 1) * sizeof(arrays[0]));
	count--;
	return 0;
}

size_t md_registry_count(void)
{
	return count;
}

const char *md_registry_get(size_t i)
{
	return i < count ? arrays[i] : NULL;
}

int md_registry_stop_all(double timeout)
{
	int failed = 0;

	for (size_t i = count; i-- > 0;) {
		char dev[sizeof(arrays[0])], how[64];
		const char *const argv[] = {"mdadm", "--stop", dev, NULL};
		int status = 0;
		int ret;

		strcpy(dev, arrays[i]);
		ret = run_child(argv, timeout, NULL, &status);
		if (ret == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			md_registry_remove(dev);
			con_say("md: stopped %s", dev);
			continue;
		}
		failed++;
		con_say("md: mdadm --stop %s failed: %s", dev,
			ret ? spawn_strerror(ret) : spawn_status_str(status, how, sizeof(how)));
	}
	return failed;
}
