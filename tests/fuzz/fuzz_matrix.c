// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz the matrix loader: any bytes give a matrix or one error line. A
 * matrix that loads is expanded for a small machine and every cell's
 * command line built, so what the checks let through is exercised too.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "matrix/matrix.h"

/* Bigger expansions are valid but slow; the loader's own limit is tested elsewhere. */
#define FUZZ_MAX_CELLS 2000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* job= names resolve here: the corpus's tests/fuzz/corpus/matrix has none */
	struct matrix_load_opts o = {.jobs_dir = "/nonexistent-iomatrix-fuzz"};
	struct machine mc = {.ndisks = 3,
			     .disk_bytes = {1ULL << 30, 1ULL << 30, 512ULL << 20},
			     .mem_bytes = 1ULL << 30};
	const char *dirs[] = {"/mnt/a", "/mnt/b", "/mnt/c"};
	char err[MATRIX_ERR_LEN];
	struct cell_list cl;
	struct matrix *m;

	m = matrix_load_buffer("fuzz.matrix", (const char *)data, size, &o, err, sizeof(err));
	if (!m)
		return 0;
	if (matrix_cell_count(m) <= FUZZ_MAX_CELLS &&
	    !matrix_expand(m, &mc, 0, &cl, err, sizeof(err))) {
		for (int i = 0; i < cl.count; i++) {
			char **argv;
			int n = cl.cells[i].filesystems < 3 ? cl.cells[i].filesystems : 3;

			if (cell_workload_argv(&cl.cells[i], dirs, n, &argv, err, sizeof(err)) >= 0)
				cell_argv_free(argv);
		}
		cell_list_free(&cl);
	}
	matrix_free(m);
	return 0;
}
