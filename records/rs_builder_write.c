// SPDX-License-Identifier: GPL-2.0
/* Writing a result set directory, all or nothing; see rs_builder.h. */
#include "records/rs_builder.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <linux/fs.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "records/rs_builder_impl.h"

#define MANIFEST "manifest.json"
#define RECORDS	 "records"

static json_object *iso_time(int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char buf[32];

	if (t < 0 || !gmtime_r(&tt, &tm) || !strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm))
		return NULL;
	return json_object_new_string(buf);
}

static json_object *seq_array(const struct rs_seqs *s)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < s->n; i++)
		json_object_array_add(a, json_object_new_int64(s->v[i]));
	return a;
}

static const char *kind_name(enum rsb_source_kind k)
{
	return k == RSB_SERIAL ? "serial log" : "results log";
}

static json_object *sources(const struct rs_builder *rs, char *joined, size_t len)
{
	json_object *a = json_object_new_array();
	size_t o = 0;

	joined[0] = '\0';
	for (size_t i = 0; a && i < rs->nsrc; i++) {
		const struct rs_source *s = &rs->src[i];
		json_object *o_src = json_object_new_object();

		json_object_object_add(o_src, "kind", json_object_new_string(kind_name(s->kind)));
		json_object_object_add(o_src, "path", json_object_new_string(s->path));
		if (s->run_id)
			json_object_object_add(o_src, "run_id", json_object_new_string(s->run_id));
		json_object_object_add(o_src, "intact", json_object_new_int64(s->records));
		json_object_object_add(o_src, "damaged", json_object_new_int64(s->damaged));
		json_object_array_add(a, o_src);
		if (o < len)
			o += (size_t)snprintf(joined + o, len - o, "%s%s %s", i ? "; " : "",
					      kind_name(s->kind), s->path);
	}
	return a;
}

/* The manifest (docs/records.md, "A result set"), keys in the documented order. */
static json_object *manifest(const struct rs_builder *rs)
{
	json_object *m = json_object_new_object(), *counts, *missing;
	char joined[4096];

	if (!m)
		return NULL;
	json_object_object_add(m, "iomatrix_result_set", json_object_new_int(1));
	json_object_object_add(m, "run_id", json_object_new_string(rs->run_id));
	json_object_object_add(m, "matrix", json_object_new_string(rs->matrix));
	json_object_object_add(m, "kernel", json_object_get(rs->kernel));
	json_object_object_add(m, "created", iso_time(rs->created_unix));
	json_object_object_add(m, "extracted", iso_time((int64_t)time(NULL)));
	json_object_object_add(m, "sources", sources(rs, joined, sizeof(joined)));
	json_object_object_add(m, "source", json_object_new_string(joined));
	json_object_object_add(m, "records", json_object_new_int64((int64_t)rs->nrecords));
	json_object_object_add(m, "cells", json_object_new_int64(rs->cell_count));
	json_object_object_add(m, "repeats", json_object_new_int64(rs->repeats));
	counts = json_object_new_object();
	for (int s = 0; s < RECORD_NSTATUS; s++)
		json_object_object_add(counts, record_status_names[s],
				       json_object_new_int64(rs->counts[s]));
	json_object_object_add(counts, "missing", json_object_new_int64((int64_t)rs->nmissing));
	json_object_object_add(m, "counts", counts);
	json_object_object_add(m, "damaged", seq_array(&rs->damaged));
	json_object_object_add(m, "lost", seq_array(&rs->lost));
	json_object_object_add(m, "invalid", seq_array(&rs->invalid));
	json_object_object_add(m, "disagree", seq_array(&rs->disagree));
	missing = json_object_new_array();
	for (size_t i = 0; missing && i < rs->nmissing; i++) {
		json_object *c = json_object_new_object();

		json_object_object_add(c, "index", json_object_new_int64(rs->missing[i].index));
		json_object_object_add(c, "repeat", json_object_new_int64(rs->missing[i].repeat));
		json_object_array_add(missing, c);
	}
	json_object_object_add(m, "missing_cells", missing);
	return m;
}

/* dir/name into out; -1 (ENAMETOOLONG) when it does not fit. */
static int path_join(char *out, size_t n, const char *dir, const char *name)
{
	int r = snprintf(out, n, "%s/%s", dir, name);

	if (r < 0 || (size_t)r >= n) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

static int write_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	size_t done = 0;

	if (fd < 0)
		return -1;
	while (done < len) {
		ssize_t n = write(fd, (const char *)data + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = n < 0 ? errno : EIO;

			close(fd);
			errno = e;
			return -1;
		}
		done += (size_t)n;
	}
	return close(fd);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/*
 * Calls fn on each entry of dir/records; returns -1 when an entry is not a
 * record file (or the directory cannot be read), else 0.
 */
static int each_record_file(const char *dir, bool (*fn)(const char *path))
{
	char path[4096];
	struct dirent *e;
	DIR *d;
	int r = 0;

	char records[4096];

	if (path_join(records, sizeof(records), dir, RECORDS))
		return -1;
	d = opendir(records);
	if (!d)
		return errno == ENOENT ? 0 : -1;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (path_join(path, sizeof(path), records, e->d_name) ||
		    !ends_with(e->d_name, ".json") || !fn(path))
			r = -1;
	}
	closedir(d);
	return r;
}

static bool is_regular(const char *path)
{
	struct stat st;

	return !lstat(path, &st) && S_ISREG(st.st_mode);
}

static bool remove_file(const char *path)
{
	return !unlink(path);
}

/* Only a result set we could have written (or an empty directory) may be replaced. */
static bool replaceable(const char *dir)
{
	char path[4096];
	json_object *m, *v;
	struct dirent *e;
	bool ok = true, has_manifest = false;
	DIR *d = opendir(dir);

	if (!d)
		return false;
	while ((e = readdir(d)) && ok) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!strcmp(e->d_name, MANIFEST))
			has_manifest = true;
		else if (strcmp(e->d_name, RECORDS))
			ok = false;
	}
	closedir(d);
	if (!ok || each_record_file(dir, is_regular) || path_join(path, sizeof(path), dir, RECORDS))
		return false;
	if (!has_manifest)
		return access(path, F_OK) != 0; /* empty */
	if (path_join(path, sizeof(path), dir, MANIFEST))
		return false;
	m = json_object_from_file(path);
	ok = m && json_object_object_get_ex(m, "iomatrix_result_set", &v);
	json_object_put(m);
	return ok;
}

/* Removes what rsb_write writes (and nothing else: rmdir fails if more is there). */
static int remove_result_set(const char *dir)
{
	char path[4096];
	int r = each_record_file(dir, remove_file);

	if (path_join(path, sizeof(path), dir, RECORDS) || (rmdir(path) && errno != ENOENT))
		r = -1;
	if (path_join(path, sizeof(path), dir, MANIFEST) || (unlink(path) && errno != ENOENT))
		r = -1;
	if (rmdir(dir))
		r = -1;
	return r;
}

static int fill(const struct rs_builder *rs, const char *tmp, char *err, size_t errlen)
{
	char path[4096];
	json_object *m;
	int fd, r;

	if (path_join(path, sizeof(path), tmp, RECORDS) || mkdir(path, 0755)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < rs->nrecords; i++) {
		const struct rs_record *rec = &rs->records[i];
		char name[32];

		snprintf(name, sizeof(name), RECORDS "/%06u.json", rec->seq);
		if (path_join(path, sizeof(path), tmp, name) ||
		    write_file(path, rec->copy->data, rec->copy->len)) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			return -1;
		}
	}
	m = manifest(rs);
	r = m && !path_join(path, sizeof(path), tmp, MANIFEST)
		    ? json_object_to_file_ext(path, m,
					      JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
						      JSON_C_TO_STRING_NOSLASHESCAPE)
		    : -1;
	json_object_put(m);
	if (r) {
		snprintf(err, errlen, "%s: cannot write the manifest", path);
		return -1;
	}
	/* On the medium before it gets its name. */
	fd = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || syncfs(fd)) {
		snprintf(err, errlen, "%s: sync: %s", tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

int rsb_write(const struct rs_builder *rs, const char *dir, bool force, char *err, size_t errlen)
{
	char tmp[4096];
	struct stat st;
	bool exists = !lstat(dir, &st);
	int n;

	if (exists && !force) {
		snprintf(err, errlen, "%s exists (--force replaces a result set)", dir);
		return -1;
	}
	if (exists && (!S_ISDIR(st.st_mode) || !replaceable(dir))) {
		snprintf(err, errlen, "%s exists and is not a result set: not replacing it", dir);
		return -1;
	}
	n = snprintf(tmp, sizeof(tmp), "%s.tmp-XXXXXX", dir);
	if (n < 0 || (size_t)n >= sizeof(tmp) || !mkdtemp(tmp)) {
		snprintf(err, errlen, "%s.tmp-XXXXXX: %s", dir,
			 n < 0 || (size_t)n >= sizeof(tmp) ? "name too long" : strerror(errno));
		return -1;
	}
	if (fill(rs, tmp, err, errlen))
		goto fail;
	if (exists) {
		/*
		 * The old set takes the temporary name in the same step, then goes.
		 * Called as a system call: musl (which compiles records/ for the
		 * runner too) has no renameat2 wrapper.
		 */
		if (syscall(SYS_renameat2, AT_FDCWD, tmp, AT_FDCWD, dir, RENAME_EXCHANGE)) {
			snprintf(err, errlen, "replacing %s: %s", dir, strerror(errno));
			goto fail;
		}
		if (remove_result_set(tmp))
			fprintf(stderr, "iomatrix extract: the replaced result set is left in %s\n",
				tmp);
		return 0;
	}
	if (rename(tmp, dir)) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		goto fail;
	}
	return 0;
fail:
	remove_result_set(tmp);
	return -1;
}
