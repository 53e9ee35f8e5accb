// SPDX-License-Identifier: GPL-2.0
/* psync: pread(2)/pwrite(2), one IO at a time, done inside queue. */
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runner/engine/engine.h"

#if defined(__x86_64__)
/*
 * The system call itself, without libc's wrapper: musl makes pread a
 * thread-cancellation point (about 30 instructions around the syscall),
 * and workers are never cancelled. Returns the result or -errno.
 */
static inline long sys_rw(long nr, int fd, void *buf, unsigned long len, unsigned long off)
{
	register long r10 __asm__("r10") = (long)off;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"((long)fd), "S"(buf), "d"(len), "r"(r10)
			 : "rcx", "r11", "memory");
	return ret;
}
#define do_pread(fd, buf, len, off)  sys_rw(SYS_pread64, fd, buf, len, off)
#define do_pwrite(fd, buf, len, off) sys_rw(SYS_pwrite64, fd, buf, len, off)
#else
static inline long errno_result(ssize_t r)
{
	return r < 0 ? -errno : r;
}
#define do_pread(fd, buf, len, off)  errno_result(pread(fd, buf, len, (off_t)(off)))
#define do_pwrite(fd, buf, len, off) errno_result(pwrite(fd, buf, len, (off_t)(off)))
#endif

static int psync_setup(struct engine *e, const struct engine_params *p, char *err, size_t errlen)
{
	(void)e;
	(void)p;
	(void)err;
	(void)errlen;
	return 0;
}

static int psync_queue(struct engine *e, struct io_u *u)
{
	(void)e;
	if (u->ddir == DDIR_READ)
		u->result = do_pread(u->fd, u->buf, u->len, u->offset);
	else
		u->result = do_pwrite(u->fd, u->buf, u->len, u->offset);
	return ENGINE_COMPLETED;
}

static void psync_teardown(struct engine *e)
{
	(void)e;
}

const struct engine_ops engine_psync_ops = {
	.name = "psync",
	.sync = 1,
	.setup = psync_setup,
	.queue = psync_queue,
	.teardown = psync_teardown,
};
