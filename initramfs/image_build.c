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

#include "initramfs/appliance_list.h"
#include "lib/appliance_contract.h"
#include "lib/atomic_file.h"
#include "lib/byte_buf.h"
#include "lib/dirs.h"
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

static int by_path(const void *a, const void *b)
{
	return strcmp((*(const struct list_entry *const *)a)->path,
		      (*(const struct list_entry *const *)b)->path);
}

/*
 * Directories first and by path, parents before children: one the list
 * gives a mode is then never made 0755 as someone's parent first, whatever
 * the order of the lines.
 */
static int add_layout(struct image_tree *t, const struct appliance_list *l, char *err,
		      size_t errlen)
{
	const struct list_entry **dirs = calloc(l->count + 1, sizeof(*dirs));
	size_t n = 0;
	int ret = 0;

	if (!dirs)
		return errmsg(err, errlen, "%s: out of memory", l->file);
	for (size_t i = 0; i < l->count; i++)
		if (l->entries[i].kind == LIST_DIR)
			dirs[n++] = &l->entries[i];
	qsort(dirs, n, sizeof(*dirs), by_path);
	for (size_t i = 0; i < n && !ret; i++)
		ret = image_add_dir(t, dirs[i]->path, dirs[i]->mode, err, errlen);
	free(dirs);
	for (size_t i = 0; i < l->count && !ret; i++) {
		const struct list_entry *e = &l->entries[i];

		if (e->kind == LIST_NOD)
			ret = image_add_char_dev(t, e->path, e->mode, e->major, e->minor, err,
						 errlen);
	}
	return ret;
}

static int add_data(struct image_tree *t, const struct appliance_list *l, const char *data_dir,
		    char *err, size_t errlen)
{
	struct stat st;

	if (!data_dir)
		return 0;
	if (stat(data_dir, &st) || !S_ISDIR(st.st_mode))
		return errmsg(err, errlen, "--data-dir %s: not a directory", data_dir);
	for (size_t i = 0; i < l->count; i++) {
		const struct list_entry *e = &l->entries[i];
		char pattern[PATH_MAX];
		glob_t g;
		int r;

		if (e->kind != LIST_DATA)
			continue;
		snprintf(pattern, sizeof(pattern), "%s/%s", data_dir, e->path);
		r = glob(pattern, 0, NULL, &g); /* the tree sorts entries when written */
		if (r == GLOB_NOMATCH)
			continue;
		if (r)
			return errmsg(err, errlen, "%s: cannot list", pattern);
		for (size_t j = 0; j < g.gl_pathc; j++) {
			const char *base = strrchr(g.gl_pathv[j], '/') + 1;
			char path[PATH_MAX];

			snprintf(path, sizeof(path), "%s/%s", e->dir, base);
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

/* The modules, decompressed, and modules.load listing them in load order. */
static int add_modules(struct image_tree *t, const struct module_closure *c,
		       const struct appliance_list *l, const char *release, char *err,
		       size_t errlen)
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
		const char *params = appliance_list_params(l, c->mods[i].name);

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
	ret = add_text(t, IMAGE_CONF_PATH, PART_LAYOUT, &conf, err, errlen);
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
	struct stat st;
	int n;

	if (req->output) {
		/* Said before the build, and in the command's own terms. */
		if (!stat(req->output, &st) && S_ISDIR(st.st_mode))
			return errmsg(err, errlen, "%s is a directory: give a file name with -o",
				      req->output);
		n = snprintf(res->output, sizeof(res->output), "%s", req->output);
	} else {
		/* Installed, the work directory may be a cache not made yet. */
		if (dirs_make(req->output_dir, err, errlen))
			return -1;
		n = snprintf(res->output, sizeof(res->output), "%s/initramfs-%s.cpio%s%s",
			     req->output_dir, res->release, *ext ? "." : "", ext);
	}
	if (n < 0 || (size_t)n >= sizeof(res->output))
		return errmsg(err, errlen, "output path too long");
	return 0;
}

/* Everything the image holds, in a tree (not yet written). */
static int assemble(const struct image_request *req, const struct appliance_list *l,
		    const char *moddir, const struct kernel_config *cfg, struct image_tree *t,
		    struct image_result *res, char *err, size_t errlen)
{
	struct wanted_module *wanted;
	struct module_closure mods;
	struct stat st;
	int ret = -1, r;

	if (stat(req->runner, &st) || !S_ISREG(st.st_mode))
		return errmsg(err, errlen, "runner %s not found: run make (or give --runner PATH)",
			      req->runner);
	wanted = appliance_list_modules(l);
	if (!wanted)
		return errmsg(err, errlen, "%s: out of memory", l->file);
	r = module_closure_build(moddir, wanted, cfg, &mods, req->notes, err, errlen);
	free(wanted);
	if (r)
		return -1;
	res->module_count = mods.count;
	for (size_t i = 0; i < mods.count; i++)
		res->soft_count += mods.mods[i].soft;
	if (add_layout(t, l, err, errlen) ||
	    image_add_program(t, "/init", req->runner, PART_RUNNER, err, errlen) ||
	    image_add_tools(t, l, req->notes, err, errlen) ||
	    add_modules(t, &mods, l, res->release, err, errlen) ||
	    add_data(t, l, req->data_dir, err, errlen) || add_image_conf(t, res, err, errlen))
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
	struct appliance_list list = { 0 };
	char moddir[PATH_MAX], tried[2048] = "";
	bool have_cfg = false;
	int ret = -1;

	memset(res, 0, sizeof(*res));
	/* Before the kernel: a bad line is the user's to fix whatever the tree. */
	if (appliance_list_load(&list, req->list, err, errlen))
		return -1;
	if (kernel_release_pick("", req->modules_dir, req->release, res->release,
				sizeof(res->release), moddir, sizeof(moddir), err, errlen) ||
	    load_config(req, res, &cfg, &have_cfg, tried, sizeof(tried), err, errlen))
		goto out;
	if (have_cfg)
		snprintf(res->config_path, sizeof(res->config_path), "%s", cfg.path);
	if (choose_compression(req, have_cfg ? &cfg : NULL, tried, res, err, errlen) ||
	    output_path(req, res, err, errlen) ||
	    assemble(req, &list, moddir, have_cfg ? &cfg : NULL, &tree, res, err, errlen) ||
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
	appliance_list_free(&list);
	if (ret)
		image_result_free(res);
	return ret;
}

void image_result_free(struct image_result *res)
{
	name_list_free(&res->info);
	name_list_free(&res->builtin);
}
