// SPDX-License-Identifier: GPL-2.0
/* Probing a device for signatures and zeroing them; see wipe.h. */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/disk_signature.h"
#include "runner/setup/wipe.h"

/* A block device's size from BLKGETSIZE64, a file's from fstat. */
static int device_size(int fd, uint64_t *size)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (S_ISBLK(st.st_mode))
		return ioctl(fd, BLKGETSIZE64, size) ? -errno : 0;
	*size = (uint64_t)st.st_size;
	return 0;
}

static int read_at(int fd, uint8_t *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, buf + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		done += (size_t)n;
	}
	memset(buf + done, 0, len - done);
	return 0;
}

int wipe_probe(const char *path, const char **found, uint64_t *size, char *err, size_t errlen)
{
	static uint8_t head[DISK_SIGNATURE_SPAN], tail[DISK_SIGNATURE_TAIL_SPAN];
	size_t tail_len;
	int ret, fd = open(path, O_RDONLY | O_CLOEXEC);

	*found = NULL;
	if (fd < 0) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	ret = device_size(fd, size);
	/* md writes its members below their page cache: read what is on the disk. */
	ioctl(fd, BLKFLSBUF, 0);
	if (!ret)
		ret = read_at(fd, head, sizeof(head), 0);
	tail_len = *size < sizeof(tail) ? (size_t)*size : sizeof(tail);
	if (!ret)
		ret = read_at(fd, tail, tail_len, *size - tail_len);
	close(fd);
	if (ret) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(-ret));
		return -1;
	}
	*found = disk_signature_find(head, *size < sizeof(head) ? (size_t)*size : sizeof(head));
	if (!*found)
		*found = disk_signature_find_end(tail, tail_len, *size);
	return 0;
}

static int zero_at(int fd, const uint8_t *zeros, uint64_t off, uint64_t len)
{
	while (len) {
		size_t n = len > WIPE_SPAN ? WIPE_SPAN : (size_t)len;
		ssize_t w = pwrite(fd, zeros, n, (off_t)off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		off += (uint64_t)w;
		len -= (uint64_t)w;
	}
	return 0;
}

int wipe_device(const char *path, const char *step, struct step_error *e)
{
	uint64_t size = 0, span;
	uint8_t *zeros = calloc(1, WIPE_SPAN);
	char what[STEP_COMMAND_MAX], why[128];
	int ret, fd;

	snprintf(what, sizeof(what), "zero the signature areas of %s", path);
	if (!zeros) {
		step_fail(e, step, what, "out of memory", NULL);
		return -1;
	}
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	ret = device_size(fd, &size);
	span = size < WIPE_SPAN ? size : WIPE_SPAN;
	if (!ret)
		ret = zero_at(fd, zeros, 0, span);
	if (!ret && size >= WIPE_BTRFS_MIRROR + WIPE_MIRROR_LEN)
		ret = zero_at(fd, zeros, WIPE_BTRFS_MIRROR, WIPE_MIRROR_LEN);
	if (!ret)
		ret = zero_at(fd, zeros, size - span, span);
	if (!ret && fsync(fd))
		ret = -errno;
	ioctl(fd, BLKFLSBUF, 0);
	close(fd);
out:
	free(zeros);
	if (!ret)
		return 0;
	snprintf(why, sizeof(why), "%s", strerror(-ret));
	step_fail(e, step, what, why, NULL);
	return -1;
}
