// SPDX-License-Identifier: GPL-2.0
/* Holding idle CPUs in their polling state; see idle_poll.h. */
#include "idle_poll.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define QOS_FILE "/dev/cpu_dma_latency"

int idle_poll_hold(char *why, size_t whylen)
{
	int32_t zero_us = 0;
	int fd = open(QOS_FILE, O_WRONLY | O_CLOEXEC);

	if (fd < 0) {
		snprintf(why, whylen, "%s: %s", QOS_FILE, strerror(errno));
		return -1;
	}
	/* The binary form: a 4-byte value in microseconds. */
	if (write(fd, &zero_us, sizeof(zero_us)) != (ssize_t)sizeof(zero_us)) {
		snprintf(why, whylen, "%s: %s", QOS_FILE, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}
