// SPDX-License-Identifier: GPL-2.0
/* Fuzz the image's list reader: what it accepts must be what the builder can take. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "initramfs/appliance_list.h"
#include "initramfs/image_tree.h"
#include "lib/errmsg.h"

static void check_entry(const struct list_entry *e)
{
	switch (e->kind) {
	case LIST_DIR:
	case LIST_NOD:
	case LIST_SLINK:
	case LIST_FILE:
	case LIST_TOOL:
		if (!image_path_ok(e->path) || e->mode > 07777)
			abort();
		break;
	case LIST_MODULE:
		if (!e->name || !e->config || !e->why || strncmp(e->config, "CONFIG_", 7))
			abort();
		break;
	case LIST_OPTIONS:
		if (!e->name || !e->params || strchr(e->name, '-'))
			abort();
		break;
	case LIST_DATA:
		if (!e->path || e->path[0] == '/' || !image_path_ok(e->dir))
			abort();
		break;
	}
	if ((e->kind == LIST_SLINK && !*e->target) || (e->kind == LIST_FILE && !*e->host) ||
	    (e->kind == LIST_TOOL && (!e->package || !e->why)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct appliance_list l;
	struct wanted_module *w;
	char err[ERRMSG_LEN];
	size_t modules = 0, n = 0;

	if (appliance_list_parse(&l, "fuzz/x.list", (const char *)data, size, err, sizeof(err))) {
		/* every refusal says where */
		if (strncmp(err, "fuzz/x.list:", 12))
			abort();
		return 0;
	}
	for (size_t i = 0; i < l.count; i++) {
		check_entry(&l.entries[i]);
		modules += l.entries[i].kind == LIST_MODULE;
	}
	w = appliance_list_modules(&l);
	if (w) {
		while (w[n].name)
			n++;
		if (n != modules)
			abort();
		free(w);
	}
	appliance_list_free(&l);
	return 0;
}
