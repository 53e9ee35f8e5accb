/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A job's files: their names (filename= lists, or names made from the job
 * as fio makes them, spread over directory= lists), sizes, layout (a read
 * job's file is written in full first, never left sparse), opening, cache
 * invalidation and removal.
 */
#ifndef IOMATRIX_RUNNER_ENGINE_FILES_H
#define IOMATRIX_RUNNER_ENGINE_FILES_H

#include <stdint.h>
#include <sys/types.h>

#include "matrix/job_options.h"

struct job_file {
	char *path;
	int fd;
	int is_bdev;
	dev_t dev;	    /* the block device under it (0 for none, e.g. tmpfs) */
	uint64_t real_size; /* of the file or device */
	uint64_t io_start;  /* the job's region in the file */
	uint64_t io_len;
};

struct job_files {
	struct job_file *f;
	unsigned n;
};

/*
 * Names the files of clone number clone of a job. Errors: -1 with the
 * cause in err and the option to blame in *option.
 */
int files_name(const struct job_options *o, unsigned clone, struct job_files *jf, char *err,
	       size_t errlen);

/*
 * Sizes, lays out and opens the files (the work before a job's clock
 * starts). Returns 0, or -1 with the cause and the option to blame.
 */
int files_prepare(const struct job_options *o, struct job_files *jf, const char **option,
		  char *err, size_t errlen);

/*
 * What fio does each time it opens a job's files (at the start and, since
 * it reopens them, at every new loop): invalidate=1 drops their cached
 * pages (flushes a block device's), then fadvise_hint tells the kernel
 * the pattern.
 */
void files_invalidate(const struct job_options *o, struct job_files *jf);

/* For engines without files (null): regions of size/nrfiles, no fd. */
int files_virtual(const struct job_options *o, struct job_files *jf, char *err, size_t errlen);

/* fsync_on_close, close, and unlink= . */
void files_close(const struct job_options *o, struct job_files *jf);
void files_free(struct job_files *jf);

#endif
