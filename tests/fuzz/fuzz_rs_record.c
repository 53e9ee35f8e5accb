// SPDX-License-Identifier: GPL-2.0
/*
 * Records come from the serial log of a machine that may have crashed: any
 * bytes. Parse them as a record, then read every metric, the percentiles
 * and the full report from whatever parsed.
 */
#include <stdint.h>
#include <stdio.h>

#include "compare/metrics.h"
#include "compare/report_full.h"
#include "records/rs_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rs_record rec;
	struct rs_dim *dims;
	size_t ndims;
	char err[256];
	double v, pct[32], ns[32];
	static FILE *sink;

	if (!sink)
		sink = fopen("/dev/null", "w");
	if (rs_parse_record((const char *)data, size, &rec, err, sizeof(err)))
		return 0;
	if (rs_parse_key(rec.key, &dims, &ndims) == 0)
		rs_free_dims(dims, ndims);
	for (size_t i = 0; i < metric_count; i++)
		metric_get(&metric_table[i], rec.root, &v);
	metric_clat_percentiles(rec.root, "read", pct, ns, 32);
	metric_clat_percentiles(rec.root, "write", pct, ns, 32);
	if (sink)
		report_full_record(sink, &rec);
	json_object_put(rec.root);
	return 0;
}
