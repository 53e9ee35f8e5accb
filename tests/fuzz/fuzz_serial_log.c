// SPDX-License-Identifier: GPL-2.0
/* Fuzz the serial-log reader: any bytes give facts with printable, terminated lines. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "qemu/qemu_log.h"

static void printable(const char *s, size_t cap)
{
	size_t n = strnlen(s, cap);

	if (n == cap)
		abort();
	for (size_t i = 0; i < n; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qemu_log_facts f;

	qemu_log_scan((const char *)data, size, &f);
	printable(f.fatal, sizeof(f.fatal));
	printable(f.panic, sizeof(f.panic));
	printable(f.first_oops, sizeof(f.first_oops));
	if (f.panicked != (f.panic[0] != '\0'))
		abort();
	return 0;
}
