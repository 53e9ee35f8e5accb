// SPDX-License-Identifier: GPL-2.0
/* Groups, clones, threads and processes; see job_run.h. */
#include "runner/engine/job_run.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runner/clock.h"
#include "runner/engine/diskstats.h"
#include "runner/engine/engine.h"
#include "runner/engine/files.h"
#include "lib/version.h"
#include "runner/engine/worker.h"

struct slot {
	const struct job_desc *desc;
	unsigned clone;
	int groupid;
	struct worker w;
	pthread_t thread;
	pid_t pid;
	int started;
};

static void *thread_main(void *arg)
{
	worker_run(&((struct slot *)arg)->w);
	return NULL;
}

static int start_slot(struct slot *s)
{
	if (s->desc->o.thread) {
		int r = pthread_create(&s->thread, NULL, thread_main, s);

		if (r)
			return -r;
	} else {
		pid_t pid = fork();

		if (pid < 0)
			return -errno;
		if (!pid) {
			worker_run(&s->w);
			_exit(0);
		}
		s->pid = pid;
	}
	s->started = 1;
	return 0;
}

static void wait_slot(struct slot *s)
{
	int status;

	if (!s->started)
		return;
	if (s->desc->o.thread) {
		pthread_join(s->thread, NULL);
		return;
	}
	while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status) && !s->w.st->error) {
		s->w.st->error = EINTR;
		snprintf(s->w.st->errmsg, sizeof(s->w.st->errmsg), "worker killed by signal %d",
			 WTERMSIG(status));
	}
}

/* fio's group ids: a stonewall or new_group job (not the first) opens the next group. */
static int assign_groups(const struct job_set *js, struct slot *slots, size_t *nslots)
{
	int group = 0;
	size_t n = 0;

	for (size_t i = 0; i < js->njobs; i++) {
		const struct job_desc *d = &js->jobs[i];

		if (i > 0 && (d->o.stonewall || d->o.new_group))
			group++;
		for (unsigned c = 0; c < d->o.numjobs; c++) {
			slots[n].desc = d;
			slots[n].clone = c;
			slots[n].groupid = group;
			slots[n].w.o = &d->o;
			slots[n].w.clone = c;
			slots[n].w.seq = (unsigned)n;
			n++;
		}
	}
	*nslots = n;
	return group + 1;
}

static int copy_kvs(const struct job_kvs *in, struct jr_kv **out, size_t *n)
{
	*out = calloc(in->n ? in->n : 1, sizeof(**out));
	*n = 0;
	if (!*out)
		return -1;
	for (size_t i = 0; i < in->n; i++) {
		(*out)[i].key = strdup(in->v[i].key);
		(*out)[i].value = in->v[i].value ? strdup(in->v[i].value) : NULL;
		*n = i + 1;
		if (!(*out)[i].key || (in->v[i].value && !(*out)[i].value))
			return -1;
	}
	return 0;
}

/* One report per clone, or one per job and group with group_reporting, as fio. */
static int build_results(const struct job_set *js, struct slot *slots, size_t nslots,
			 struct jr_run *out)
{
	struct job_stats **members = calloc(nslots, sizeof(*members));
	int rc = -1;

	out->jobs = calloc(nslots, sizeof(*out->jobs));
	if (!members || !out->jobs)
		goto done;
	for (size_t i = 0; i < nslots;) {
		const struct job_desc *d = slots[i].desc;
		unsigned n = 0;
		size_t j = i;

		if (d->o.group_reporting) {
			/* Every clone of every group_reporting job of this group, together. */
			while (j < nslots && slots[j].groupid == slots[i].groupid &&
			       slots[j].desc->o.group_reporting)
				members[n++] = slots[j++].w.st;
		} else {
			members[n++] = slots[j++].w.st;
		}
		struct jr_job *jr = &out->jobs[out->njobs++];

		if (stats_finalize(members, n, &d->o, (js->output_format & OUTPUT_JSON_PLUS) != 0,
				   jr))
			goto done;
		jr->groupid = slots[i].groupid;
		jr->name = strdup(d->o.name);
		jr->description = d->o.description ? strdup(d->o.description) : NULL;
		jr->end_time = time(NULL);
		if (!jr->name || (d->o.description && !jr->description) ||
		    copy_kvs(&d->kv, &jr->opts, &jr->nopts))
			goto done;
		i = j;
	}
	rc = copy_kvs(&js->global_kv, &out->global_opts, &out->nglobal);
done:
	free(members);
	return rc;
}

/* The devices under every job's files, for disk_util. */
static void watch_disks(const struct job_set *js, struct slot *slots, size_t nslots,
			struct disk_watch *dw)
{
	(void)js;
	for (size_t i = 0; i < nslots; i++) {
		struct job_files jf;
		char err[256];

		if (engine_find(slots[i].w.o->ioengine)->diskless ||
		    files_name(slots[i].w.o, slots[i].clone, &jf, err, sizeof(err)))
			continue;
		for (unsigned f = 0; f < jf.n; f++) {
			struct stat st;
			char *slash;

			if (!stat(jf.f[f].path, &st)) {
				disk_watch_add(dw, S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev);
				continue;
			}
			/* Not created yet: the filesystem of its directory. */
			slash = strrchr(jf.f[f].path, '/');
			if (slash) {
				*slash = '\0';
				if (!stat(jf.f[f].path, &st))
					disk_watch_add(dw, st.st_dev);
			} else if (!stat(".", &st)) {
				disk_watch_add(dw, st.st_dev);
			}
		}
		files_free(&jf);
	}
}

/*
 * Before any file is laid out: can each job's engine be set up at all? A
 * kernel that refuses io_uring should cost a line, not a 10 GiB layout.
 */
static int probe_engines(const struct job_set *js, char *err, size_t errlen)
{
	static char buf[4096] __attribute__((aligned(4096)));

	for (size_t i = 0; i < js->njobs; i++) {
		const struct job_desc *d = &js->jobs[i];
		const struct engine_ops *ops = engine_find(d->o.ioengine);
		struct io_u u = { .buf = buf };
		struct job_options o = d->o;
		struct engine e = { .ops = ops };
		struct engine_params p = { .depth = 1, .pool = &u, .buf_len = sizeof(buf), .o = &o };
		char msg[256], where[512];

		/* Only the engine itself: buffers and files are registered for real later. */
		o.fixedbufs = o.registerfiles = o.sqthread_poll = o.hipri = 0;
		if (ops->setup(&e, &p, msg, sizeof(msg))) {
			job_option_origin(d, "ioengine", where, sizeof(where));
			snprintf(err, errlen, "%s: job '%s': %s", where, d->o.name, msg);
			return -1;
		}
		ops->teardown(&e);
	}
	return 0;
}

int job_run(const struct job_set *js, struct jr_run *out, char *err, size_t errlen)
{
	size_t total = 0, nslots = 0;
	struct slot *slots = NULL;
	struct job_stats *stats = MAP_FAILED;
	struct disk_watch *dw = calloc(1, sizeof(*dw));
	struct timespec now;
	int ngroups, rc = -1;

	memset(out, 0, sizeof(*out));
	if (probe_engines(js, err, errlen)) {
		free(dw);
		return -1;
	}
	for (size_t i = 0; i < js->njobs; i++)
		total += js->jobs[i].o.numjobs;
	slots = calloc(total, sizeof(*slots));
	/* Shared with forked workers; untouched pages cost no memory. */
	stats = mmap(NULL, total * sizeof(*stats), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!slots || stats == MAP_FAILED || !dw) {
		snprintf(err, errlen, "out of memory for %zu jobs", total);
		goto out;
	}
	int want_tsc = 1;

	for (size_t i = 0; i < js->njobs; i++)
		want_tsc &= js->jobs[i].o.clocksource == CLOCK_SRC_CPU;
	clock_init(want_tsc);
	ngroups = assign_groups(js, slots, &nslots);
	for (size_t i = 0; i < nslots; i++) {
		slots[i].w.st = &stats[i];
		out->threads |= (int)slots[i].desc->o.thread;
	}
	out->started = (uint32_t)nslots;
	snprintf(out->fio_version, sizeof(out->fio_version), "%s", IOMATRIX_FIO_VERSION);
	clock_gettime(CLOCK_REALTIME, &now);
	out->timestamp = now.tv_sec;
	out->timestamp_ms = (uint64_t)now.tv_sec * 1000 + (uint64_t)now.tv_nsec / 1000000;
	watch_disks(js, slots, nslots, dw);
	disk_watch_start(dw);

	for (int g = 0; g < ngroups; g++) {
		int refused = 0;

		fflush(NULL); /* forked workers must not flush our buffers again */
		for (size_t i = 0; i < nslots; i++) {
			if (slots[i].groupid != g)
				continue;
			int r = start_slot(&slots[i]);

			if (r) {
				snprintf(err, errlen, "job '%s': cannot start a %s: %s",
					 slots[i].desc->o.name,
					 slots[i].desc->o.thread ? "thread" : "process", strerror(-r));
				refused = 1;
				break;
			}
		}
		for (size_t i = 0; i < nslots; i++)
			if (slots[i].groupid == g)
				wait_slot(&slots[i]);
		if (refused)
			goto out;
		for (size_t i = 0; i < nslots; i++) {
			const struct job_stats *st = slots[i].w.st;
			char where[512];

			if (slots[i].groupid != g || !st->setup_failed)
				continue;
			job_option_origin(slots[i].desc, st->err_option, where, sizeof(where));
			snprintf(err, errlen, "%s: job '%s': %s", where, slots[i].desc->o.name,
				 st->errmsg);
			goto out;
		}
	}
	disk_watch_stop(dw);
	if (build_results(js, slots, nslots, out)) {
		snprintf(err, errlen, "out of memory for the results");
		goto out;
	}
	if (dw->n) {
		out->disks = calloc(dw->n, sizeof(*out->disks));
		if (!out->disks) {
			snprintf(err, errlen, "out of memory for the results");
			goto out;
		}
		memcpy(out->disks, dw->d, dw->n * sizeof(*out->disks));
		out->ndisks = dw->n;
	}
	rc = 0;
out:
	if (rc)
		jr_run_free(out);
	if (stats != MAP_FAILED)
		munmap(stats, total * sizeof(*stats));
	free(slots);
	free(dw);
	return rc;
}
