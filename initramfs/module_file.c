// SPDX-License-Identifier: GPL-2.0
/* Kernel module files into the image; see module_file.h. */
#include "initramfs/module_file.h"

#include <stdio.h>
#include <string.h>

#include "lib/byte_buf.h"
#include "lib/decompress.h"
#include "lib/errmsg.h"

#define MAX_MODULE_SIZE ((size_t)1 << 30)

static const struct {
	const char *suffix;
	enum compression id;
} module_suffixes[] = {
	{ ".ko", COMP_NONE },
	{ ".ko.xz", COMP_XZ },
	{ ".ko.zst", COMP_ZSTD },
	{ ".ko.gz", COMP_GZIP },
};

/* The entry of the table rel_path ends with, or -1. */
static int suffix_of(const char *path)
{
	size_t len = strlen(path);

	for (size_t i = 0; i < sizeof(module_suffixes) / sizeof(module_suffixes[0]); i++) {
		size_t slen = strlen(module_suffixes[i].suffix);

		if (len > slen && !strcmp(path + len - slen, module_suffixes[i].suffix))
			return (int)i;
	}
	return -1;
}

int module_plain_name(const char *rel_path, char *out, size_t outlen)
{
	int s = suffix_of(rel_path);
	size_t keep;

	if (s < 0)
		return -1;
	keep = strlen(rel_path) - strlen(module_suffixes[s].suffix) + 3; /* keep ".ko" */
	if (keep >= outlen)
		return -1;
	memcpy(out, rel_path, keep);
	out[keep] = '\0';
	return 0;
}

int image_add_module(struct image_tree *t, const char *image_path, const char *host_path,
		     char *err, size_t errlen)
{
	struct byte_buf packed = { 0 }, plain = { 0 };
	int s = suffix_of(host_path);
	int ret = -1;

	if (s < 0)
		return errmsg(err, errlen, "%s: not a kernel module file (.ko, .ko.xz, .ko.zst, "
			      ".ko.gz)", host_path);
	if (module_suffixes[s].id == COMP_NONE)
		return image_add_host_file(t, image_path, 0644, PART_MODULES, host_path, err,
					   errlen);
	if (byte_buf_read_file(&packed, host_path, MAX_MODULE_SIZE, err, errlen) ||
	    decompress_buffer(module_suffixes[s].id, packed.data, packed.len, &plain,
			      MAX_MODULE_SIZE, host_path, err, errlen))
		goto out;
	ret = image_add_buffer(t, image_path, 0644, PART_MODULES, plain.data, plain.len, err,
			       errlen);
	plain.data = NULL; /* the tree owns it now */
out:
	byte_buf_free(&packed);
	byte_buf_free(&plain);
	return ret;
}
