// SPDX-License-Identifier: GPL-2.0
/* Opening and writing the results channels; see results_channels.h. */
#include "runner/results/results_channels.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "runner/console.h"
#include "lib/disk_signature.h"
#include "records/gpt.h"
#include "records/results_out.h"
#include "records/serial_frame.h"

/* A partition of disk named part (vdd1, nvme0n1p2): its number from sysfs, 0 when none. */
static unsigned partition_number(const char *sysfs_root, const char *disk, const char *part)
{
	char path[512], buf[32] = "";
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/block/%s/%s/partition", sysfs_root, disk, part);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return (unsigned)strtoul(buf, NULL, 10);
}

/* The partition of disk with number nr, or its name given as name (nr 0). */
static int find_partition(const char *sysfs_root, const char *disk, unsigned nr, const char *name,
			  char *out, size_t len)
{
	char dir[512];
	struct dirent *de;
	DIR *d;
	int found = 0;

	snprintf(dir, sizeof(dir), "%s/block/%s", sysfs_root, disk);
	d = opendir(dir);
	while (d && !found && (de = readdir(d))) {
		unsigned n;

		if (de->d_name[0] == '.' || strlen(de->d_name) >= len)
			continue;
		n = partition_number(sysfs_root, disk, de->d_name);
		if (n && (name ? !strcmp(de->d_name, name) : n == nr)) {
			snprintf(out, len, "%s", de->d_name);
			found = 1;
		}
	}
	if (d)
		closedir(d);
	return found;
}

static int fd_read_at(void *ctx, void *buf, size_t len, uint64_t off)
{
	int fd = *(int *)ctx;
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, (char *)buf + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		done += (size_t)n;
	}
	return 0;
}

/* The GPT of a disk; -1 with why (not GPT, unreadable). */
static int read_gpt(const char *dev, struct gpt_table *t, char *err, size_t errlen)
{
	struct gpt_reader r = {fd_read_at, NULL, 0, 0};
	char why[GPT_ERR_LEN];
	int fd = open(dev, O_RDONLY | O_CLOEXEC), ret;
	struct stat st;
	int lbs;

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", dev, strerror(errno));
		return -1;
	}
	r.ctx = &fd;
	if (fstat(fd, &st) == 0 && S_ISBLK(st.st_mode) && ioctl(fd, BLKSSZGET, &lbs) == 0)
		r.block_size = (uint32_t)lbs;
	r.size = (uint64_t)lseek(fd, 0, SEEK_END);
	ret = gpt_read(&r, t, why, sizeof(why));
	if (ret)
		snprintf(err, errlen, "%s: %s", dev, why);
	close(fd);
	return ret;
}

static void set_device(struct results_device *out, const char *dev_root, const char *disk,
		       const char *part)
{
	snprintf(out->disk, sizeof(out->disk), "%.31s", disk);
	snprintf(out->part, sizeof(out->part), "%.31s", part ? part : "");
	snprintf(out->path, sizeof(out->path), "%.64s/%.31s", dev_root, part ? part : disk);
}

/* By kernel name: a disk found, or a partition of one. */
static int by_name(const char *name, const struct disk_list *found, const char *sysfs_root,
		   const char *dev_root, struct results_device *out, char *err, size_t errlen)
{
	char part[32];

	for (size_t i = 0; i < found->count; i++)
		if (!strcmp(found->d[i].name, name)) {
			set_device(out, dev_root, name, NULL);
			return 0;
		}
	for (size_t i = 0; i < found->count; i++)
		if (find_partition(sysfs_root, found->d[i].name, 0, name, part, sizeof(part))) {
			set_device(out, dev_root, found->d[i].name, part);
			return 0;
		}
	snprintf(err, errlen, "no disk or partition %s", name);
	return -1;
}

static int by_serial(const char *serial, const struct disk_list *found, const char *dev_root,
		     struct results_device *out, char *err, size_t errlen)
{
	int hits = 0;

	for (size_t i = 0; i < found->count; i++)
		if (found->d[i].serial[0] && !strcmp(found->d[i].serial, serial)) {
			if (!hits++)
				set_device(out, dev_root, found->d[i].name, NULL);
		}
	if (hits == 1)
		return 0;
	if (hits)
		snprintf(err, errlen, "%d disks have serial %s", hits, serial);
	else
		snprintf(err, errlen, "no disk has serial %s", serial);
	return -1;
}

/* PARTLABEL or PARTUUID: every disk's GPT, exactly one partition. */
static int by_gpt(const struct results_channel_spec *ch, const struct disk_list *found,
		  const char *sysfs_root, const char *dev_root, struct results_device *out,
		  char *err, size_t errlen)
{
	static struct gpt_table t;
	char dev[80], part[32], why[RESULTS_ERR_LEN];
	int hits = 0;

	for (size_t i = 0; i < found->count; i++) {
		const struct gpt_partition *p;

		snprintf(dev, sizeof(dev), "%s/%s", dev_root, found->d[i].name);
		if (read_gpt(dev, &t, why, sizeof(why)))
			continue; /* no GPT there: not the one */
		p = ch->by == RESULTS_BY_PARTLABEL ? gpt_find_label(&t, ch->value)
						   : gpt_find_uuid(&t, ch->value);
		if (!p)
			continue;
		if (hits++) {
			snprintf(err, errlen, "%s=%s: more than one partition (on %s and %s)",
				 results_by_name(ch->by), ch->value, out->disk, found->d[i].name);
			return -1;
		}
		if (!find_partition(sysfs_root, found->d[i].name, p->number, NULL, part,
				    sizeof(part))) {
			snprintf(err, errlen,
				 "%s=%s is partition %u of %s, but the kernel shows no such "
				 "partition",
				 results_by_name(ch->by), ch->value, p->number, found->d[i].name);
			return -1;
		}
		set_device(out, dev_root, found->d[i].name, part);
	}
	if (hits)
		return 0;
	snprintf(err, errlen, "no GPT partition has %s=%s", results_by_name(ch->by), ch->value);
	return -1;
}

int results_find_device(const struct results_channel_spec *ch, const struct disk_list *found,
			const char *sysfs_root, const char *dev_root, struct results_device *out,
			char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	switch (ch->by) {
	case RESULTS_BY_NAME:
		return by_name(ch->value, found, sysfs_root, dev_root, out, err, errlen);
	case RESULTS_BY_SERIAL:
		return by_serial(ch->value, found, dev_root, out, err, errlen);
	default:
		return by_gpt(ch, found, sysfs_root, dev_root, out, err, errlen);
	}
}

/* Raw, 115200 baud, no flow control, no carrier needed: bytes go out as written. */
static int set_raw(int fd, char *err, size_t errlen)
{
	struct termios t;

	if (tcgetattr(fd, &t)) {
		snprintf(err, errlen, "tcgetattr: %s", strerror(errno));
		return -1;
	}
	cfmakeraw(&t);
	t.c_cflag &= ~(tcflag_t)CRTSCTS;
	t.c_cflag |= CLOCAL;
	if (cfsetospeed(&t, B115200) || cfsetispeed(&t, B115200) || tcsetattr(fd, TCSANOW, &t)) {
		snprintf(err, errlen, "setting it raw at 115200: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int open_tty(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);

	if (fd < 0) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	if (isatty(fd) && set_raw(fd, err, errlen)) {
		close(fd);
		return -1;
	}
	return fd;
}

void results_open_serial(struct results_channels *c)
{
	char err[RESULTS_ERR_LEN];

	c->nserial = 0;
	for (size_t i = 0; i < c->spec.count; i++) {
		const struct results_channel_spec *ch = &c->spec.ch[i];
		struct results_serial *s = &c->serial[c->nserial];
		int fd = -1;

		if (ch->kind == RESULTS_DISK)
			continue;
		memset(s, 0, sizeof(*s));
		s->spec = ch;
		s->kmsg_level = -1;
		if (ch->kind == RESULTS_CONSOLE) {
			fd = STDOUT_FILENO;
		} else if (ch->kind == RESULTS_SERIAL) {
			fd = open_tty(ch->value, err, sizeof(err));
		} else {
			fd = frame_kmsg_open(err, sizeof(err));
			s->kmsg_level = ch->kmsg_level;
		}
		if (fd < 0) {
			con_say("results: %s: cannot open: %s; records do not go there", ch->word,
				err);
			continue;
		}
		s->fd = fd;
		c->nserial++;
	}
}

int results_open_log(struct results_log *log, const char *path, int init, const char *run_id,
		     rlog_visit_fn fn, void *ctx, char *err, size_t errlen)
{
	char why[RLOG_ERR_LEN];
	uint8_t head[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	n = pread(fd, head, sizeof(head), 0);
	close(fd);
	if (n < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (rlog_is_log(head, (size_t)n)) {
		if (rlog_open(log, path, fn, ctx, err, errlen))
			return -1;
		return RESULTS_LOG_OPENED;
	}
	if (init == RESULTS_INIT_NO) {
		snprintf(err, errlen,
			 "%s holds no results log (iomatrix.results_init=1 makes it one)", path);
		return -1;
	}
	if (rlog_init(path, run_id, 0, init == RESULTS_INIT_FORCE ? RLOG_INIT_OVERWRITE : 0, why,
		      sizeof(why))) {
		snprintf(err, errlen, "%s%s", why,
			 init == RESULTS_INIT_FORCE ? "" : " (iomatrix.results_init=force)");
		return -1;
	}
	if (rlog_open(log, path, fn, ctx, err, errlen))
		return -1;
	return RESULTS_LOG_INITIALISED;
}

int results_write(struct results_channels *c, const struct rlog_entry *e)
{
	char err[RLOG_ERR_LEN];
	int ret = 0;

	/* The log first (results_out.h): a record on a console is on the disk too. */
	if (c->have_log && rlog_append(&c->log, e, err, sizeof(err))) {
		con_say("results: record %u: results log: %s", e->seq, err);
		ret = -1;
	}
	for (size_t i = 0; i < c->nserial; i++) {
		struct results_serial *s = &c->serial[i];
		int r;

		if (s->dropped)
			continue;
		r = results_out_lines(s->fd, s->kmsg_level, e);
		if (!r) {
			s->failures = 0;
			continue;
		}
		ret = -1;
		s->dropped = ++s->failures >= RESULTS_GIVE_UP;
		con_say("results: record %u: %s: %s%s", e->seq, s->spec->word, strerror(-r),
			s->dropped ? "; failed 3 times in a row: no more records go there" : "");
	}
	return ret;
}

void results_describe(const struct results_channels *c, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	if (c->have_log)
		used += (size_t)snprintf(buf, len, "%s (%s)", c->spec.ch[c->spec.disk].word,
					 c->log.path);
	for (size_t i = 0; i < c->nserial && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
					 c->serial[i].spec->word);
	if (!used)
		snprintf(buf, len, "none");
}

void results_close(struct results_channels *c)
{
	for (size_t i = 0; i < c->nserial; i++)
		if (c->serial[i].fd > STDERR_FILENO)
			close(c->serial[i].fd);
	c->nserial = 0;
	if (c->have_log)
		rlog_close(&c->log);
	c->have_log = false;
}
