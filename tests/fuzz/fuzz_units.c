// SPDX-License-Identifier: GPL-2.0
/* Fuzz the number, unit and expression reader with every kind of value. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[UNITS_ERR_LEN], *s = malloc(size + 1), *k;
	long double v;
	uint64_t u;
	long long i;
	double d;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	(void)units_eval(s, UNITS_SIZE, 1000, 0, &v, err, sizeof(err));
	(void)units_size(s, 1024, &u, err, sizeof(err));
	(void)units_time_us(s, 1000000000ULL, &u, err, sizeof(err));
	(void)units_int(s, 1024, &i, err, sizeof(err));
	(void)units_float(s, &d, err, sizeof(err));
	k = units_expand_keywords(s);
	free(k);
	free(s);
	return 0;
}
