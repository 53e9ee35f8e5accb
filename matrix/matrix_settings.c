// SPDX-License-Identifier: GPL-2.0
/*
 * Cell settings: one table says every key a [defaults] or [DIM.VALUE] section
 * may set, which built-in dimension takes its values, and how its value is
 * read. The filesystem and array facts the rules use live here too.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix/matrix_internal.h"
#include "matrix/matrix_units.h"

/*
 * mkfs_defaults: ext4 without lazy init, so the kernel does not zero inode
 * tables behind the benchmark's back (mke2fs applies a later -E over it).
 * min_bytes: mkfs.xfs 6.1 refuses below 300 MiB ("Filesystem must be larger
 * than 300MB"); mkfs.btrfs 6.2 below 114,294,784 bytes a device.
 * usable_fraction: df's "available" over the device size for fresh 1 GiB
 * and 4 GiB images on this machine, rounded down.
 */
static const struct fs_info fs_table[FS_TYPE_COUNT] = {
	[FS_EXT2] = {"ext2", "-E lazy_itable_init=0,lazy_journal_init=0", 0, 0.93},
	[FS_EXT3] = {"ext3", "-E lazy_itable_init=0,lazy_journal_init=0", 0, 0.90},
	[FS_EXT4] = {"ext4", "-E lazy_itable_init=0,lazy_journal_init=0", 0, 0.88},
	[FS_BTRFS] = {"btrfs", "", 114294784, 0.87},
	[FS_XFS] = {"xfs", "", 300 * MX_MIB, 0.89},
};

static const struct array_info array_table[ARRAY_LEVEL_COUNT] = {
	[ARRAY_JBOD] = {"jbod", 1, false},    [ARRAY_LINEAR] = {"linear", 2, false},
	[ARRAY_RAID0] = {"raid0", 2, true},   [ARRAY_RAID1] = {"raid1", 2, false},
	[ARRAY_RAID10] = {"raid10", 2, true}, [ARRAY_RAID5] = {"raid5", 3, true},
	[ARRAY_RAID6] = {"raid6", 4, true},
};

static const char *const resync_names[] = {"assume-clean", "wait"};

/* The IO schedulers blk-mq offers; "default" leaves the kernel's choice. */
static const char *const scheduler_names[] = {"none", "mq-deadline", "bfq", "kyber"};

const struct fs_info *fs_info(enum fs_type fs)
{
	return &fs_table[fs];
}

const struct array_info *array_info(enum array_level level)
{
	return &array_table[level];
}

int mx_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

int mx_fail_at(char *err, size_t errlen, struct where at, const char *fmt, ...)
{
	char msg[MATRIX_ERR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (at.file)
		snprintf(err, errlen, "%s:%d: %s", at.file, at.line, msg);
	else
		snprintf(err, errlen, "%s", msg);
	return -1;
}

bool matrix_word_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._+:@%-", *s))
			return false;
	return true;
}

static int parse_name(const char *value, const char *const *names, int n, const char *what,
		      char *err, size_t errlen)
{
	char list[256] = "";

	for (int i = 0; i < n; i++)
		if (!strcmp(value, names[i]))
			return i;
	for (int i = 0; i < n; i++) {
		size_t l = strlen(list);
		snprintf(list + l, sizeof(list) - l, "%s%s", i ? " " : "", names[i]);
	}
	mx_fail(err, errlen, "unknown %s '%s' (known: %s)", what, value, list);
	return -1;
}

static int parse_int(const char *value, int lo, int hi, int *out)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)*value))
		return -1;
	errno = 0;
	v = strtol(value, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -1;
	*out = (int)v;
	return 0;
}

static int p_fs(struct settings *s, const char *v, char *err, size_t errlen)
{
	const char *names[FS_TYPE_COUNT];
	int i;

	for (i = 0; i < FS_TYPE_COUNT; i++)
		names[i] = fs_table[i].name;
	i = parse_name(v, names, FS_TYPE_COUNT, "filesystem", err, errlen);
	if (i < 0)
		return -1;
	s->fs = (enum fs_type)i;
	return 0;
}

static int set_string(char **dst, const char *v, bool default_is_null)
{
	free(*dst);
	*dst = NULL;
	if (default_is_null && !strcmp(v, "default"))
		return 0;
	*dst = strdup(v);
	return *dst ? 0 : -1;
}

static int p_mkfs(struct settings *s, const char *v, char *err, size_t errlen)
{
	if (set_string(&s->mkfs_options, v, true))
		return mx_fail(err, errlen, "out of memory");
	return 0;
}

static int p_mount(struct settings *s, const char *v, char *err, size_t errlen)
{
	if (strchr(v, ' ') || strchr(v, '\t'))
		return mx_fail(err, errlen,
			       "mount options '%s' contain a blank (mount -o takes "
			       "one comma-separated word)",
			       v);
	if (set_string(&s->mount_options, v, true))
		return mx_fail(err, errlen, "out of memory");
	return 0;
}

static int p_array(struct settings *s, const char *v, char *err, size_t errlen)
{
	const char *names[ARRAY_LEVEL_COUNT];
	int i;

	for (i = 0; i < ARRAY_LEVEL_COUNT; i++)
		names[i] = array_table[i].name;
	i = parse_name(v, names, ARRAY_LEVEL_COUNT, "array", err, errlen);
	if (i < 0)
		return -1;
	s->array = (enum array_level)i;
	return 0;
}

static int p_disks(struct settings *s, const char *v, char *err, size_t errlen)
{
	if (!strcmp(v, "all")) {
		s->disks = 0;
		return 0;
	}
	if (parse_int(v, 1, MATRIX_MAX_DISKS, &s->disks))
		return mx_fail(err, errlen, "bad disks '%s' (a count 1-%d, or all)", v,
			       MATRIX_MAX_DISKS);
	return 0;
}

static int p_chunk(struct settings *s, const char *v, char *err, size_t errlen)
{
	uint64_t c;

	if (mx_parse_size(v, &c))
		return mx_fail(err, errlen, "bad chunk size '%s' (e.g. 64k, 512k, 1m)", v);
	/* md takes a power of two of at least 4 KiB for every level it stripes */
	if (c < 4096 || (c & (c - 1)) || c > 1024 * MX_MIB)
		return mx_fail(err, errlen, "chunk %s is not a power of two from 4k to 1g", v);
	s->chunk = c;
	return 0;
}

static int p_resync(struct settings *s, const char *v, char *err, size_t errlen)
{
	int i = parse_name(v, resync_names, 2, "resync policy", err, errlen);

	if (i < 0)
		return -1;
	s->resync = (enum resync_policy)i;
	return 0;
}

static int p_readahead(struct settings *s, const char *v, char *err, size_t errlen)
{
	if (!strcmp(v, "default")) {
		s->readahead = -1;
		return 0;
	}
	/* BLKRASET takes sectors of 512 bytes, as blockdev --setra does */
	if (parse_int(v, 0, 1 << 24, &s->readahead))
		return mx_fail(err, errlen,
			       "bad readahead '%s' (512-byte sectors, e.g. 256, or "
			       "default)",
			       v);
	return 0;
}

static int p_scheduler(struct settings *s, const char *v, char *err, size_t errlen)
{
	int n = sizeof(scheduler_names) / sizeof(scheduler_names[0]);

	if (!strcmp(v, "default")) {
		free(s->scheduler);
		s->scheduler = NULL;
		return 0;
	}
	if (parse_name(v, scheduler_names, n, "IO scheduler", err, errlen) < 0)
		return -1;
	if (set_string(&s->scheduler, v, false))
		return mx_fail(err, errlen, "out of memory");
	return 0;
}

static int p_workload(struct settings *s, const char *v, char *err, size_t errlen)
{
	if (!matrix_word_ok(v))
		return mx_fail(err, errlen, "bad workload name '%s'", v);
	if (set_string(&s->workload, v, false))
		return mx_fail(err, errlen, "out of memory");
	return 0;
}

static int p_repeats(struct settings *s, const char *v, char *err, size_t errlen)
{
	if (parse_int(v, 1, 1000, &s->repeats))
		return mx_fail(err, errlen, "bad repeats '%s' (1-1000)", v);
	return 0;
}

static int p_time_limit(struct settings *s, const char *v, char *err, size_t errlen)
{
	if (!strcmp(v, "auto")) {
		s->time_limit = 0;
		return 0;
	}
	if (mx_parse_duration(v, &s->time_limit) || s->time_limit < 1)
		return mx_fail(err, errlen,
			       "bad time_limit '%s' (a duration of 1s or more, e.g. "
			       "600, 10m, or auto)",
			       v);
	return 0;
}

static const struct setting_desc settings_table[] = {
	{"fs", SET_FS, "fs", p_fs},
	{"mkfs_options", SET_MKFS_OPTIONS, "mkfs", p_mkfs},
	{"mount_options", SET_MOUNT_OPTIONS, "mount", p_mount},
	{"array", SET_ARRAY, "array", p_array},
	{"disks", SET_DISKS, "disks", p_disks},
	{"chunk", SET_CHUNK, "chunk", p_chunk},
	{"resync", SET_RESYNC, "resync", p_resync},
	{"readahead", SET_READAHEAD, "readahead", p_readahead},
	{"scheduler", SET_SCHEDULER, "scheduler", p_scheduler},
	{"workload", SET_WORKLOAD, "workload", p_workload},
	{"set", SET_SET, NULL, NULL}, /* setting_parse: its options keep their place */
	{"repeats", SET_REPEATS, "repeats", p_repeats},
	{"time_limit", SET_TIME_LIMIT, NULL, p_time_limit},
};

#define NSETTINGS (sizeof(settings_table) / sizeof(settings_table[0]))

const struct setting_desc *setting_find(const char *key)
{
	for (size_t i = 0; i < NSETTINGS; i++)
		if (!strcmp(settings_table[i].key, key))
			return &settings_table[i];
	return NULL;
}

const struct setting_desc *setting_for_dimension(const char *dim)
{
	for (size_t i = 0; i < NSETTINGS; i++)
		if (settings_table[i].dimension && !strcmp(settings_table[i].dimension, dim))
			return &settings_table[i];
	return NULL;
}

/* [defaults] leaves repeats and time_limit to [matrix]: one place for each. */
static bool allowed_in_defaults(enum setting_id id)
{
	return id != SET_REPEATS && id != SET_TIME_LIMIT;
}

void setting_keys(char *buf, size_t len, bool in_defaults)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NSETTINGS && n < len; i++) {
		if (in_defaults && !allowed_in_defaults(settings_table[i].id))
			continue;
		n += snprintf(buf + n, len - n, "%s%s", n ? " " : "", settings_table[i].key);
	}
}

int setting_parse(struct settings *s, const struct setting_desc *d, const char *value,
		  struct where at, char *err, size_t errlen)
{
	if (!value || !*value)
		return mx_fail(err, errlen, "%s needs a value", d->key);
	if (d->id == SET_SET ? kv_parse_words(&s->set, value, at, err, errlen)
			     : d->parse(s, value, err, errlen))
		return -1;
	s->has |= 1u << d->id;
	return 0;
}

bool setting_allowed_in_defaults(const struct setting_desc *d)
{
	return allowed_in_defaults(d->id);
}

static int copy_str(char **dst, const char *src)
{
	free(*dst);
	*dst = NULL;
	if (!src)
		return 0;
	*dst = strdup(src);
	return *dst ? 0 : -1;
}

int settings_apply(struct settings *dst, const struct settings *src)
{
	unsigned h = src->has;

	if (h & (1u << SET_FS))
		dst->fs = src->fs;
	if ((h & (1u << SET_MKFS_OPTIONS)) && copy_str(&dst->mkfs_options, src->mkfs_options))
		return -1;
	if ((h & (1u << SET_MOUNT_OPTIONS)) && copy_str(&dst->mount_options, src->mount_options))
		return -1;
	if (h & (1u << SET_ARRAY))
		dst->array = src->array;
	if (h & (1u << SET_DISKS))
		dst->disks = src->disks;
	if (h & (1u << SET_CHUNK))
		dst->chunk = src->chunk;
	if (h & (1u << SET_RESYNC))
		dst->resync = src->resync;
	if (h & (1u << SET_READAHEAD))
		dst->readahead = src->readahead;
	if ((h & (1u << SET_SCHEDULER)) && copy_str(&dst->scheduler, src->scheduler))
		return -1;
	if ((h & (1u << SET_WORKLOAD)) && copy_str(&dst->workload, src->workload))
		return -1;
	if (h & (1u << SET_REPEATS))
		dst->repeats = src->repeats;
	if (h & (1u << SET_TIME_LIMIT))
		dst->time_limit = src->time_limit;
	for (int i = 0; i < src->set.count; i++)
		if (kv_append(&dst->set, src->set.items[i].key, src->set.items[i].value,
			      src->set.items[i].at))
			return -1;
	dst->has |= h;
	return 0;
}

void settings_free(struct settings *s)
{
	free(s->mkfs_options);
	free(s->mount_options);
	free(s->scheduler);
	free(s->workload);
	kv_list_free(&s->set);
	memset(s, 0, sizeof(*s));
}

int kv_append(struct kv_list *l, const char *key, const char *value, struct where at)
{
	struct kv *grown = realloc(l->items, (l->count + 1) * sizeof(*grown));

	if (!grown)
		return -1;
	l->items = grown;
	grown[l->count].key = strdup(key);
	grown[l->count].value = value ? strdup(value) : NULL;
	grown[l->count].at = at;
	if (!grown[l->count].key || (value && !grown[l->count].value)) {
		free(grown[l->count].key);
		free(grown[l->count].value);
		return -1;
	}
	l->count++;
	return 0;
}

static bool option_name_ok(const char *s, size_t n)
{
	if (!n || !isalpha((unsigned char)s[0]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

int kv_parse_words(struct kv_list *l, const char *words, struct where at, char *err, size_t errlen)
{
	const char *p = words;

	while (*p) {
		const char *end, *eq;
		char key[128], value[512];
		size_t klen;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		end = p + strcspn(p, " \t");
		eq = memchr(p, '=', end - p);
		klen = eq ? (size_t)(eq - p) : (size_t)(end - p);
		if (!option_name_ok(p, klen) || klen >= sizeof(key))
			return mx_fail(err, errlen,
				       "bad option '%.*s' (want name=value, "
				       "the name of letters, digits and _)",
				       (int)(end - p), p);
		memcpy(key, p, klen);
		key[klen] = '\0';
		if (eq) {
			size_t vlen = end - eq - 1;

			if (vlen >= sizeof(value))
				return mx_fail(err, errlen, "value of %s too long", key);
			memcpy(value, eq + 1, vlen);
			value[vlen] = '\0';
		}
		if (kv_append(l, key, eq ? value : NULL, at))
			return mx_fail(err, errlen, "out of memory");
		p = end;
	}
	return 0;
}

void kv_list_free(struct kv_list *l)
{
	for (int i = 0; i < l->count; i++) {
		free(l->items[i].key);
		free(l->items[i].value);
	}
	free(l->items);
	l->items = NULL;
	l->count = 0;
}

const struct kv *kv_last(const struct kv_list *l, const char *key)
{
	for (int i = l->count - 1; i >= 0; i--)
		if (!strcmp(fio_canonical_key(l->items[i].key), key))
			return &l->items[i];
	return NULL;
}
