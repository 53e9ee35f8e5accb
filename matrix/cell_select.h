/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cell selections: iomatrix.cells= on the kernel command line, --cells for
 * `iomatrix plan`, and the exclude= rules of a matrix file.
 *
 * A selection is a list of terms separated by commas (or blanks):
 *
 *   7          the cell with index 7 (1-based, as `iomatrix plan` lists them)
 *   3-9        cells 3 to 9
 *   fs=ext4    cells whose dimension fs has the value ext4
 *   fs!=xfs    cells whose dimension fs has any value but xfs
 *
 * Index terms add up (a union); with none, every index is in. Filter terms
 * on the same dimension add up too (fs=ext4,fs=xfs: either one), while
 * filters on different dimensions must all hold (fs=ext4,array=raid5: both).
 * A cell is selected when its index is in and every filter holds:
 * "1-20,array=raid5" is the raid5 cells among the first twenty.
 *
 * Dimension names and values are checked against the matrix, indices
 * against its cell count: a typo is an error, never an empty selection.
 */
#ifndef IOMATRIX_MATRIX_CELL_SELECT_H
#define IOMATRIX_MATRIX_CELL_SELECT_H

#include <stdbool.h>
#include <stddef.h>

struct matrix;
struct cell;
struct cell_select;

/*
 * NULL with one line in err. allow_indices false (matrix rules): index
 * terms are an error. An empty or all-blank spec selects every cell.
 */
struct cell_select *cell_select_parse(const char *spec, const struct matrix *m, bool allow_indices,
				      char *err, size_t errlen);
void cell_select_free(struct cell_select *s);

/* Whether it has no term at all: every cell is selected. */
bool cell_select_all(const struct cell_select *s);
bool cell_select_match(const struct cell_select *s, const struct cell *c);
/* The same from a cell's index (1-based; 0: unknown yet) and value positions. */
bool cell_select_match_values(const struct cell_select *s, int index, const int *value_index);

#endif
