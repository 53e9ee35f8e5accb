// SPDX-License-Identifier: GPL-2.0
/* Programs and their shared libraries; see library_closure.h. */
#include "initramfs/library_closure.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/byte_buf.h"
#include "initramfs/elf_deps.h"
#include "lib/errmsg.h"

#define MAX_ELF_SIZE ((size_t)1 << 30)

/*
 * The default directories of glibc's loader on Debian's multiarch layout
 * (ld.so --help lists them), then the lib64 layout of other distributions.
 * /etc/ld.so.conf is not read: the image has no ld.so.cache, so a library
 * only found through it would not be found in the image either.
 */
const char *const library_default_dirs[] = {
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
	"/lib64", "/usr/lib64",
	"/lib", "/usr/lib",
	NULL,
};

/* One object to scan: where it is on the host and where in the image. */
struct pending {
	char *host;
	char *image;
};

struct walk {
	struct pending *queue;
	size_t count, cap, next;
	char *interp_soname; /* the loader satisfies its own name */
};

static void walk_free(struct walk *w)
{
	for (size_t i = 0; i < w->count; i++) {
		free(w->queue[i].host);
		free(w->queue[i].image);
	}
	free(w->queue);
	free(w->interp_soname);
}

static int push(struct walk *w, const char *host, const char *image, char *err, size_t errlen)
{
	if (w->count == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 16;
		struct pending *q = realloc(w->queue, cap * sizeof(*q));

		if (!q)
			return errmsg(err, errlen, "%s: out of memory", host);
		w->queue = q;
		w->cap = cap;
	}
	w->queue[w->count].host = strdup(host);
	w->queue[w->count].image = strdup(image);
	if (!w->queue[w->count].host || !w->queue[w->count].image) {
		free(w->queue[w->count].host);
		free(w->queue[w->count].image);
		return errmsg(err, errlen, "%s: out of memory", host);
	}
	w->count++;
	return 0;
}

static int read_deps(const char *path, struct elf_deps *deps, char *err, size_t errlen)
{
	struct byte_buf b = { 0 };
	int ret;

	if (byte_buf_read_file(&b, path, MAX_ELF_SIZE, err, errlen))
		return -1;
	ret = elf_deps_parse(b.data, b.len, path, deps, err, errlen);
	byte_buf_free(&b);
	return ret;
}

/* Replace $ORIGIN / ${ORIGIN} in dir by origin. */
static int expand_origin(const char *dir, const char *origin, char *out, size_t outlen)
{
	size_t n = 0;

	while (*dir) {
		size_t skip = !strncmp(dir, "$ORIGIN", 7) ? 7 : !strncmp(dir, "${ORIGIN}", 9) ? 9 : 0;
		const char *add = skip ? origin : dir;
		size_t addlen = skip ? strlen(origin) : 1;

		if (n + addlen >= outlen)
			return -1;
		memcpy(out + n, add, addlen);
		n += addlen;
		dir += skip ? skip : 1;
	}
	out[n] = '\0';
	return 0;
}

static void dir_of(const char *path, char *out, size_t outlen)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) : 0;

	if (n >= outlen)
		n = outlen - 1;
	memcpy(out, path, n);
	out[n] = '\0';
	if (!n && outlen > 1)
		strcpy(out, slash ? "/" : ".");
}

/* Is candidate a library a user of this class and machine can load? */
static int usable(const char *candidate, const struct elf_deps *user)
{
	struct elf_deps d;
	char ignored[ERRMSG_LEN];
	int ok;

	if (access(candidate, R_OK))
		return 0;
	if (read_deps(candidate, &d, ignored, sizeof(ignored)))
		return 0;
	ok = d.machine == user->machine && d.elf_class == user->elf_class;
	elf_deps_free(&d);
	return ok;
}

/*
 * Find soname for an object at obj_host (image path obj_image). On success
 * host and image hold the library's two paths.
 */
static int find_library(const char *soname, const struct pending *obj,
			const struct elf_deps *deps, char *host, char *image, size_t len)
{
	char host_origin[PATH_MAX], image_origin[PATH_MAX];

	if (strchr(soname, '/')) {
		/* A path: used as it is, relative ones against the working directory. */
		snprintf(host, len, "%s", soname);
		snprintf(image, len, "%s", soname);
		return soname[0] == '/' && usable(host, deps) ? 0 : -1;
	}
	dir_of(obj->host, host_origin, sizeof(host_origin));
	dir_of(obj->image, image_origin, sizeof(image_origin));
	if (deps->search_path) {
		char *copy = strdup(deps->search_path), *save = NULL;

		if (!copy)
			return -1;
		for (char *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
			char hdir[PATH_MAX], idir[PATH_MAX];

			if (expand_origin(dir, host_origin, hdir, sizeof(hdir)) ||
			    expand_origin(dir, image_origin, idir, sizeof(idir)) || idir[0] != '/')
				continue;
			if (snprintf(host, len, "%s/%s", hdir, soname) >= (int)len ||
			    snprintf(image, len, "%s/%s", idir, soname) >= (int)len)
				continue;
			if (usable(host, deps)) {
				free(copy);
				return 0;
			}
		}
		free(copy);
	}
	for (int i = 0; library_default_dirs[i]; i++) {
		if (snprintf(host, len, "%s/%s", library_default_dirs[i], soname) >= (int)len)
			continue;
		snprintf(image, len, "%s", host);
		if (usable(host, deps))
			return 0;
	}
	return -1;
}

static int add_needed(struct image_tree *t, struct walk *w, const struct pending *obj,
		      const struct elf_deps *deps, const char *program, char *err, size_t errlen)
{
	for (size_t i = 0; i < deps->needed_count; i++) {
		const char *soname = deps->needed[i];
		char host[PATH_MAX], image[PATH_MAX];

		if (w->interp_soname && !strcmp(soname, w->interp_soname))
			continue;
		if (find_library(soname, obj, deps, host, image, sizeof(host)))
			return errmsg(err, errlen,
				      "%s: library %s (needed by %s) not found in its run path or "
				      "the loader's directories (%s, ...): reinstall the package "
				      "that provides it",
				      program, soname, obj->host, library_default_dirs[0]);
		if (image_find(t, image))
			continue; /* already added, and scanned or queued */
		if (image_add_host_file(t, image, 0755, PART_LIBRARIES, host, err, errlen) ||
		    push(w, host, image, err, errlen))
			return -1;
	}
	return 0;
}

static int add_interp(struct image_tree *t, struct walk *w, const struct elf_deps *deps,
		      const char *program, char *err, size_t errlen)
{
	const char *base;

	if (!deps->interp)
		return 0;
	if (deps->interp[0] != '/')
		return errmsg(err, errlen, "%s: interpreter %s is not an absolute path", program,
			      deps->interp);
	if (access(deps->interp, R_OK))
		return errmsg(err, errlen, "%s: interpreter %s: %s", program, deps->interp,
			      strerror(errno));
	base = strrchr(deps->interp, '/') + 1;
	if (!w->interp_soname) {
		w->interp_soname = strdup(base);
		if (!w->interp_soname)
			return errmsg(err, errlen, "%s: out of memory", program);
	}
	return image_add_host_file(t, deps->interp, 0755, PART_LIBRARIES, deps->interp, err,
				   errlen);
}

/* Does the file start with "#!"? (Its interpreter is the image's business.) */
static bool is_script(const char *path)
{
	char head[2];
	FILE *f = fopen(path, "rb");
	bool script = f && fread(head, 1, 2, f) == 2 && head[0] == '#' && head[1] == '!';

	if (f)
		fclose(f);
	return script;
}

int image_add_program(struct image_tree *t, const char *image_path, const char *host_path,
		      enum image_part part, char *err, size_t errlen)
{
	struct walk w = { 0 };
	int ret = -1;

	if (image_add_host_file(t, image_path, 0755, part, host_path, err, errlen))
		return -1;
	if (is_script(host_path))
		return 0;
	if (push(&w, host_path, image_path, err, errlen))
		goto out;
	for (; w.next < w.count; w.next++) {
		struct pending obj = w.queue[w.next];
		struct elf_deps deps;
		int failed;

		if (read_deps(obj.host, &deps, err, errlen))
			goto out;
		failed = add_interp(t, &w, &deps, host_path, err, errlen) ||
			 add_needed(t, &w, &obj, &deps, host_path, err, errlen);
		elf_deps_free(&deps);
		if (failed)
			goto out;
	}
	ret = 0;
out:
	walk_free(&w);
	return ret;
}
