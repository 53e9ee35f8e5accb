// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz iomatrix.results=: any text gives 0 or one error line; what it
 * accepts keeps the limits (at most RESULTS_CHANNELS_MAX channels, one
 * disk, each place once, ttys under /dev) and parses again, from its words
 * joined by commas, to the same channels.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runner/results/results_spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct results_spec a, b;
	char text[1024], again[4096], err[RESULTS_SPEC_ERR_LEN];
	int disks = 0;

	if (size >= sizeof(text))
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (results_spec_parse(text, &a, err, sizeof(err))) {
		if (!err[0] || strchr(err, '\n'))
			abort();
		return 0;
	}
	if (a.count < 1 || a.count > RESULTS_CHANNELS_MAX)
		abort();
	again[0] = '\0';
	for (size_t i = 0; i < a.count; i++) {
		const struct results_channel_spec *c = &a.ch[i];

		disks += c->kind == RESULTS_DISK;
		if (c->kind == RESULTS_SERIAL &&
		    (strncmp(c->value, "/dev/", 5) || strchr(c->value + 5, '/')))
			abort();
		if (c->kind == RESULTS_KMSG && (c->kmsg_level < 0 || c->kmsg_level > 7))
			abort();
		strcat(again, i ? "," : "");
		strcat(again, c->word);
	}
	if (disks > 1 || (disks == 1) != (a.disk >= 0))
		abort();
	if (results_spec_parse(again, &b, err, sizeof(err)) || b.count != a.count)
		abort();
	for (size_t i = 0; i < a.count; i++)
		if (a.ch[i].kind != b.ch[i].kind || a.ch[i].by != b.ch[i].by ||
		    strcmp(a.ch[i].value, b.ch[i].value) ||
		    a.ch[i].kmsg_level != b.ch[i].kmsg_level)
			abort();
	return 0;
}
