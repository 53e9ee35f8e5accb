// SPDX-License-Identifier: GPL-2.0
/* The image's kernel modules and their load order; see module_closure.h. */
#include "initramfs/module_closure.h"

#include <errno.h>
#include <stdarg.h>
#include <libkmod.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/byte_buf.h"
#include "lib/errmsg.h"

#define MAX_LIST_FILE (64u << 20)

struct closure_state {
	struct kmod_ctx *kmod;
	const char *moddir;
	struct softdep_list softdeps;
	struct name_list visiting;
	struct module_closure *out;
	char *err;
	size_t errlen;
};

static int read_list_file(const char *moddir, const char *file, struct byte_buf *b, char *err,
			  size_t errlen)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", moddir, file);
	if (access(path, F_OK) && errno == ENOENT)
		return 1;
	return byte_buf_read_file(b, path, MAX_LIST_FILE, err, errlen);
}

static bool in_closure(const struct module_closure *c, const char *name)
{
	for (size_t i = 0; i < c->count; i++)
		if (!strcmp(c->mods[i].name, name))
			return true;
	return false;
}

static int append(struct closure_state *st, struct kmod_module *m, bool soft)
{
	struct module_closure *c = st->out;
	const char *path = kmod_module_get_path(m), *rel;
	/* libkmod made the tree's path absolute: compare with its copy */
	const char *tree = kmod_get_dirname(st->kmod);
	size_t dlen = strlen(tree);
	struct closure_module *mods, *cm;

	mods = realloc(c->mods, (c->count + 1) * sizeof(*mods));
	if (!mods)
		return errmsg(st->err, st->errlen, "module closure: out of memory");
	c->mods = mods;
	/* modules.dep paths are below the tree; anything else keeps its file name. */
	if (!strncmp(path, tree, dlen) && path[dlen] == '/')
		rel = path + dlen + 1;
	else
		rel = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	cm = &c->mods[c->count];
	cm->name = strdup(kmod_module_get_name(m));
	cm->host_path = strdup(path);
	cm->rel_path = strdup(rel);
	cm->soft = soft;
	if (!cm->name || !cm->host_path || !cm->rel_path) {
		free(cm->name);
		free(cm->host_path);
		free(cm->rel_path);
		return errmsg(st->err, st->errlen, "module closure: out of memory");
	}
	c->count++;
	return 0;
}

static int visit(struct closure_state *st, struct kmod_module *m, bool soft);

/* Every module an alias or name resolves to in this tree, visited. */
static int visit_softdep(struct closure_state *st, const char *alias)
{
	struct kmod_list *list = NULL, *it;
	int ret = 0;

	if (kmod_module_new_from_lookup(st->kmod, alias, &list) < 0)
		return 0; /* a softdep that resolves to nothing is skipped, as modprobe does */
	kmod_list_foreach(it, list) {
		struct kmod_module *m = kmod_module_get_module(it);

		/* No path: built in (or only known to the running kernel): nothing to load. */
		if (!ret && kmod_module_get_path(m))
			ret = visit(st, m, true);
		kmod_module_unref(m);
	}
	kmod_module_unref_list(list);
	return ret;
}

static int visit_softdeps(struct closure_state *st, const char *name, bool post)
{
	for (size_t i = 0; i < st->softdeps.count; i++) {
		const struct softdep *sd = &st->softdeps.items[i];
		const struct name_list *l = post ? &sd->post : &sd->pre;

		if (strcmp(sd->module, name))
			continue;
		for (size_t j = 0; j < l->count; j++)
			if (visit_softdep(st, l->names[j]))
				return -1;
	}
	return 0;
}

static int visit(struct closure_state *st, struct kmod_module *m, bool soft)
{
	const char *name = kmod_module_get_name(m);
	struct kmod_list *deps, *it;
	int ret = 0;

	/* Visiting: a softdep cycle back to a module on the way; it loads where it is. */
	if (in_closure(st->out, name) || name_list_has(&st->visiting, name))
		return 0;
	if (name_list_add(&st->visiting, name, strlen(name)))
		return errmsg(st->err, st->errlen, "module closure: out of memory");
	if (visit_softdeps(st, name, false))
		return -1;
	deps = kmod_module_get_dependencies(m);
	kmod_list_foreach(it, deps) {
		struct kmod_module *d = kmod_module_get_module(it);

		if (!ret)
			ret = visit(st, d, false);
		kmod_module_unref(d);
	}
	kmod_module_unref_list(deps);
	if (ret || append(st, m, soft))
		return -1;
	return visit_softdeps(st, name, true);
}

static int add_info(struct module_closure *c, char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int add_info(struct module_closure *c, char *err, size_t errlen, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (name_list_add(&c->info, line, strlen(line)))
		return errmsg(err, errlen, "module closure: out of memory");
	return 0;
}

/*
 * For a NEED_IF_MODULE entry: 1 to look the module up (need becomes
 * *need), 0 to leave it out (with a note why), -1 on error.
 */
static int decide_conditional(const struct wanted_module *w, const struct kernel_config *config,
			      struct module_closure *c, enum module_need *need, char *err,
			      size_t errlen)
{
	const char *v, *served;

	if (!config) {
		*need = NEED_IF_MODULE; /* taken if the tree has it, else a line in the report */
		return 1;
	}
	v = kernel_config_get(config, w->config);
	if (v && !strcmp(v, "m")) {
		*need = NEED_ALWAYS;
		return 1;
	}
	if (v && !strcmp(v, "y"))
		return add_info(c, err, errlen, "%s: built in (%s=y)", w->name, w->config) ? -1 : 0;
	served = w->served_by_config ? kernel_config_get(config, w->served_by_config) : NULL;
	if (served && !strcmp(served, "y"))
		return add_info(c, err, errlen, "%s: mounted by %s (%s unset, %s=y)", w->name,
				w->served_by, w->config, w->served_by_config)
			       ? -1
			       : 0;
	return add_info(c, err, errlen, "%s: not supported by this kernel (%s unset)", w->name,
			w->config)
		       ? -1
		       : 0;
}

static int note_builtin(struct closure_state *st, const char *name)
{
	if (name_list_add(&st->out->builtin, name, strlen(name)))
		return errmsg(st->err, st->errlen, "module closure: out of memory");
	return 0;
}

/* The error for a needed module that is neither in the tree nor built in. */
static int missing(struct closure_state *st, const struct wanted_module *w,
		   const struct kernel_config *config, const char *value)
{
	char hint[512];

	if (!config)
		snprintf(hint, sizeof(hint), "no kernel config found to check why");
	else if (!value)
		snprintf(hint, sizeof(hint), "%s has it unset", config->path);
	else
		snprintf(hint, sizeof(hint), "%s has %s=%s: is the tree complete?", config->path,
			 w->config, value);
	return errmsg(st->err, st->errlen,
		      "module %s (for %s) not found in %s nor built into the kernel: build the "
		      "kernel with %s=m (%s)",
		      w->name, w->why, st->moddir, w->config, hint);
}

static int want(struct closure_state *st, const struct wanted_module *w,
		const struct kernel_config *config, const struct name_list *builtin, FILE *notes)
{
	const char *value = config ? kernel_config_get(config, w->config) : NULL;
	char name[256];
	struct kmod_list *list = NULL, *it;
	enum module_need need = w->need;
	bool found = false;
	int ret = 0;

	if (w->need == NEED_IF_MODULE) {
		int r = decide_conditional(w, config, st->out, &need, st->err, st->errlen);

		if (r <= 0)
			return r;
	}
	module_name_normalise(w->name, strlen(w->name), name, sizeof(name));
	if (kmod_module_new_from_lookup(st->kmod, w->name, &list) < 0)
		list = NULL;
	kmod_list_foreach(it, list) {
		struct kmod_module *m = kmod_module_get_module(it);

		if (kmod_module_get_path(m)) {
			found = true;
			if (!ret)
				ret = visit(st, m, false);
		}
		kmod_module_unref(m);
	}
	kmod_module_unref_list(list);
	if (ret || found)
		return ret;
	/* libkmod's lookup also answers from the running kernel: ask the tree. */
	if (name_list_has(builtin, name) || (value && !strcmp(value, "y")))
		return note_builtin(st, name);
	if (need == NEED_IF_MODULE)
		return add_info(st->out, st->err, st->errlen,
				"%s: not in the tree, and no kernel config to say whether %s "
				"serves it",
				w->name, w->served_by ? w->served_by : "another module")
			       ? -1
			       : 0;
	if (need == NEED_OPTIONAL) {
		if (notes)
			fprintf(notes,
				"iomatrix image: note: module %s not in %s nor built in, left out "
				"(optional, for %s)\n",
				w->name, st->moddir, w->why);
		return 0;
	}
	return missing(st, w, config, value);
}

int module_closure_build(const char *moddir, const struct wanted_module *wanted,
			 const struct kernel_config *config, struct module_closure *out,
			 FILE *notes, char *err, size_t errlen)
{
	static const char *const no_config[] = { NULL }; /* not the host's modprobe.d */
	struct closure_state st = { .moddir = moddir, .out = out, .err = err, .errlen = errlen };
	struct byte_buf b = { 0 };
	struct name_list builtin = { 0 };
	int ret = -1, r;

	memset(out, 0, sizeof(*out));
	r = read_list_file(moddir, "modules.dep", &b, err, errlen);
	byte_buf_free(&b);
	if (r > 0)
		return errmsg(err, errlen, "%s/modules.dep not found: run depmod on the tree "
			      "(depmod -b INSTALL_MOD_PATH RELEASE)", moddir);
	if (r < 0)
		return -1;
	r = read_list_file(moddir, "modules.builtin", &b, err, errlen);
	if (r < 0 || (!r && module_builtin_parse((const char *)b.data, b.len, &builtin))) {
		if (!r)
			errmsg(err, errlen, "%s/modules.builtin: out of memory", moddir);
		goto out;
	}
	byte_buf_free(&b);
	r = read_list_file(moddir, "modules.softdep", &b, err, errlen);
	if (r < 0 || (!r && module_softdep_parse((const char *)b.data, b.len, &st.softdeps))) {
		if (!r)
			errmsg(err, errlen, "%s/modules.softdep: out of memory", moddir);
		goto out;
	}
	st.kmod = kmod_new(moddir, no_config);
	if (!st.kmod) {
		errmsg(err, errlen, "%s: libkmod cannot open the module tree", moddir);
		goto out;
	}
	kmod_set_log_priority(st.kmod, 0);
	if (kmod_load_resources(st.kmod) < 0) {
		errmsg(err, errlen, "%s: cannot load its indexes (modules.dep.bin ...): run depmod",
		       moddir);
		goto out;
	}
	for (const struct wanted_module *w = wanted; w->name; w++)
		if (want(&st, w, config, &builtin, notes))
			goto out;
	ret = 0;
out:
	byte_buf_free(&b);
	name_list_free(&builtin);
	name_list_free(&st.visiting);
	softdep_list_free(&st.softdeps);
	kmod_unref(st.kmod);
	if (ret)
		module_closure_free(out);
	return ret;
}

void module_closure_free(struct module_closure *c)
{
	for (size_t i = 0; i < c->count; i++) {
		free(c->mods[i].name);
		free(c->mods[i].host_path);
		free(c->mods[i].rel_path);
	}
	free(c->mods);
	name_list_free(&c->builtin);
	name_list_free(&c->info);
	memset(c, 0, sizeof(*c));
}
