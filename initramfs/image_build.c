// SPDX-License-Identifier: GPL-2.0
/* Assembling and writing the image; see image_build.h. */
#include "initramfs/image_build.h"

#include <errno.h>
#include <glob.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/atomic_file.h"
#include "lib/byte_buf.h"
#include "initramfs/cpio_writer.h"
#include "lib/errmsg.h"
#include "initramfs/image_tools.h"
#include "initramfs/kernel_config.h"
#include "initramfs/kernel_release.h"
#include "initramfs/library_closure.h"
#include "initramfs/module_closure.h"
#include "initramfs/module_file.h"

/* Raw module bytes above which the tree was likely installed unstripped. */
#define UNSTRIPPED_MODULES (64u << 20)

/* Best first: the first the kernel can unpack is the default. */
static const enum compression compression_preference[] = { COMP_ZSTD, COMP_XZ, COMP_GZIP };

/* Empty directories PID 1 mounts on or writes to. */
static const struct {
	const char *path;
	uint32_t perm;
} layout_dirs[] = {
	{ "/proc", 0555 }, { "/sys", 0555 }, { "/dev", 0755 },		{ "/run", 0755 },
	{ "/tmp", 01777 }, { "/mnt", 0755 }, { "/etc/iomatrix", 0755 },
};

/* Device nodes in the archive, so the console works before devtmpfs is mounted. */
static const struct {
	const char *path;
	uint32_t perm, major, minor;
} layout_nodes[] = {
	{ "/dev/console", 0600, 5, 1 },
	{ "/dev/null", 0666, 1, 3 },
};

/* Symlinks every distribution has and the tools expect. */
static const struct {
	const char *path;
	const char *target;
} layout_links[] = {
	{ "/etc/mtab", "/proc/self/mounts" }, /* mke2fs, mkfs.btrfs: is it mounted? */
};

/* Project files the runner reads: glob below the data dir -> image dir. */
static const struct {
	const char *pattern;
	const char *image_dir;
} data_files[] = {
	{ "matrix/*.matrix", "/etc/iomatrix/matrix" },
	{ "configs/jobs/*.fio", "/etc/iomatrix/jobs" },
};

static int add_layout(struct image_tree *t, char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof(layout_dirs) / sizeof(layout_dirs[0]); i++)
		if (image_add_dir(t, layout_dirs[i].path, layout_dirs[i].perm, err, errlen))
			return -1;
	for (size_t i = 0; i < sizeof(layout_nodes) / sizeof(layout_nodes[0]); i++)
		if (image_add_char_dev(t, layout_nodes[i].path, layout_nodes[i].perm,
				       layout_nodes[i].major, layout_nodes[i].minor, err, errlen))
			return -1;
	for (size_t i = 0; i < sizeof(layout_links) / sizeof(layout_links[0]); i++)
		if (image_add_symlink(t, layout_links[i].path, layout_links[i].target, PART_LAYOUT,
				      err, errlen))
			return -1;
	return 0;
}

static int add_data(struct image_tree *t, const char *data_dir, char *err, size_t errlen)
{
	struct stat st;

	if (!data_dir)
		return 0;
	if (stat(data_dir, &st) || !S_ISDIR(st.st_mode))
		return errmsg(err, errlen, "--data-dir %s: not a directory", data_dir);
	for (size_t i = 0; i < sizeof(data_files) / sizeof(data_files[0]); i++) {
		char pattern[PATH_MAX];
		glob_t g;
		int r;

		snprintf(pattern, sizeof(pattern), "%s/%s", data_dir, data_files[i].pattern);
		r = glob(pattern, 0, NULL, &g); /* the tree sorts entries when written */
		if (r == GLOB_NOMATCH)
			continue;
		if (r)
			return errmsg(err, errlen, "%s: cannot list", pattern);
		for (size_t j = 0; j < g.gl_pathc; j++) {
			const char *base = strrchr(g.gl_pathv[j], '/') + 1;
			char path[PATH_MAX];

			snprintf(path, sizeof(path), "%s/%s", data_files[i].image_dir, base);
			if (image_add_host_file(t, path, 0644, PART_DATA, g.gl_pathv[j], err,
						errlen)) {
				globfree(&g);
				return -1;
			}
		}
		globfree(&g);
	}
	return 0;
}

static int add_text(struct image_tree *t, const char *path, enum image_part part,
		    const struct byte_buf *text, char *err, size_t errlen)
{
	unsigned char *copy = malloc(text->len ? text->len : 1);

	if (!copy)
		return errmsg(err, errlen, "%s: out of memory", path);
	if (text->len)
		memcpy(copy, text->data, text->len);
	return image_add_buffer(t, path, 0644, part, copy, text->len, err, errlen);
}

static int appendf(struct byte_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int appendf(struct byte_buf *b, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(line))
		return -1;
	return byte_buf_append(b, line, (size_t)n);
}

/*
 * Parameters given to a module when PID 1 loads it. null_blk would
 * otherwise make a 250 GiB nullb0 at load time, which the appliance would
 * list as a disk; a matrix that wants null devices makes them itself.
 */
static const struct {
	const char *name;
	const char *params;
} module_params[] = {
	{ "null_blk", "nr_devices=0" },
};

static const char *params_of(const char *name)
{
	for (size_t i = 0; i < sizeof(module_params) / sizeof(module_params[0]); i++)
		if (!strcmp(module_params[i].name, name))
			return module_params[i].params;
	return NULL;
}

/* The modules, decompressed, and modules.load listing them in load order. */
static int add_modules(struct image_tree *t, const struct module_closure *c,
		       const char *release, char *err, size_t errlen)
{
	struct byte_buf list = { 0 };
	char path[PATH_MAX];
	int ret = -1;

	if (appendf(&list, "# Kernel modules for %s in load order, dependencies first.\n"
			   "# One a line: NAME PATH [PARAMETERS]. Written by iomatrix image.\n",
		    release))
		goto nomem;
	for (size_t i = 0; i < c->builtin.count; i++)
		if (appendf(&list, "# %s: built into the kernel\n", c->builtin.names[i]))
			goto nomem;
	for (size_t i = 0; i < c->count; i++) {
		char plain[PATH_MAX];

		if (module_plain_name(c->mods[i].rel_path, plain, sizeof(plain))) {
			errmsg(err, errlen, "%s: not a kernel module file name",
			       c->mods[i].host_path);
			goto out;
		}
		if (snprintf(path, sizeof(path), "/lib/modules/%s/%s", release, plain) >=
		    (int)sizeof(path)) {
			errmsg(err, errlen, "%s: path too long", plain);
			goto out;
		}
		if (image_add_module(t, path, c->mods[i].host_path, err, errlen))
			goto out;
		const char *params = params_of(c->mods[i].name);

		if (appendf(&list, "%s %s%s%s\n", c->mods[i].name, path, params ? " " : "",
			    params ? params : ""))
			goto nomem;
	}
	snprintf(path, sizeof(path), "/lib/modules/%s/modules.load", release);
	ret = add_text(t, path, PART_MODULES, &list, err, errlen);
	goto out;
nomem:
	errmsg(err, errlen, "modules.load: out of memory");
out:
	byte_buf_free(&list);
	return ret;
}

static int add_image_conf(struct image_tree *t, const struct image_result *res, char *err,
			  size_t errlen)
{
	struct byte_buf conf = { 0 };
	int ret;

	if (appendf(&conf, "release=%s\ncompress=%s\nmodules=%zu\nbuilt_by=iomatrix image\n",
		    res->release, res->compression->name, res->module_count)) {
		byte_buf_free(&conf);
		return errmsg(err, errlen, "image.conf: out of memory");
	}
	ret = add_text(t, "/etc/iomatrix/image.conf", PART_LAYOUT, &conf, err, errlen);
	byte_buf_free(&conf);
	return ret;
}

/* Is the kernel able to unpack this? (No config: we cannot tell; assume so.) */
static bool kernel_unpacks(const struct kernel_config *cfg, const struct compression_kind *k)
{
	const char *v;

	if (!cfg || !k->rd_config)
		return true;
	v = kernel_config_get(cfg, k->rd_config);
	return v && !strcmp(v, "y");
}

static int choose_compression(const struct image_request *req, const struct kernel_config *cfg,
			      const char *tried, struct image_result *res, char *err,
			      size_t errlen)
{
	if (req->compress) {
		res->compression = compression_by_name(req->compress);
		if (!res->compression)
			return errmsg(err, errlen,
				      "--compress %s: unknown; choose zstd, xz, gzip or none",
				      req->compress);
		if (!kernel_unpacks(cfg, res->compression))
			return errmsg(err, errlen,
				      "--compress %s: the kernel cannot unpack it (%s is not set "
				      "in %s); choose another",
				      req->compress, res->compression->rd_config, cfg->path);
		return 0;
	}
	if (!cfg) {
		fprintf(req->notes,
			"iomatrix image: note: no kernel config found (%s): using gzip, which "
			"nearly every kernel unpacks; give --kernel-config FILE to choose better\n",
			tried);
		res->compression = &compression_kinds[COMP_GZIP];
		return 0;
	}
	for (size_t i = 0; i < sizeof(compression_preference) / sizeof(compression_preference[0]);
	     i++) {
		const struct compression_kind *k = &compression_kinds[compression_preference[i]];

		if (kernel_unpacks(cfg, k)) {
			res->compression = k;
			return 0;
		}
	}
	fprintf(req->notes,
		"iomatrix image: note: %s enables none of CONFIG_RD_ZSTD/XZ/GZIP: the image is "
		"not compressed\n",
		cfg->path);
	res->compression = &compression_kinds[COMP_NONE];
	return 0;
}

static int load_config(const struct image_request *req, const struct image_result *res,
		       struct kernel_config *cfg, bool *have, char *tried, size_t triedlen,
		       char *err, size_t errlen)
{
	char path[PATH_MAX];

	*have = false;
	if (req->kernel_config)
		snprintf(path, sizeof(path), "%s", req->kernel_config);
	else if (kernel_config_find(req->modules_dir, res->release, path, sizeof(path), tried,
				    triedlen))
		return 0;
	if (kernel_config_load(cfg, path, err, errlen))
		return -1;
	*have = true;
	return 0;
}

static int output_path(const struct image_request *req, struct image_result *res, char *err,
		       size_t errlen)
{
	const char *ext = res->compression->ext;
	int n;

	if (req->output) {
		n = snprintf(res->output, sizeof(res->output), "%s", req->output);
	} else {
		if (mkdir(req->output_dir, 0755) && errno != EEXIST)
			return errmsg(err, errlen, "cannot create %s: %s", req->output_dir,
				      strerror(errno));
		n = snprintf(res->output, sizeof(res->output), "%s/initramfs-%s.cpio%s%s",
			     req->output_dir, res->release, *ext ? "." : "", ext);
	}
	if (n < 0 || (size_t)n >= sizeof(res->output))
		return errmsg(err, errlen, "output path too long");
	return 0;
}

/* Everything the image holds, in a tree (not yet written). */
static int assemble(const struct image_request *req, const char *moddir,
		    const struct kernel_config *cfg, struct image_tree *t,
		    struct image_result *res, char *err, size_t errlen)
{
	struct module_closure mods;
	struct stat st;
	int ret = -1;

	if (stat(req->runner, &st) || !S_ISREG(st.st_mode))
		return errmsg(err, errlen, "runner %s not found: run make (or give --runner PATH)",
			      req->runner);
	if (module_closure_build(moddir, image_modules, cfg, &mods, req->notes, err, errlen))
		return -1;
	res->module_count = mods.count;
	for (size_t i = 0; i < mods.count; i++)
		res->soft_count += mods.mods[i].soft;
	if (add_layout(t, err, errlen) ||
	    image_add_program(t, "/init", req->runner, PART_RUNNER, err, errlen) ||
	    image_add_tools(t, req->notes, err, errlen) ||
	    add_modules(t, &mods, res->release, err, errlen) ||
	    add_data(t, req->data_dir, err, errlen) || add_image_conf(t, res, err, errlen))
		goto out;
	ret = 0;
out:
	/* The report tells what the closure found out; the result keeps it. */
	res->info = mods.info;
	res->builtin = mods.builtin;
	mods.info = (struct name_list){ 0 };
	mods.builtin = (struct name_list){ 0 };
	module_closure_free(&mods);
	return ret;
}

static int write_image(const struct image_request *req, struct image_tree *t,
		       struct image_result *res, char *err, size_t errlen)
{
	struct atomic_file af;
	struct compressor *comp;
	struct cpio_writer w;

	if (atomic_file_open(&af, res->output, err, errlen))
		return -1;
	comp = compressor_new(res->compression->id, af.fd, err, errlen);
	if (!comp)
		goto fail;
	size_meter_init(&res->sizes, comp);
	size_meter_count_files(&res->sizes, t);
	cpio_writer_init(&w, size_meter_write, &res->sizes, req->mtime);
	if (image_tree_write(t, &w, size_meter_part, &res->sizes, err, errlen) ||
	    size_meter_finish(&res->sizes, err, errlen))
		goto fail;
	compressor_free(comp);
	res->sizes.comp = NULL;
	return atomic_file_commit(&af, err, errlen);
fail:
	compressor_free(comp);
	res->sizes.comp = NULL;
	atomic_file_abort(&af);
	return -1;
}

int image_build(const struct image_request *req, struct image_result *res, char *err,
		size_t errlen)
{
	struct kernel_config cfg = { 0 };
	struct image_tree tree = { 0 };
	char moddir[PATH_MAX], tried[2048] = "";
	bool have_cfg;
	int ret = -1;

	memset(res, 0, sizeof(*res));
	if (kernel_release_pick("", req->modules_dir, req->release, res->release,
				sizeof(res->release), moddir, sizeof(moddir), err, errlen) ||
	    load_config(req, res, &cfg, &have_cfg, tried, sizeof(tried), err, errlen))
		return -1;
	if (have_cfg)
		snprintf(res->config_path, sizeof(res->config_path), "%s", cfg.path);
	if (choose_compression(req, have_cfg ? &cfg : NULL, tried, res, err, errlen) ||
	    output_path(req, res, err, errlen) ||
	    assemble(req, moddir, have_cfg ? &cfg : NULL, &tree, res, err, errlen) ||
	    write_image(req, &tree, res, err, errlen))
		goto out;
	if (res->sizes.raw[PART_MODULES] > UNSTRIPPED_MODULES)
		fprintf(req->notes,
			"iomatrix image: note: the modules are %llu MiB raw: install them with "
			"'make modules_install INSTALL_MOD_STRIP=1' to drop debug info\n",
			(unsigned long long)(res->sizes.raw[PART_MODULES] >> 20));
	ret = 0;
out:
	image_tree_free(&tree);
	kernel_config_free(&cfg);
	if (ret)
		image_result_free(res);
	return ret;
}

void image_result_free(struct image_result *res)
{
	name_list_free(&res->info);
	name_list_free(&res->builtin);
}
