// SPDX-License-Identifier: GPL-2.0
/* Allowed and usable disks; see disk_select.h. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/appliance_contract.h"
#include "runner/console.h"
#include "runner/setup/disk_select.h"
#include "runner/setup/wipe.h"

#define BY_PATH_DIR "/dev/disk/by-path/"

/* Why an allowed disk is not used (the first reason stays). */
__attribute__((format(printf, 2, 3))) static void refuse(struct disk_choice *c, const char *fmt,
							 ...)
{
	va_list ap;

	if (c->refused[0])
		return;
	va_start(ap, fmt);
	vsnprintf(c->refused, sizeof(c->refused), fmt, ap);
	va_end(ap);
}

/* "0000:00:04.0": a PCI address, as sysfs names PCI devices. */
static bool is_pci_address(const char *s, size_t n)
{
	static const char shape[] = "hhhh:hh:hh.h";

	if (n != sizeof(shape) - 1)
		return false;
	for (size_t i = 0; i < n; i++)
		if (shape[i] == 'h' ? !isxdigit((unsigned char)s[i]) : s[i] != shape[i])
			return false;
	return true;
}

/* "0:0:0:0": a SCSI address (host:channel:target:lun). */
static bool is_scsi_address(const char *s, size_t n)
{
	int colons = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == ':')
			colons++;
		else if (!isdigit((unsigned char)s[i]))
			return false;
	}
	return colons == 3 && n >= 7;
}

void disk_by_path(const char *sysfs_root, const char *name, char *out, size_t len)
{
	char link[512], target[512], pci[16] = "", scsi[32] = "";
	ssize_t n;

	out[0] = '\0';
	snprintf(link, sizeof(link), "%s/block/%s", sysfs_root, name);
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return;
	target[n] = '\0';
	for (char *c = target, *slash; c; c = slash ? slash + 1 : NULL) {
		size_t k;

		slash = strchr(c, '/');
		k = slash ? (size_t)(slash - c) : strlen(c);
		if (is_pci_address(c, k))
			snprintf(pci, sizeof(pci), "%.*s", (int)k, c);
		else if (is_scsi_address(c, k) && k < sizeof(scsi))
			snprintf(scsi, sizeof(scsi), "%.*s", (int)k, c);
	}
	if (!pci[0])
		return;
	if (!strncmp(name, "nvme", 4) && strrchr(name, 'n') > name + 4)
		snprintf(out, len, "pci-%s-nvme-%s", pci, strrchr(name, 'n') + 1);
	else if (scsi[0])
		snprintf(out, len, "pci-%s-scsi-%s", pci, scsi);
	else
		snprintf(out, len, "pci-%s", pci);
}

static bool word_matches(const struct disk_choice *c, const char *w)
{
	if (!strcmp(w, c->disk.name) || !strcmp(w, c->path))
		return true;
	if (c->disk.serial[0] && !strcmp(w, c->disk.serial))
		return true;
	if (!strncmp(w, BY_PATH_DIR, strlen(BY_PATH_DIR)))
		w += strlen(BY_PATH_DIR);
	return c->by_path[0] && !strcmp(w, c->by_path);
}

/* "vda (serial iomatrix-disk0, pci-0000:00:04.0), vdb (...)" for messages. */
static void list_disks(const struct disk_selection *s, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < s->count && used < len; i++) {
		const struct disk_choice *c = &s->all[i];

		used += (size_t)snprintf(buf + used, len - used, "%s%s (serial %s%s%s)",
					 i ? ", " : "", c->disk.name,
					 c->disk.serial[0] ? c->disk.serial : "none",
					 c->by_path[0] ? ", " : "", c->by_path);
	}
	if (!s->count)
		snprintf(buf, len, "none");
}

/* Calls fn for each comma-separated word of list; stops at a nonzero return. */
static int each_word(const char *list, int (*fn)(void *ctx, const char *word), void *ctx)
{
	char word[256];

	for (const char *p = list; p && *p;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		int ret;

		if (n && n < sizeof(word)) {
			memcpy(word, p, n);
			word[n] = '\0';
			ret = fn(ctx, word);
			if (ret)
				return ret;
		}
		p = comma ? comma + 1 : NULL;
	}
	return 0;
}

struct allow_ctx {
	struct disk_selection *s;
	int next_order;
	char *err;
	size_t errlen;
};

static int allow_word(void *arg, const char *word)
{
	struct allow_ctx *a = arg;
	struct disk_choice *hit = NULL;
	char known[256];
	int hits = 0;

	for (size_t i = 0; i < a->s->count; i++)
		if (word_matches(&a->s->all[i], word)) {
			hit = &a->s->all[i];
			hits++;
		}
	if (hits == 1) {
		if (!hit->allowed) {
			hit->allowed = true;
			hit->order = a->next_order++;
		}
		return 0;
	}
	list_disks(a->s, known, sizeof(known));
	snprintf(a->err, a->errlen, "iomatrix.disks: '%s' matches %s disk (disks: %s)", word,
		 hits ? "more than one" : "no", known);
	return -1;
}

static int refuse_results(void *arg, const char *word)
{
	struct disk_selection *s = arg;

	for (size_t i = 0; i < s->count; i++)
		if (word_matches(&s->all[i], word))
			refuse(&s->all[i], "holds the results log (iomatrix.results)");
	return 0;
}

const char *disk_choice_id(const struct disk_choice *c)
{
	if (c->disk.serial[0])
		return c->disk.serial;
	return c->by_path[0] ? c->by_path : c->disk.name;
}

struct own_ctx {
	const struct disk_choice *c;
	bool found;
};

static int own_word(void *arg, const char *word)
{
	struct own_ctx *o = arg;

	o->found = o->found || word_matches(o->c, word);
	return o->found;
}

/* Is c one of the disks this run used on an earlier boot (own: their ids)? */
static bool is_own(const struct disk_choice *c, const char *own)
{
	struct own_ctx o = {c, false};

	each_word(own, own_word, &o);
	return o.found;
}

int disk_select(const struct disk_list *found, const char *sysfs_root, const char *words,
		const char *results, struct disk_selection *out, char *err, size_t errlen)
{
	struct allow_ctx a = {out, 0, err, errlen};

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < found->count && i < DISKS_MAX; i++) {
		struct disk_choice *c = &out->all[out->count++];

		c->disk = found->d[i];
		snprintf(c->path, sizeof(c->path), "/dev/%.31s", found->d[i].name);
		disk_by_path(sysfs_root, c->disk.name, c->by_path, sizeof(c->by_path));
	}
	if (words && *words) {
		if (each_word(words, allow_word, &a))
			return -1;
	} else {
		size_t k = strlen(SCRATCH_DISK_SERIAL);

		for (size_t i = 0; i < out->count; i++)
			if (!strncmp(out->all[i].disk.serial, SCRATCH_DISK_SERIAL, k)) {
				out->all[i].allowed = true;
				out->all[i].order = a.next_order++;
			}
	}
	each_word(results, refuse_results, out);
	for (size_t i = 0; i < out->count; i++) {
		struct disk_choice *c = &out->all[i];

		if (!c->allowed || c->refused[0])
			continue;
		if (!strcmp(c->disk.transport, "md") || !strcmp(c->disk.transport, "dm"))
			refuse(c, "an %s device cannot be an array member", c->disk.transport);
		else if (c->disk.read_only)
			refuse(c, "read-only");
		else if (!c->disk.size_bytes)
			refuse(c, "no medium (size 0)");
	}
	return 0;
}

static int by_order(const void *a, const void *b)
{
	const struct disk_choice *x = *(struct disk_choice *const *)a;
	const struct disk_choice *y = *(struct disk_choice *const *)b;

	return (x->order > y->order) - (x->order < y->order);
}

void disk_select_check(struct disk_selection *s, bool wipe, const char *own)
{
	s->nuse = 0;
	for (size_t i = 0; i < s->count; i++) {
		struct disk_choice *c = &s->all[i];
		char err[DISK_SELECT_ERR_LEN], line[STEP_ERROR_LINE_MAX];
		const char *found = NULL;
		struct step_error e;
		uint64_t size;

		if (!c->allowed || c->refused[0])
			continue;
		if (wipe_probe(c->path, &found, &size, err, sizeof(err))) {
			refuse(c, "%s", err);
			continue;
		}
		c->own = found && is_own(c, own);
		if (found && !wipe && !c->own) {
			refuse(c, "holds data: %s (iomatrix.wipe=1 allows destroying it)", found);
			continue;
		}
		if (found) {
			if (c->own)
				con_say("disk %s: wiping this run's leftovers from an earlier boot "
					"(%s)",
					c->disk.name, found);
			else
				con_say("disk %s: destroying the %s on it (iomatrix.wipe=1)",
					c->disk.name, found);
			if (wipe_device(c->path, "wipe", &e)) {
				refuse(c, "%s", step_error_line(&e, line, sizeof(line)));
				continue;
			}
			c->wiped = found;
			if (wipe_probe(c->path, &found, &size, err, sizeof(err)) || found) {
				refuse(c, "still holds a %s after wiping", found ? found : err);
				continue;
			}
		}
		s->use[s->nuse++] = c;
	}
	qsort(s->use, s->nuse, sizeof(s->use[0]), by_order);
}
