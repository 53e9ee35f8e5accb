/* SPDX-License-Identifier: GPL-2.0 */
/* The version, and the fio whose options and output the runner follows. */
#ifndef IOMATRIX_LIB_VERSION_H
#define IOMATRIX_LIB_VERSION_H

#define IOMATRIX_VERSION     "0.1"
#define IOMATRIX_FIO_COMPAT  "3.33"
/* "fio version" in the JSON: says what wrote it, and which fio it follows. */
#define IOMATRIX_FIO_VERSION                                                                   \
	"iomatrix-" IOMATRIX_VERSION " (fio-" IOMATRIX_FIO_COMPAT " compatible)"

#endif
