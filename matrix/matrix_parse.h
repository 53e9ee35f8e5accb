/* SPDX-License-Identifier: GPL-2.0 */
/* The matrix file's INI handler (matrix_parse.c), used by matrix.c. */
#ifndef IOMATRIX_MATRIX_MATRIX_PARSE_H
#define IOMATRIX_MATRIX_MATRIX_PARSE_H

#include "matrix/matrix_internal.h"

int matrix_parse_file(struct matrix *m, const char *path, char *err, size_t errlen);
int matrix_parse_buffer(struct matrix *m, const char *name, const char *text, size_t len, char *err,
			size_t errlen);
/* One dd key (writers, writers_per_fs, bs, size, runtime) into w. */
int dd_key_parse(struct workload_def *w, const char *key, const char *value, char *err,
		 size_t errlen);

#endif
