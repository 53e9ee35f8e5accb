// SPDX-License-Identifier: GPL-2.0
/* Writing one record; see record.h and docs/records.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/run/record.h"

static void str_or_null(struct jw *j, const char *key, const char *s)
{
	if (s && s[0])
		jw_str(j, key, s);
	else
		jw_null(j, key);
}

static void write_cell(struct jw *j, const struct record_run *run, const struct cell *c)
{
	jw_obj_begin(j, "cell");
	jw_int(j, "index", c->index);
	jw_int(j, "count", run->cell_count);
	jw_str(j, "key", c->key);
	jw_obj_begin(j, "dims");
	for (int i = 0; i < c->ndims; i++)
		jw_str(j, c->dims[i].name, c->dims[i].value);
	jw_obj_end(j);
	jw_obj_end(j);
}

static void write_error(struct jw *j, const struct cell_result *r)
{
	str_or_null(j, "error", r->status == CELL_OK ? NULL : r->error);
	if (!r->has_detail) {
		jw_null(j, "error_detail");
	} else {
		jw_obj_begin(j, "error_detail");
		jw_str(j, "step", r->detail.step);
		/* A crash ran no command of ours and left no output to show. */
		if (r->status == CELL_CRASHED)
			jw_null(j, "command");
		else
			jw_str(j, "command", r->detail.command);
		jw_str(j, "status", r->detail.status);
		if (r->status == CELL_CRASHED)
			jw_null(j, "output");
		else
			jw_str(j, "output", r->detail.tail);
		jw_obj_end(j);
	}
	str_or_null(j, "teardown_error", r->teardown_error);
}

static void write_crash(struct jw *j, const struct cell_result *r)
{
	if (r->status != CELL_CRASHED) {
		jw_null(j, "crash");
		return;
	}
	jw_obj_begin(j, "crash");
	jw_uint(j, "boot", r->crash.boot);
	jw_str(j, "stage", r->crash.stage);
	str_or_null(j, "step", r->crash.step);
	jw_double(j, "since_unix", r->crash.since_unix);
	jw_uint(j, "recorded_boot", r->crash.found_boot);
	jw_obj_end(j);
}

static void write_settings(struct jw *j, const struct cell *c)
{
	jw_obj_begin(j, "settings");
	jw_str(j, "fs", fs_info(c->fs)->name);
	jw_str(j, "mkfs_options", c->mkfs_options);
	jw_str(j, "mount_options", c->mount_options);
	jw_str(j, "array", array_info(c->array)->name);
	jw_int(j, "disks", c->disks);
	jw_uint(j, "chunk_bytes", c->chunk_bytes);
	jw_str(j, "resync", c->resync == RESYNC_WAIT ? "wait" : "assume-clean");
	if (c->readahead_sectors >= 0)
		jw_int(j, "readahead_sectors", c->readahead_sectors);
	else
		jw_null(j, "readahead_sectors");
	str_or_null(j, "scheduler", c->scheduler);
	jw_str(j, "workload", c->workload.name);
	jw_int(j, "repeats", c->repeats);
	jw_double(j, "time_limit_s", c->time_limit_s);
	jw_double(j, "estimate_s", c->estimate_s);
	jw_obj_end(j);
}

static void write_disks(struct jw *j, const struct cell_result *r)
{
	if (!r->ndisks) {
		jw_null(j, "disks");
		return;
	}
	jw_arr_begin(j, "disks");
	for (int i = 0; i < r->ndisks; i++) {
		const struct disk *d = &r->disks[i].d->disk;

		jw_obj_begin(j, NULL);
		jw_str(j, "name", d->name);
		str_or_null(j, "model", d->model);
		str_or_null(j, "serial", d->serial);
		jw_uint(j, "size_bytes", d->size_bytes);
		jw_str(j, "transport", d->transport);
		jw_bool(j, "rotational", d->rotational);
		str_or_null(j, "by_path", r->disks[i].d->by_path);
		str_or_null(j, "scheduler", r->disks[i].scheduler);
		jw_obj_end(j);
	}
	jw_arr_end(j);
}

static void write_array(struct jw *j, const struct cell_result *r)
{
	const struct cell *c = r->cell;
	bool built = r->has_array && r->array.create_cmd[0];

	if (!r->ndisks) {
		jw_null(j, "array");
		return;
	}
	jw_obj_begin(j, "array");
	jw_str(j, "level", array_info(c->array)->name);
	str_or_null(j, "device", r->has_array ? r->array.name : NULL);
	jw_arr_begin(j, "members");
	for (int i = 0; i < r->ndisks; i++)
		jw_str(j, NULL, r->disks[i].d->disk.name);
	jw_arr_end(j);
	jw_uint(j, "chunk_kb", array_info(c->array)->has_chunk ? c->chunk_bytes / 1024 : 0);
	jw_str(j, "resync", c->resync == RESYNC_WAIT ? "wait" : "assume-clean");
	if (r->has_array && r->array.resync_s >= 0)
		jw_double(j, "resync_s", r->array.resync_s);
	else
		jw_null(j, "resync_s");
	str_or_null(j, "metadata", r->has_array ? "1.2" : NULL);
	str_or_null(j, "create_command", built ? r->array.create_cmd : NULL);
	str_or_null(j, "mdstat", r->has_array ? r->array.mdstat : NULL);
	jw_obj_end(j);
}

static void write_fs(struct jw *j, const struct cell_result *r)
{
	const struct cell *c = r->cell;

	if (!r->nfs) {
		jw_null(j, "fs");
		return;
	}
	jw_obj_begin(j, "fs");
	jw_str(j, "type", fs_info(c->fs)->name);
	jw_str(j, "mkfs_options", c->mkfs_options);
	jw_str(j, "mount_options", c->mount_options);
	jw_arr_begin(j, "filesystems");
	for (int i = 0; i < r->nfs; i++) {
		const struct cell_fs *f = &r->fs[i];

		jw_obj_begin(j, NULL);
		jw_str(j, "device", f->dev);
		jw_str(j, "mount_point", f->mnt);
		str_or_null(j, "mkfs_command", f->mkfs_cmd);
		if (f->readahead >= 0)
			jw_int(j, "readahead_sectors", f->readahead);
		else
			jw_null(j, "readahead_sectors");
		jw_obj_end(j);
	}
	jw_arr_end(j);
	jw_obj_end(j);
}

static void write_times(struct jw *j, const struct cell_result *r)
{
	bool skipped = r->status == CELL_SKIPPED || r->status == CELL_CRASHED;

	jw_obj_begin(j, "times");
	jw_double(j, "start_unix", r->start_unix);
	if (skipped) {
		jw_null(j, "setup_s");
		jw_null(j, "workload_s");
		jw_null(j, "teardown_s");
		jw_null(j, "steps");
	} else {
		jw_double(j, "setup_s", r->setup_s);
		if (r->ran)
			jw_double(j, "workload_s", r->workload_s);
		else
			jw_null(j, "workload_s");
		jw_double(j, "teardown_s", r->teardown_s);
		jw_obj_begin(j, "steps");
		for (int i = 0; i < r->nsteps; i++)
			jw_double(j, r->steps[i].name, r->steps[i].seconds);
		jw_obj_end(j);
	}
	jw_obj_end(j);
}

static void write_workload(struct jw *j, const struct cell_result *r)
{
	const struct cell *c = r->cell;
	const char *kind = c->workload.kind == WORKLOAD_DD ? "dd" : "fio";

	jw_obj_begin(j, "workload");
	jw_str(j, "kind", kind);
	jw_str(j, "name", c->workload.name);
	jw_str(j, "summary", c->workload.summary);
	str_or_null(j, "command", r->ran ? r->w.command : NULL);
	if (r->w.json)
		jw_raw(j, kind, r->w.json);
	else
		jw_null(j, kind);
	jw_obj_end(j);
	if (!r->w.json) {
		jw_null(j, "headline");
		return;
	}
	jw_obj_begin(j, "headline");
	jw_double(j, "read_bw_bytes", r->w.h.read_bw);
	jw_double(j, "read_iops", r->w.h.read_iops);
	jw_double(j, "write_bw_bytes", r->w.h.write_bw);
	jw_double(j, "write_iops", r->w.h.write_iops);
	jw_obj_end(j);
}

char *record_build(const struct record_run *run, uint32_t seq, const struct cell_result *r,
		   size_t *len)
{
	const struct cell *c = r->cell;
	char *buf = NULL;
	size_t size = 0;
	struct jw j;
	FILE *f = open_memstream(&buf, &size);

	if (!f)
		return NULL;
	jw_init(&j, f, false);
	jw_obj_begin(&j, NULL);
	jw_int(&j, "iomatrix_record", RECORD_VERSION);
	jw_str(&j, "run_id", run->run_id);
	jw_uint(&j, "seq", seq);
	jw_uint(&j, "boot", run->boot ? run->boot : 1);
	jw_str(&j, "matrix", run->matrix);
	jw_double(&j, "scale", run->scale);
	write_cell(&j, run, c);
	jw_int(&j, "repeat", r->repeat);
	jw_str(&j, "status", cell_status_names[r->status]);
	write_error(&j, r);
	write_crash(&j, r);
	machine_info_write(&j, run->machine);
	write_settings(&j, c);
	write_disks(&j, r);
	write_array(&j, r);
	write_fs(&j, r);
	write_times(&j, r);
	write_workload(&j, r);
	if (r->have_stats) {
		sysstat_write_delta(&j, r->before, r->after);
	} else {
		jw_null(&j, "vmstat_delta");
		jw_null(&j, "diskstats_delta");
		jw_null(&j, "cpu");
	}
	jw_obj_end(&j);
	if (jw_end(&j) || fclose(f)) {
		free(buf);
		return NULL;
	}
	*len = size;
	return buf;
}
