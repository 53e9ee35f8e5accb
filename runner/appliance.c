// SPDX-License-Identifier: GPL-2.0
/*
 * The appliance, as PID 1: set up the system, read the settings from the
 * kernel command line, load the image's modules, wait for the disks and
 * list them, run the matrix, then power off. Each stage is its own file; this one only
 * puts them in order and says on the console how far it got.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "lib/appliance_contract.h"
#include "runner/cmdline.h"
#include "runner/console.h"
#include "runner/setup/disks.h"
#include "runner/image_info.h"
#include "runner/run/matrix_run.h"
#include "runner/modes.h"
#include "runner/modules.h"
#include "runner/pid1.h"
#include "runner/power.h"
#include "runner/spawn.h"

/* How long the disks may take to appear after their drivers loaded. */
#define DISK_SETTLE_SECONDS 10.0

/* A small text file (one line: /proc/cmdline, /proc/version) without its newline. */
static int read_line_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static void banner(const struct utsname *u)
{
	char version[512];

	con_say_t(CONSOLE_START " PID 1 on Linux %s %s", u->release, u->machine);
	if (read_line_file("/proc/version", version, sizeof(version)) == 0)
		con_say("kernel: %s", version);
}

static void read_settings(struct appliance_config *cfg)
{
	char cmdline[4096], err[CMDLINE_ERR_LEN], shown[1024];
	int ret = read_line_file("/proc/cmdline", cmdline, sizeof(cmdline));

	cmdline_defaults(cfg);
	if (ret)
		fatal("cannot read /proc/cmdline: %s", strerror(-ret));
	con_say("cmdline: %s", cmdline);
	if (cmdline_parse(cfg, cmdline, err, sizeof(err)))
		fatal("kernel command line: %s", err);
	con_set_debug(cfg->debug);
	power_set_shell(cfg->shell);
	cmdline_format(cfg, shown, sizeof(shown));
	con_say("config: %s", shown);
}

static void load_modules(const struct utsname *u)
{
	static struct module_list list;
	struct image_info info;
	struct modules_summary sum;
	char path[512], err[MODULES_ERR_LEN];

	if (image_info_read(IMAGE_CONF_PATH, &info, err, sizeof(err)))
		fatal("image: %s", err);
	if (strcmp(info.release, u->release))
		fatal("image was built for kernel %s but this is %s: build one with "
		      "`iomatrix image --release %s`",
		      info.release, u->release, u->release);
	snprintf(path, sizeof(path), "/lib/modules/%s/modules.load", info.release);
	if (modules_read(path, &list, err, sizeof(err)))
		fatal("modules: %s", err);
	modules_load_all(&list, &sum);
	con_say_t("modules: %zu loaded, %zu already present, %zu without a device, %zu failed "
		  "in %.3f s",
		  sum.loaded, sum.present, sum.no_device, sum.failed, sum.seconds);
}

static void list_disks(const struct appliance_config *cfg, struct disk_list *disks)
{
	char err[DISKS_ERR_LEN], size[32];

	if (disks_wait("/sys", cfg->disks, DISK_SETTLE_SECONDS, err, sizeof(err)))
		con_say("disks: %s", err);
	if (disks_scan("/sys", cfg->disks, disks, err, sizeof(err)))
		fatal("disks: %s", err);
	for (size_t i = 0; i < disks->count; i++) {
		const struct disk *d = &disks->d[i];

		con_say("disk %s: %s (%llu bytes) %s%s model=\"%s\" serial=\"%s\"", d->name,
			disks_human_size(d->size_bytes, size, sizeof(size)), d->size_bytes,
			d->transport, d->read_only ? " read-only" : "", d->model, d->serial);
	}
	con_say_t("disks: %zu found", disks->count);
}

int appliance_main(int argc, char **argv)
{
	static struct disk_list disks;
	struct appliance_config cfg;
	struct utsname u;
	char err[512];

	(void)argc;
	(void)argv;
	if (spawn_init())
		fatal("cannot block SIGCHLD: %s", strerror(errno));
	if (pid1_setup(err, sizeof(err)))
		fatal("%s", err);
	if (uname(&u))
		fatal("uname: %s", strerror(errno));
	banner(&u);
	read_settings(&cfg);
	load_modules(&u);
	list_disks(&cfg, &disks);
	matrix_run(&cfg, &disks);
	power_off();
}
