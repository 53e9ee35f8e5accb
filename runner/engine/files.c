// SPDX-License-Identifier: GPL-2.0
/* Naming, laying out and opening a job's files; see files.h. */
#include "runner/engine/files.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runner/engine/offsets.h"

#define LAYOUT_CHUNK (1024 * 1024)

static int add_file(struct job_files *jf, const char *dir, const char *name)
{
	struct job_file *grown = realloc(jf->f, (jf->n + 1) * sizeof(*grown));
	struct job_file *f;
	size_t len;

	if (!grown)
		return -1;
	jf->f = grown;
	f = &jf->f[jf->n];
	memset(f, 0, sizeof(*f));
	f->fd = -1;
	len = (dir ? strlen(dir) + 1 : 0) + strlen(name) + 1;
	if (!(f->path = malloc(len)))
		return -1;
	if (dir)
		snprintf(f->path, len, "%s/%s", dir, name);
	else
		snprintf(f->path, len, "%s", name);
	jf->n++;
	return 0;
}

/* The n-th ':'-separated field of s ("\:" is a literal colon); NULL past the end. */
static char *field(const char *s, unsigned n)
{
	char *out = malloc(strlen(s) + 1), *o = out;
	unsigned k = 0;

	if (!out)
		return NULL;
	for (; *s; s++) {
		if (s[0] == '\\' && s[1] == ':') {
			if (k == n)
				*o++ = ':';
			s++;
		} else if (*s == ':') {
			if (k++ == n)
				break;
		} else if (k == n) {
			*o++ = *s;
		}
	}
	*o = '\0';
	if (k < n) {
		free(out);
		return NULL;
	}
	return out;
}

static unsigned count_fields(const char *s)
{
	unsigned n = 1;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] == ':')
			s++;
		else if (*s == ':')
			n++;
	}
	return n;
}

int files_name(const struct job_options *o, unsigned clone, struct job_files *jf, char *err,
	       size_t errlen)
{
	char *dir = NULL;
	int rc = -1;

	memset(jf, 0, sizeof(*jf));
	if (o->directory) {
		/* fio: clone i's generated files go to directory i % ndirs; a filename= to the first. */
		unsigned ndirs = count_fields(o->directory);

		dir = field(o->directory, o->filename ? 0 : clone % ndirs);
		if (!dir)
			goto oom;
	}
	if (o->filename) {
		unsigned n = count_fields(o->filename);

		for (unsigned i = 0; i < n; i++) {
			char *name = field(o->filename, i);

			if (!name)
				goto oom;
			if (!*name) {
				snprintf(err, errlen, "filename '%s': empty name in the list",
					 o->filename);
				free(name);
				goto out;
			}
			int r = add_file(jf, dir && name[0] != '/' ? dir : NULL, name);

			free(name);
			if (r)
				goto oom;
		}
	} else {
		for (unsigned i = 0; i < o->nrfiles; i++) {
			char name[512];

			snprintf(name, sizeof(name), "%s.%u.%u", o->name, clone, i);
			if (add_file(jf, dir, name))
				goto oom;
		}
	}
	rc = 0;
	goto out;
oom:
	snprintf(err, errlen, "out of memory");
out:
	free(dir);
	return rc;
}

static int fail(const char **option, const char *opt, char *err, size_t errlen, const char *fmt,
		...) __attribute__((format(printf, 5, 6)));
static int fail(const char **option, const char *opt, char *err, size_t errlen, const char *fmt,
		...)
{
	va_list ap;

	*option = opt;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* Writes [from, to) of fd with random data: a laid-out file is never sparse. */
static int write_out(int fd, uint64_t from, uint64_t to, uint64_t seed)
{
	uint64_t *buf = malloc(LAYOUT_CHUNK);
	struct rng r;

	if (!buf)
		return -ENOMEM;
	rng_seed(&r, seed);
	while (from < to) {
		size_t n = to - from < LAYOUT_CHUNK ? (size_t)(to - from) : LAYOUT_CHUNK;

		for (size_t i = 0; i < LAYOUT_CHUNK / 8; i++)
			buf[i] = rng_next(&r);
		ssize_t w = pwrite(fd, buf, n, (off_t)from);

		if (w <= 0) {
			int e = w < 0 ? errno : EIO;

			free(buf);
			return -e;
		}
		from += (uint64_t)w;
	}
	free(buf);
	return 0;
}

static int preallocate(int fd, uint32_t mode, uint64_t size)
{
	switch (mode) {
	case FALLOC_NONE:
		return 0;
	case FALLOC_NATIVE:
		if (!fallocate(fd, 0, 0, (off_t)size))
			return 0;
		if (errno != EOPNOTSUPP && errno != ENOSYS)
			return -errno;
		return ftruncate(fd, (off_t)size) ? -errno : 0;
	case FALLOC_POSIX:
		return -posix_fallocate(fd, 0, (off_t)size);
	case FALLOC_KEEP:
		return fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)size) ? -errno : 0;
	case FALLOC_TRUNCATE:
		return ftruncate(fd, (off_t)size) ? -errno : 0;
	}
	return 0;
}

/* The block device holding path, for disk statistics. */
static dev_t backing_dev(const struct stat *st)
{
	if (S_ISBLK(st->st_mode))
		return st->st_rdev;
	return st->st_dev;
}

static int size_files(const struct job_options *o, struct job_files *jf, const char **option,
		      char *err, size_t errlen)
{
	for (unsigned i = 0; i < jf->n; i++) {
		struct job_file *f = &jf->f[i];
		struct stat st;

		if (stat(f->path, &st)) {
			if (errno != ENOENT)
				return fail(option, "filename", err, errlen, "%s: %s", f->path,
					    strerror(errno));
			if (!o->filename || rw_writes(o) || o->size || o->filesize)
				continue; /* created below */
			return fail(option, "filename", err, errlen, "%s: %s", f->path,
				    strerror(errno));
		}
		f->is_bdev = S_ISBLK(st.st_mode);
		f->dev = backing_dev(&st);
		if (f->is_bdev) {
			int fd = open(f->path, O_RDONLY);
			uint64_t bytes = 0;

			if (fd < 0 || ioctl(fd, BLKGETSIZE64, &bytes)) {
				int e = errno;

				if (fd >= 0)
					close(fd);
				return fail(option, "filename", err, errlen, "%s: %s", f->path,
					    strerror(e));
			}
			close(fd);
			f->real_size = bytes;
		} else if (S_ISREG(st.st_mode)) {
			f->real_size = (uint64_t)st.st_size;
		} else {
			return fail(option, "filename", err, errlen,
				    "%s: not a regular file or block device", f->path);
		}
	}
	/* fio: each file gets filesize, else size/nrfiles, else its own size. */
	for (unsigned i = 0; i < jf->n; i++) {
		struct job_file *f = &jf->f[i];
		uint64_t want, off;

		if (o->filesize)
			want = o->filesize;
		else if (o->size)
			want = o->size / jf->n;
		else if (o->size_pct)
			want = f->real_size * o->size_pct / 100000;
		else
			want = f->real_size;
		off = o->offset_pct ? f->real_size * o->offset_pct / 100000 : o->offset;
		if (!want)
			return fail(option, "size", err, errlen,
				    "%s is empty: you need to specify size=", f->path);
		if (f->is_bdev && off + want > f->real_size)
			return fail(option, o->size ? "size" : "offset", err, errlen,
				    "%s: offset %llu + size %llu is beyond the device's %llu bytes",
				    f->path, (unsigned long long)off, (unsigned long long)want,
				    (unsigned long long)f->real_size);
		f->io_start = off;
		f->io_len = want;
	}
	return 0;
}

static int open_flags(const struct job_options *o)
{
	int flags = rw_writes(o) ? O_RDWR | O_CREAT : O_RDONLY;

	if (o->direct)
		flags |= O_DIRECT;
	if (o->sync)
		flags |= O_SYNC;
	return flags | O_CLOEXEC;
}

static int lay_out(const struct job_options *o, struct job_file *f, const char **option,
		   char *err, size_t errlen)
{
	uint64_t need = f->io_start + f->io_len;
	int fd, r = 0;

	if (f->is_bdev)
		return 0;
	if (f->real_size >= need)
		return 0; /* a regular file shorter than the region is extended below */
	if (rw_writes(o) && !rw_reads(o) && o->create_on_open)
		return 0; /* the job's own open creates it; its writes extend it */
	fd = open(f->path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return fail(option, "filename", err, errlen, "%s: %s", f->path, strerror(errno));
	if (rw_reads(o) || o->overwrite) {
		fprintf(stderr, "%s: Laying out IO file (1 file / %lluMiB)\n", o->name,
			(unsigned long long)((need - f->real_size) >> 20));
		r = write_out(fd, f->real_size, need, f->io_start ^ need);
	} else {
		r = preallocate(fd, o->fallocate, need);
	}
	if (!r && fsync(fd))
		r = -errno;
	close(fd);
	if (r)
		return fail(option, "filename", err, errlen, "%s: laying out %llu bytes: %s",
			    f->path, (unsigned long long)need, strerror(-r));
	f->real_size = need;
	return 0;
}

int files_prepare(const struct job_options *o, struct job_files *jf, const char **option,
		  char *err, size_t errlen)
{
	if (size_files(o, jf, option, err, errlen))
		return -1;
	for (unsigned i = 0; i < jf->n; i++) {
		struct job_file *f = &jf->f[i];
		struct stat st;

		if (lay_out(o, f, option, err, errlen))
			return -1;
		f->fd = open(f->path, open_flags(o), 0644);
		if (f->fd < 0) {
			int e = errno;

			if (e == EINVAL && o->direct)
				return fail(option, "direct", err, errlen,
					    "%s: O_DIRECT refused: the filesystem does not support direct IO",
					    f->path);
			return fail(option, "filename", err, errlen, "%s: %s", f->path,
				    strerror(e));
		}
		if (!fstat(f->fd, &st))
			f->dev = backing_dev(&st);
	}
	files_invalidate(o, jf);
	return 0;
}

void files_invalidate(const struct job_options *o, struct job_files *jf)
{
	for (unsigned i = 0; i < jf->n; i++) {
		struct job_file *f = &jf->f[i];

		if (f->fd < 0)
			continue;
		/* tmpfs ignores this; dirty pages stay until written back. */
		if (o->invalidate && !o->direct) {
			if (f->is_bdev)
				(void)ioctl(f->fd, BLKFLSBUF, 0);
			else
				(void)posix_fadvise(f->fd, (off_t)f->io_start, (off_t)f->io_len,
						    POSIX_FADV_DONTNEED);
		}
		/* fio's fadvise_hint: random IO turns readahead off, sequential IO widens it. */
		if (o->fadvise_hint)
			(void)posix_fadvise(f->fd, (off_t)f->io_start, (off_t)f->io_len,
					    rw_random(o) ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL);
	}
}

int files_virtual(const struct job_options *o, struct job_files *jf, char *err, size_t errlen)
{
	for (unsigned i = 0; i < jf->n; i++) {
		struct job_file *f = &jf->f[i];

		f->io_len = o->filesize ? o->filesize : o->size / jf->n;
		f->real_size = f->io_start + f->io_len;
		if (!f->io_len) {
			snprintf(err, errlen, "ioengine=null needs size= (it has no files to measure)");
			return -1;
		}
	}
	return 0;
}

void files_close(const struct job_options *o, struct job_files *jf)
{
	for (unsigned i = 0; i < jf->n; i++) {
		struct job_file *f = &jf->f[i];

		if (f->fd < 0)
			continue;
		if (o->fsync_on_close && rw_writes(o))
			(void)fsync(f->fd);
		close(f->fd);
		f->fd = -1;
		if (o->unlink && !f->is_bdev)
			(void)unlink(f->path);
	}
}

void files_free(struct job_files *jf)
{
	for (unsigned i = 0; i < jf->n; i++)
		free(jf->f[i].path);
	free(jf->f);
	memset(jf, 0, sizeof(*jf));
}
