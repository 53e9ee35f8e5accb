// SPDX-License-Identifier: GPL-2.0
/* vmstat, diskstats and CPU counters around a workload; see sysstat.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner/machine_info.h"
#include "runner/run/sysstat.h"

static const char *const diskstat_field_names[DISKSTAT_FIELDS] = {
	"reads",	   "reads_merged",	"sectors_read",	    "read_ticks_ms",
	"writes",	   "writes_merged",	"sectors_written",  "write_ticks_ms",
	"in_flight",	   "io_ticks_ms",	"time_in_queue_ms", "discards",
	"discards_merged", "sectors_discarded", "discard_ticks_ms", "flushes",
	"flush_ticks_ms",
};
#define DISKSTAT_IN_FLIGHT 8 /* a gauge, not a counter */

static const char *const cpu_field_names[CPUSTAT_FIELDS] = {
	"user_pct",   "nice_pct", "system_pct",	 "idle_pct",
	"iowait_pct", "irq_pct",  "softirq_pct", "steal_pct",
};

/* Calls fn for each line of text (NUL-terminated copies, at most 511 bytes). */
static void each_line(const char *text, void (*fn)(void *ctx, const char *line), void *ctx)
{
	char line[512];

	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		if (n >= sizeof(line))
			n = sizeof(line) - 1;
		memcpy(line, p, n);
		line[n] = '\0';
		fn(ctx, line);
		p = nl ? nl + 1 : NULL;
	}
}

static void vmstat_line(void *ctx, const char *line)
{
	struct vmstat_snap *s = ctx;
	char name[48];
	unsigned long long v;

	if (s->n < VMSTAT_MAX && sscanf(line, "%47s %llu", name, &v) == 2) {
		strcpy(s->name[s->n], name);
		s->value[s->n++] = v;
	}
}

int vmstat_parse(const char *text, struct vmstat_snap *out)
{
	out->n = 0;
	each_line(text, vmstat_line, out);
	return out->n ? 0 : -1;
}

static void diskstat_line(void *ctx, const char *line)
{
	struct diskstat_snap *s = ctx;
	unsigned long long f[DISKSTAT_FIELDS];
	unsigned maj, min;
	char name[64];
	int n;

	memset(f, 0, sizeof(f));
	n = sscanf(line,
		   "%u %u %63s %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu "
		   "%llu %llu %llu %llu",
		   &maj, &min, name, &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7], &f[8],
		   &f[9], &f[10], &f[11], &f[12], &f[13], &f[14], &f[15], &f[16]);
	if (n < 3 + 11)
		return;
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->name[i], name)) {
			s->found[i] = true;
			s->nfields[i] = n - 3;
			for (int k = 0; k < DISKSTAT_FIELDS; k++)
				s->f[i][k] = f[k];
		}
}

void diskstats_parse(const char *text, const char *const *devs, size_t ndevs,
		     struct diskstat_snap *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < ndevs && i < SYSSTAT_DEVS_MAX; i++)
		snprintf(out->name[out->n++], sizeof(out->name[0]), "%s", devs[i]);
	each_line(text, diskstat_line, out);
}

int cpustat_parse(const char *text, struct cpustat_snap *out)
{
	unsigned long long f[CPUSTAT_FIELDS];

	memset(out, 0, sizeof(*out));
	if (strncmp(text, "cpu ", 4) ||
	    sscanf(text + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1], &f[2], &f[3],
		   &f[4], &f[5], &f[6], &f[7]) != CPUSTAT_FIELDS)
		return -1;
	for (int i = 0; i < CPUSTAT_FIELDS; i++)
		out->f[i] = f[i];
	out->found = true;
	return 0;
}

void sysstat_read(struct sysstat *s, const char *const *devs, size_t ndevs)
{
	static char buf[65536];

	if (read_text_file("/proc/vmstat", buf, sizeof(buf)) || vmstat_parse(buf, &s->vm))
		s->vm.n = 0;
	if (read_text_file("/proc/diskstats", buf, sizeof(buf)))
		buf[0] = '\0';
	diskstats_parse(buf, devs, ndevs, &s->disk);
	if (read_text_file("/proc/stat", buf, sizeof(buf)) || cpustat_parse(buf, &s->cpu))
		s->cpu.found = false;
}

static void write_vmstat(struct jw *j, const struct vmstat_snap *a, const struct vmstat_snap *b)
{
	if (!a->n || !b->n) {
		jw_null(j, "vmstat_delta");
		return;
	}
	jw_obj_begin(j, "vmstat_delta");
	for (size_t i = 0; i < b->n; i++) {
		/* Same kernel, same order: look at the same index first. */
		size_t k = i < a->n && !strcmp(a->name[i], b->name[i]) ? i : a->n;

		for (size_t s = 0; k == a->n && s < a->n; s++)
			if (!strcmp(a->name[s], b->name[i]))
				k = s;
		if (k < a->n && b->value[i] != a->value[k])
			jw_int(j, b->name[i], (long long)(b->value[i] - a->value[k]));
	}
	jw_obj_end(j);
}

static void write_diskstats(struct jw *j, const struct diskstat_snap *a,
			    const struct diskstat_snap *b)
{
	jw_obj_begin(j, "diskstats_delta");
	for (size_t i = 0; i < b->n && i < a->n; i++) {
		if (!a->found[i] || !b->found[i]) {
			jw_null(j, b->name[i]);
			continue;
		}
		jw_obj_begin(j, b->name[i]);
		for (int k = 0; k < DISKSTAT_FIELDS; k++) {
			if (k >= b->nfields[i])
				jw_null(j, diskstat_field_names[k]);
			else if (k == DISKSTAT_IN_FLIGHT)
				jw_uint(j, diskstat_field_names[k], b->f[i][k]);
			else
				jw_int(j, diskstat_field_names[k],
				       (long long)(b->f[i][k] - a->f[i][k]));
		}
		jw_obj_end(j);
	}
	jw_obj_end(j);
}

static void write_cpu(struct jw *j, const struct cpustat_snap *a, const struct cpustat_snap *b)
{
	uint64_t d[CPUSTAT_FIELDS], total = 0;
	long hz = sysconf(_SC_CLK_TCK);

	if (!a->found || !b->found) {
		jw_null(j, "cpu");
		return;
	}
	for (int i = 0; i < CPUSTAT_FIELDS; i++) {
		d[i] = b->f[i] - a->f[i];
		total += d[i];
	}
	jw_obj_begin(j, "cpu");
	for (int i = 0; i < CPUSTAT_FIELDS; i++)
		jw_double(j, cpu_field_names[i], total ? 100.0 * (double)d[i] / (double)total : 0);
	/* CPU seconds measured, all CPUs together: a short workload gives few ticks. */
	jw_double(j, "cpu_seconds", hz > 0 ? (double)total / (double)hz : 0);
	jw_obj_end(j);
}

void sysstat_write_delta(struct jw *j, const struct sysstat *a, const struct sysstat *b)
{
	write_vmstat(j, &a->vm, &b->vm);
	write_diskstats(j, &a->disk, &b->disk);
	write_cpu(j, &a->cpu, &b->cpu);
}
