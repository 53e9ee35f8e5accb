// SPDX-License-Identifier: GPL-2.0
/*
 * The physical limit of bench case (a): pread(2) of 4 KiB at random
 * aligned offsets of a file, nothing else, for a number of seconds. Prints
 * "ios N seconds S".
 *   pread_loop FILE SECONDS
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	static char buf[4096] __attribute__((aligned(4096)));
	uint64_t x = 88172645463325252ULL, blocks, ios = 0, t0, end, t;
	struct stat st;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: %s FILE SECONDS\n", argv[0]);
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		perror(argv[1]);
		return 1;
	}
	blocks = (uint64_t)st.st_size / sizeof(buf);
	t0 = now_ns();
	end = t0 + (uint64_t)(atof(argv[2]) * 1e9);
	do {
		/* Check the clock every 1024 IOs only: the loop is the limit, not its timer. */
		for (int i = 0; i < 1024; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			if (pread(fd, buf, sizeof(buf), (off_t)((x % blocks) * sizeof(buf))) !=
			    (ssize_t)sizeof(buf)) {
				perror("pread");
				return 1;
			}
		}
		ios += 1024;
		t = now_ns();
	} while (t < end);
	printf("ios %llu seconds %.6f\n", (unsigned long long)ios, (double)(t - t0) / 1e9);
	return 0;
}
