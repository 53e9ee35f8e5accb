// SPDX-License-Identifier: GPL-2.0
/* Fuzz cell selections (iomatrix.cells=): any bytes select cells or give one error. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "matrix/cell_select.h"
#include "matrix/matrix.h"

static const char text[] = "[dimensions]\n"
			   "array = jbod raid0 raid5\n"
			   "fs = ext2 ext3 ext4 btrfs xfs\n"
			   "workload = 1dd 10dd\n"
			   "[workload.1dd]\nwriters = 1\nsize = 1m\n"
			   "[workload.10dd]\nwriters = 10\nruntime = 1\n";

static struct matrix *m;
static struct cell_list cl;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[MATRIX_ERR_LEN], *spec;
	struct cell_select *s;

	if (!m) {
		struct matrix_load_opts o = {0};
		struct machine mc = {
			.ndisks = 4,
			.disk_bytes = {1ULL << 30, 1ULL << 30, 1ULL << 30, 1ULL << 30}};

		m = matrix_load_buffer("t.matrix", text, strlen(text), &o, err, sizeof(err));
		if (!m || matrix_expand(m, &mc, 1, &cl, err, sizeof(err)))
			abort();
	}
	/* the kernel command line hands over a NUL-terminated string */
	spec = malloc(size + 1);
	if (!spec)
		return 0;
	memcpy(spec, data, size);
	spec[size] = '\0';
	for (int allow = 0; allow < 2; allow++) {
		s = cell_select_parse(spec, m, allow, err, sizeof(err));
		if (!s)
			continue;
		for (int i = 0; i < cl.count; i++)
			cell_select_match(s, &cl.cells[i]);
		cell_select_free(s);
	}
	free(spec);
	return 0;
}
