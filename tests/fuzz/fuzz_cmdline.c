// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz the kernel command line reader: any text gives 0 or one error line,
 * and whatever it accepted must format and parse back to the same settings
 * (compared as formatted: bytes after a string's NUL are not settings).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runner/cmdline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct appliance_config a, b;
	char line[4096], err[CMDLINE_ERR_LEN], shown[2048], again[4096], shown_a[2048],
		shown_b[2048];

	if (size >= sizeof(line))
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	cmdline_defaults(&a);
	if (cmdline_parse(&a, line, err, sizeof(err))) {
		if (!err[0] || strchr(err, '\n'))
			abort();
		return 0;
	}
	/* "k=v k=v" back through the parser, each key prefixed. */
	cmdline_format(&a, shown, sizeof(shown));
	memcpy(shown_a, shown, sizeof(shown));
	again[0] = '\0';
	for (char *save, *w = strtok_r(shown, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		strcat(again, " " CMDLINE_PREFIX);
		strcat(again, w);
	}
	cmdline_defaults(&b);
	if (cmdline_parse(&b, again, err, sizeof(err)))
		abort();
	cmdline_format(&b, shown_b, sizeof(shown_b));
	if (strcmp(shown_a, shown_b))
		abort();
	return 0;
}
