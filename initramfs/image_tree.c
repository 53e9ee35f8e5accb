// SPDX-License-Identifier: GPL-2.0
/* The image's entries; see image_tree.h. */
#include "initramfs/image_tree.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/errmsg.h"

const char *const image_part_names[PART_COUNT] = {
	[PART_RUNNER] = "runner",   [PART_TOOLS] = "tools", [PART_LIBRARIES] = "libraries",
	[PART_MODULES] = "modules", [PART_DATA] = "data",   [PART_LAYOUT] = "layout",
};

static void entry_free(struct image_entry *e)
{
	free(e->path);
	free(e->host_path);
	free(e->data);
}

void image_tree_free(struct image_tree *t)
{
	for (size_t i = 0; i < t->count; i++)
		entry_free(&t->entries[i]);
	free(t->entries);
	memset(t, 0, sizeof(*t));
}

bool image_path_ok(const char *path)
{
	const char *p = path;

	if (*p != '/' || !p[1])
		return false;
	while (*p == '/') {
		const char *c = p + 1, *end = strchr(c, '/');
		size_t len = end ? (size_t)(end - c) : strlen(c);

		if (!len || (len == 1 && c[0] == '.') || (len == 2 && c[0] == '.' && c[1] == '.'))
			return false;
		p = c + len;
	}
	return true;
}

const struct image_entry *image_find(const struct image_tree *t, const char *path)
{
	for (size_t i = 0; i < t->count; i++)
		if (!strcmp(t->entries[i].path, path))
			return &t->entries[i];
	return NULL;
}

static bool same_entry(const struct image_entry *a, const struct image_entry *b)
{
	if (a->kind != b->kind || a->perm != b->perm)
		return false;
	switch (a->kind) {
	case ENTRY_DIR:
		return true;
	case ENTRY_CHAR_DEV:
		return a->rdev_major == b->rdev_major && a->rdev_minor == b->rdev_minor;
	case ENTRY_SYMLINK:
		return !strcmp((const char *)a->data, (const char *)b->data);
	case ENTRY_FILE:
		return a->host_path && b->host_path && !strcmp(a->host_path, b->host_path);
	}
	return false;
}

static const char *kind_name(enum image_entry_kind kind)
{
	static const char *const names[] = {
		[ENTRY_DIR] = "directory", [ENTRY_FILE] = "file",
		[ENTRY_SYMLINK] = "symlink", [ENTRY_CHAR_DEV] = "device node",
	};
	return names[kind];
}

static int ensure_parents(struct image_tree *t, const char *path, char *err, size_t errlen);

/* Takes ownership of e's allocations whatever happens. */
static int add_entry(struct image_tree *t, struct image_entry *e, char *err, size_t errlen)
{
	const struct image_entry *old;

	if (!e->path || !image_path_ok(e->path)) {
		errmsg(err, errlen, "image path '%s' is not a clean absolute path",
		       e->path ? e->path : "(out of memory)");
		goto fail;
	}
	old = image_find(t, e->path);
	if (old) {
		if (same_entry(old, e)) {
			entry_free(e);
			return 0;
		}
		errmsg(err, errlen, "image path %s: a %s there already, cannot add a %s", e->path,
		       kind_name(old->kind), kind_name(e->kind));
		goto fail;
	}
	if (ensure_parents(t, e->path, err, errlen))
		goto fail;
	if (t->count == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct image_entry *v = realloc(t->entries, cap * sizeof(*v));

		if (!v) {
			errmsg(err, errlen, "image path %s: out of memory", e->path);
			goto fail;
		}
		t->entries = v;
		t->cap = cap;
	}
	t->entries[t->count++] = *e;
	return 0;
fail:
	entry_free(e);
	return -1;
}

static int ensure_parents(struct image_tree *t, const char *path, char *err, size_t errlen)
{
	char *parent = strdup(path);
	char *slash;
	int ret = 0;

	if (!parent)
		return errmsg(err, errlen, "image path %s: out of memory", path);
	slash = strrchr(parent, '/');
	*slash = '\0';
	if (*parent) {
		const struct image_entry *old = image_find(t, parent);

		if (old && old->kind != ENTRY_DIR)
			ret = errmsg(err, errlen, "image path %s: its parent %s is a %s", path,
				     parent, kind_name(old->kind));
		else if (!old)
			ret = image_add_dir(t, parent, 0755, err, errlen);
	}
	free(parent);
	return ret;
}

int image_add_dir(struct image_tree *t, const char *path, uint32_t perm, char *err,
		  size_t errlen)
{
	struct image_entry e = {
		.path = strdup(path), .kind = ENTRY_DIR, .part = PART_LAYOUT, .perm = perm,
	};
	return add_entry(t, &e, err, errlen);
}

int image_add_host_file(struct image_tree *t, const char *path, uint32_t perm,
			enum image_part part, const char *host_path, char *err, size_t errlen)
{
	struct image_entry e = {
		.path = strdup(path), .kind = ENTRY_FILE, .part = part, .perm = perm,
		.host_path = strdup(host_path),
	};
	struct stat st;

	if (stat(host_path, &st)) {
		errmsg(err, errlen, "%s: %s", host_path, strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		errmsg(err, errlen, "%s: not a regular file", host_path);
		goto fail;
	}
	e.size = (uint64_t)st.st_size;
	if (!e.host_path) {
		errmsg(err, errlen, "%s: out of memory", host_path);
		goto fail;
	}
	return add_entry(t, &e, err, errlen);
fail:
	entry_free(&e);
	return -1;
}

int image_add_buffer(struct image_tree *t, const char *path, uint32_t perm, enum image_part part,
		     unsigned char *data, size_t size, char *err, size_t errlen)
{
	struct image_entry e = {
		.path = strdup(path), .kind = ENTRY_FILE, .part = part, .perm = perm,
		.data = data, .size = size,
	};
	return add_entry(t, &e, err, errlen);
}

int image_add_symlink(struct image_tree *t, const char *path, const char *target,
		      enum image_part part, char *err, size_t errlen)
{
	struct image_entry e = {
		.path = strdup(path), .kind = ENTRY_SYMLINK, .part = part, .perm = 0777,
		.data = (unsigned char *)strdup(target),
	};

	if (!e.data) {
		entry_free(&e);
		return errmsg(err, errlen, "image path %s: out of memory", path);
	}
	e.size = strlen(target);
	return add_entry(t, &e, err, errlen);
}

int image_add_char_dev(struct image_tree *t, const char *path, uint32_t perm, uint32_t major,
		       uint32_t minor, char *err, size_t errlen)
{
	struct image_entry e = {
		.path = strdup(path), .kind = ENTRY_CHAR_DEV, .part = PART_LAYOUT, .perm = perm,
		.rdev_major = major, .rdev_minor = minor,
	};
	return add_entry(t, &e, err, errlen);
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct image_entry *)a)->path, ((const struct image_entry *)b)->path);
}

/* Stream a host file into the archive, checking it did not change size. */
static int write_host_file(struct cpio_writer *w, const struct image_entry *e, char *err,
			   size_t errlen)
{
	static unsigned char buf[1 << 16];
	int fd = open(e->host_path, O_RDONLY | O_CLOEXEC);
	uint64_t left = e->size;
	int ret = -1;

	if (fd < 0)
		return errmsg(err, errlen, "%s: %s", e->host_path, strerror(errno));
	if (cpio_begin_file(w, e->path, e->perm, e->size, err, errlen))
		goto out;
	while (left) {
		ssize_t n = read(fd, buf, left < sizeof(buf) ? (size_t)left : sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			errmsg(err, errlen, "%s: %s", e->host_path, strerror(errno));
			goto out;
		}
		if (n == 0) {
			errmsg(err, errlen, "%s: shrank while the image was written", e->host_path);
			goto out;
		}
		if (cpio_file_data(w, buf, (size_t)n, err, errlen))
			goto out;
		left -= (uint64_t)n;
	}
	ret = cpio_end_file(w, err, errlen);
out:
	close(fd);
	return ret;
}

static int write_entry(struct cpio_writer *w, const struct image_entry *e, char *err,
		       size_t errlen)
{
	switch (e->kind) {
	case ENTRY_DIR:
		return cpio_write_dir(w, e->path, e->perm, err, errlen);
	case ENTRY_SYMLINK:
		return cpio_write_symlink(w, e->path, (const char *)e->data, err, errlen);
	case ENTRY_CHAR_DEV:
		return cpio_write_node(w, e->path, S_IFCHR, e->perm, e->rdev_major, e->rdev_minor,
				       err, errlen);
	case ENTRY_FILE:
		if (e->host_path)
			return write_host_file(w, e, err, errlen);
		return cpio_write_file(w, e->path, e->perm, e->data, e->size, err, errlen);
	}
	return errmsg(err, errlen, "image path %s: unknown entry kind", e->path);
}

int image_tree_write(struct image_tree *t, struct cpio_writer *w, image_part_fn on_part,
		     void *part_ctx, char *err, size_t errlen)
{
	qsort(t->entries, t->count, sizeof(*t->entries), by_path);
	for (size_t i = 0; i < t->count; i++) {
		if (on_part && on_part(part_ctx, t->entries[i].part, err, errlen))
			return -1;
		if (write_entry(w, &t->entries[i], err, errlen))
			return -1;
	}
	if (on_part && on_part(part_ctx, PART_LAYOUT, err, errlen))
		return -1;
	return cpio_write_trailer(w, err, errlen);
}
