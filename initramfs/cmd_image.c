// SPDX-License-Identifier: GPL-2.0
/*
 * iomatrix image: build the appliance's initramfs for a kernel. The
 * options are one lib/cli table; usage and parsing both come from it.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "initramfs/appliance_list.h"
#include "initramfs/commands.h"
#include "lib/appliance_contract.h"
#include "lib/cli.h"
#include "lib/dirs.h"
#include "lib/errmsg.h"
#include "initramfs/image_build.h"
#include "initramfs/image_tools.h"

struct image_options {
	const char *release;
	const char *modules_dir;
	const char *runner;
	const char *data_dir;
	const char *list;
	const char *compress;
	const char *kernel_config;
	const char *output;
	bool quiet;
};

#define OFF(f) offsetof(struct image_options, f)

static const struct cli_opt image_opts[] = {
	{ .name = "release", .kind = CLI_STRING, .offset = OFF(release), .arg = "R",
	  .help = "kernel release; default: the newest in /lib/modules with /boot/vmlinuz-R, or "
		  "the only one under --modules-dir" },
	{ .name = "modules-dir", .kind = CLI_STRING, .offset = OFF(modules_dir), .arg = "DIR",
	  .help = "take modules from DIR/lib/modules/R, as 'make modules_install "
		  "INSTALL_MOD_PATH=DIR' leaves them; default: /lib/modules/R" },
	{ .name = "runner", .kind = CLI_STRING, .offset = OFF(runner), .arg = "PATH",
	  .help = "the runner, /init in the image; default: the one beside this program: "
		  "build/iomatrix-runner in the tree, PREFIX/" DIRS_RUNNER "/iomatrix-runner "
		  "installed" },
	{ .name = "data-dir", .kind = CLI_STRING, .offset = OFF(data_dir), .arg = "DIR",
	  .help = "where the list's data patterns are looked up (the shipped list's: "
		  "matrix/*.matrix and configs/jobs/*.fio, to " IMAGE_ETC_DIR "/); default: the "
		  "tree this program was built in, PREFIX/" DIRS_DATA " installed" },
	{ .name = "list", .kind = CLI_STRING, .offset = OFF(list), .arg = "FILE",
	  .help = "build from the list FILE of what goes into the image (dir, nod, slink, file, "
		  "tool, module, options and data lines; docs/image.md); default: "
		  APPLIANCE_LIST_IN_TREE " beside the matrices this program ships with" },
	/* A string, not a CLI_CHOICE: image_build names the choices and the kernel's. */
	{ .name = "compress", .kind = CLI_STRING, .offset = OFF(compress),
	  .arg = "zstd|xz|gzip|none",
	  .help = "default: the first of zstd, xz, gzip the kernel config enables (CONFIG_RD_*); "
		  "gzip when no config is found" },
	{ .name = "kernel-config", .kind = CLI_STRING, .offset = OFF(kernel_config),
	  .arg = "FILE",
	  .help = "the kernel's .config; default: /boot/config-R, or under --modules-dir DIR: "
		  "DIR/boot/config-R, DIR/lib/modules/R/build/.config, DIR/lib/modules/R/config, "
		  "DIR/config-R, DIR/.config" },
	{ .short_name = 'o', .kind = CLI_STRING, .offset = OFF(output), .arg = "FILE",
	  .help = "write the image to FILE (whole or not at all); default: "
		  "WORK/image/initramfs-R.cpio.EXT, where `iomatrix qemu` looks" },
	{ .name = "quiet", .kind = CLI_FLAG, .offset = OFF(quiet),
	  .help = "print no size breakdown (notes and errors still go to stderr)" },
};

static const struct cli_cmd image_cmd = {
	.name = "image",
	.about = "Build the appliance's initramfs (a newc cpio) for a kernel: the runner as\n"
		 "/init, busybox, mdadm, mkfs tools with their libraries, and the kernel modules\n"
		 "with their dependencies and soft dependencies (docs/image.md).",
	.more = "environment:\n"
		"  SOURCE_DATE_EPOCH           the mtime of every entry, in seconds (default 0)\n"
		"  " TOOL_PATH_ENV "          where busybox, mdadm and the mkfs tools are looked\n"
		"                              up (default " TOOL_PATH_DEFAULT ")\n"
		"  " DIRS_WORK_ENV "           WORK, the work directory (default: "
		DIRS_WORK_DEFAULT ")\n",
	.opts = image_opts,
	.nopts = sizeof(image_opts) / sizeof(image_opts[0]),
	.getopt_words = true,
};

static int source_date_epoch(uint32_t *mtime, char *err, size_t errlen)
{
	const char *s = getenv("SOURCE_DATE_EPOCH");
	unsigned long long v;
	char *end;

	*mtime = 0;
	if (!s || !*s)
		return 0;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > UINT32_MAX || s[0] == '-')
		return errmsg(err, errlen, "SOURCE_DATE_EPOCH=%s: not seconds since 1970 that fit "
			      "a cpio header", s);
	*mtime = (uint32_t)v;
	return 0;
}

static void report(const struct image_result *res, double seconds)
{
	printf("iomatrix image: %s\n", res->output);
	printf("  kernel %s, %zu modules (%zu as soft dependencies), %s, config %s, %.1f s\n",
	       res->release, res->module_count, res->soft_count, res->compression->setting,
	       res->config_path[0] ? res->config_path : "not found", seconds);
	for (size_t i = 0; i < res->info.count; i++)
		printf("  %s\n", res->info.names[i]);
	if (res->builtin.count) {
		printf("  built into the kernel:");
		for (size_t i = 0; i < res->builtin.count; i++)
			printf(" %s", res->builtin.names[i]);
		printf("\n");
	}
	size_meter_print(&res->sizes, stdout);
}

int cmd_image(int argc, char **argv)
{
	struct image_options opts;
	struct iomatrix_dirs dirs;
	char out_dir[PATH_MAX + 8], list[PATH_MAX + 32], err[ERRMSG_LEN];
	struct image_request req = { 0 };
	struct image_result res;
	struct timespec t0, t1;
	char *notes = NULL;
	size_t notes_len = 0;
	size_t npos;
	int r;

	memset(&opts, 0, sizeof(opts));
	r = cli_parse(&image_cmd, argc, argv, &opts, NULL, &npos);
	if (r) {
		/* the whole usage after the one line, as before the table was shared */
		if (r < 0)
			cli_usage(&image_cmd, stderr);
		return r > 0 ? 0 : 2;
	}
	if (iomatrix_dirs(&dirs, err, sizeof(err))) {
		fprintf(stderr, "iomatrix %s: %s\n", argv[0], err);
		return 1;
	}
	snprintf(out_dir, sizeof(out_dir), "%s/image", dirs.work);
	snprintf(list, sizeof(list), "%s/" APPLIANCE_LIST_IN_TREE, dirs.data);
	req.release = opts.release;
	req.modules_dir = opts.modules_dir;
	req.list = opts.list ? opts.list : list;
	req.runner = opts.runner ? opts.runner : dirs.runner;
	req.data_dir = opts.data_dir ? opts.data_dir : dirs.data;
	req.compress = opts.compress;
	req.kernel_config = opts.kernel_config;
	req.output = opts.output;
	req.output_dir = out_dir;
	if (source_date_epoch(&req.mtime, err, sizeof(err))) {
		fprintf(stderr, "iomatrix %s: %s\n", argv[0], err);
		return 1;
	}
	/* Notes wait for the end: a failure then prints its one line alone. */
	req.notes = open_memstream(&notes, &notes_len);
	if (!req.notes) {
		fprintf(stderr, "iomatrix %s: out of memory\n", argv[0]);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	r = image_build(&req, &res, err, sizeof(err));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fclose(req.notes);
	if (r) {
		fprintf(stderr, "iomatrix %s: %s\n", argv[0], err);
		free(notes);
		return 1;
	}
	fputs(notes, stderr);
	free(notes);
	if (!opts.quiet)
		report(&res, (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	image_result_free(&res);
	return 0;
}
