// SPDX-License-Identifier: GPL-2.0
/* The metric table read from records in the format of docs/records.md. */
#include <math.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "check.h"
#include "compare/metrics.h"

#define NEAR(a, b, tol) (fabs((a) - (b)) <= (tol))

/* Two jobs of a randread: no write IOs, so no write metrics. */
static const char fio_record[] =
	"{\"iomatrix_record\":1,\"status\":\"ok\",\"error\":null,"
	"\"cell\":{\"key\":\"fs=ext4 rw=randread\"},\"repeat\":0,"
	"\"disks\":[{\"name\":\"vda\"},{\"name\":\"vdb\"}],"
	"\"diskstats_delta\":{\"vda\":{\"sectors_written\":4},\"vdb\":{\"sectors_written\":4},"
	"\"md0\":{\"sectors_written\":1000}},"
	"\"cpu\":{\"user_pct\":1.5,\"system_pct\":20.25},"
	"\"workload\":{\"kind\":\"fio\",\"fio\":{\"jobs\":["
	"{\"jobname\":\"a\",\"job_runtime\":1000,\"usr_cpu\":10,\"sys_cpu\":30,"
	" \"read\":{\"io_bytes\":4096000,\"bw_bytes\":4096000,\"iops\":1000,"
	"  \"total_ios\":1000,\"runtime\":1000,"
	"  \"lat_ns\":{\"mean\":100000,\"N\":1000},"
	"  \"clat_ns\":{\"mean\":90000,\"percentile\":"
	"   {\"50.000000\":80000,\"99.000000\":300000,\"99.900000\":500000}}},"
	" \"write\":{\"io_bytes\":0,\"bw_bytes\":0,\"iops\":0,\"total_ios\":0,\"runtime\":0,"
	"  \"lat_ns\":{\"mean\":0,\"N\":0}},"
	" \"trim\":{\"total_ios\":0}},"
	"{\"jobname\":\"b\",\"job_runtime\":1000,\"usr_cpu\":10,\"sys_cpu\":10,"
	" \"read\":{\"io_bytes\":12288000,\"bw_bytes\":12288000,\"iops\":3000,"
	"  \"total_ios\":3000,\"runtime\":1000,"
	"  \"lat_ns\":{\"mean\":20000,\"N\":3000},"
	"  \"clat_ns\":{\"mean\":19000,\"percentile\":"
	"   {\"99.000000\":50000,\"1.000000\":1000,\"50.000000\":15000}}},"
	" \"write\":{\"io_bytes\":0,\"bw_bytes\":0,\"iops\":0,\"total_ios\":0,\"runtime\":0,"
	"  \"lat_ns\":{\"mean\":0,\"N\":0}},"
	" \"trim\":{\"total_ios\":0}}]}}}";

static const char dd_record[] =
	"{\"iomatrix_record\":1,\"status\":\"ok\",\"error\":null,"
	"\"disks\":[{\"name\":\"vda\"}],\"diskstats_delta\":{\"vda\":{\"sectors_written\":3000}},"
	"\"workload\":{\"kind\":\"dd\",\"dd\":{\"writers\":1,\"io_bytes\":1024000,"
	"\"elapsed_ns\":1000000000,\"bw_bytes\":1024000,\"bw\":1000}}}";

static bool get(json_object *rec, const char *name, double *v)
{
	const struct metric *m = metric_find(name);

	return m && metric_get(m, rec, v);
}

static void test_fio_sums_and_means(void)
{
	json_object *rec = json_tokener_parse(fio_record);
	double v;

	CHECK(rec != NULL);
	CHECK(get(rec, "read_bw", &v) && v == 16384000);
	CHECK(get(rec, "read_iops", &v) && v == 4000);
	/* IO-weighted: (1000 x 100 us + 3000 x 20 us) / 4000. */
	CHECK(get(rec, "read_lat_mean", &v) && NEAR(v, 40000, 1e-6));
	/* Percentiles come from the job with most IOs (b). */
	CHECK(get(rec, "read_clat_p99", &v) && v == 50000);
	CHECK(get(rec, "read_clat_p50", &v) && v == 15000);
	CHECK(!get(rec, "read_clat_p99.9", &v));
	/* (40 % + 20 %) of 1 s over 4000 IOs. */
	CHECK(get(rec, "cpu_per_io", &v) && NEAR(v, 0.6e9 / 4000, 1e-6));
	CHECK(!get(rec, "write_bw", &v));
	CHECK(!get(rec, "write_lat_mean", &v));
	CHECK(!get(rec, "dd_bw", &v));
	CHECK(get(rec, "sys_cpu", &v) && v == 20.25);
	/* A randread wrote nothing: no write amplification to speak of. */
	CHECK(!get(rec, "write_amp", &v));
	json_object_put(rec);
}

static void test_dd(void)
{
	json_object *rec = json_tokener_parse(dd_record);
	double v;

	CHECK(get(rec, "dd_bw", &v) && v == 1024000);
	CHECK(!get(rec, "read_bw", &v));
	CHECK(!get(rec, "cpu_per_io", &v));
	/* 3000 sectors of 512 bytes for 1024000 bytes written. */
	CHECK(get(rec, "write_amp", &v) && NEAR(v, 1.5, 1e-12));
	json_object_put(rec);
}

static void test_not_ok_has_no_metrics(void)
{
	json_object *rec = json_tokener_parse(dd_record);
	double v;

	json_object_object_add(rec, "status", json_object_new_string("timeout"));
	CHECK(!get(rec, "dd_bw", &v));
	json_object_put(rec);
}

static void test_percentile_list(void)
{
	json_object *rec = json_tokener_parse(fio_record);
	double pct[8], ns[8];
	size_t n = metric_clat_percentiles(rec, "read", pct, ns, 8);

	CHECK_EQ_INT(n, 3);
	CHECK(pct[0] == 1 && pct[1] == 50 && pct[2] == 99);
	CHECK(ns[0] == 1000 && ns[2] == 50000);
	CHECK_EQ_INT(metric_clat_percentiles(rec, "write", pct, ns, 8), 0);
	CHECK_EQ_INT(metric_clat_percentiles(rec, "read", pct, ns, 2), 2);
	json_object_put(rec);
}

static void test_table(void)
{
	for (size_t i = 0; i < metric_count; i++) {
		CHECK(metric_table[i].name && metric_table[i].from && metric_table[i].extract);
		CHECK(metric_find(metric_table[i].name) == &metric_table[i]);
		/* Rates are the metrics averaged harmonically, and higher is better for them. */
		if (metric_table[i].mean == MEAN_HARMONIC)
			CHECK(metric_table[i].better == BETTER_HIGHER);
	}
	CHECK(metric_find("nope") == NULL);
}

int main(void)
{
	RUN_TEST(test_fio_sums_and_means);
	RUN_TEST(test_dd);
	RUN_TEST(test_not_ok_has_no_metrics);
	RUN_TEST(test_percentile_list);
	RUN_TEST(test_table);
	CHECK_EXIT();
}
