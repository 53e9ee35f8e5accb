// SPDX-License-Identifier: GPL-2.0
/*
 * iomatrix-runner dd: N writers, each writing its own file sequentially
 * with write(2) through the page cache (as dd does), spread round-robin
 * over ':'-separated directories (one filesystem per disk for JBOD). The
 * clock runs from the first write to the end of one syncfs(2) per
 * filesystem after the last write: a writeback test must count the
 * writeback. All writers share one buffer (write only reads it), so 100
 * writers cost 100 threads, not 100 buffers.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runner/clock.h"
#include "records/dd_result.h"
#include "runner/modes.h"
#include "runner/engine/offsets.h"
#include "lib/cli.h"

#define DD_MAX_WRITERS	 4096
#define DD_MAX_WRITERS_S "4096" /* DD_MAX_WRITERS, for --help */
#define DD_MAX_DIRS	 256

struct dd_opts {
	int writers;
	uint64_t bs, size, runtime_us;
	const char *dirs;
	const char *output;
	int format; /* an index into format_names */
	bool keep;
};

static const char *const format_names[] = { "normal", "json", NULL };

#define OFF(f) offsetof(struct dd_opts, f)

static const struct cli_opt dd_opts[] = {
	{ .name = "writers", .kind = CLI_INT, .offset = OFF(writers), .min = 1,
	  .max = DD_MAX_WRITERS, .arg = "N",
	  .help = "N concurrent writers, each with its own file (1.." DD_MAX_WRITERS_S ")" },
	{ .name = "bs", .kind = CLI_SIZE, .offset = OFF(bs), .min = 1, .max = 1 << 30,
	  .arg = "SIZE", .help = "size of each write (4k, 1M, ...)" },
	{ .name = "size", .kind = CLI_SIZE, .offset = OFF(size), .min = 1, .arg = "SIZE",
	  .help = "bytes each writer writes" },
	{ .name = "runtime", .kind = CLI_TIME, .offset = OFF(runtime_us), .min = 1, .arg = "TIME",
	  .help = "or: how long each writer writes (10, 10s, 500ms, 2m)" },
	{ .name = "directory", .kind = CLI_STRING, .offset = OFF(dirs), .arg = "DIR[:DIR...]",
	  .help = "writer i writes DIR[i % count]/dd.i" },
	{ .name = "output", .kind = CLI_STRING, .offset = OFF(output), .arg = "FILE",
	  .help = "write the result to FILE (whole or not at all)" },
	{ .name = "output-format", .kind = CLI_CHOICE, .offset = OFF(format),
	  .choices = format_names, .arg = "F",
	  .help = "how the result reads (default normal)" },
	{ .name = "keep-files", .kind = CLI_FLAG, .offset = OFF(keep),
	  .help = "leave the files (default: removed after the measurement)" },
};

static const struct cli_cmd dd_cmd = {
	.prog = "iomatrix-runner",
	.name = "dd",
	.synopsis = "--writers N --bs SIZE (--size SIZE | --runtime TIME)\n"
		    "            --directory DIR[:DIR...]",
	.about = "N writers, each writing its own file sequentially through the page cache; the\n"
		 "clock runs from the first write to the end of one syncfs per filesystem.",
	.opts = dd_opts,
	.nopts = sizeof(dd_opts) / sizeof(dd_opts[0]),
};

void dd_print_usage(FILE *f)
{
	cli_usage(&dd_cmd, f);
}

/* 1 for --help, 0 to run, -1 on a bad command line (reported, one line). */
static int parse_args(struct dd_opts *o, int argc, char **argv)
{
	size_t npos;
	int r = cli_parse(&dd_cmd, argc, argv, o, NULL, &npos);

	if (r)
		return r;
	if (!o->writers || !o->bs || !o->dirs) {
		fprintf(stderr,
			"iomatrix-runner dd: --writers, --bs and --directory are required\n");
		return -1;
	}
	if (!!o->size == !!o->runtime_us) {
		fprintf(stderr, "iomatrix-runner dd: give one of --size or --runtime\n");
		return -1;
	}
	return 0;
}

/* The start line: writers wait until every one exists, then all go (or all give up). */
struct dd_gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int state; /* 0 wait, 1 go, -1 abort */
};

struct dd_writer {
	const struct dd_opts *o;
	const void *buf;
	struct dd_gate *gate;
	int fd;
	uint64_t t_start, t_end;
	struct dd_writer_result *res;
};

static void *writer_main(void *arg)
{
	struct dd_writer *w = arg;
	uint64_t deadline = 0, done = 0;

	pthread_mutex_lock(&w->gate->lock);
	while (!w->gate->state)
		pthread_cond_wait(&w->gate->cond, &w->gate->lock);
	pthread_mutex_unlock(&w->gate->lock);
	w->t_start = w->t_end = clock_ns();
	if (w->gate->state < 0)
		return NULL;
	if (w->o->runtime_us)
		deadline = w->t_start + w->o->runtime_us * 1000;
	for (;;) {
		size_t n = w->o->bs;
		ssize_t r;

		if (w->o->size) {
			if (done >= w->o->size)
				break;
			if (w->o->size - done < n)
				n = (size_t)(w->o->size - done);
		} else if (clock_ns() >= deadline) {
			break;
		}
		r = write(w->fd, w->buf, n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			w->res->error = errno;
			break;
		}
		done += (uint64_t)r;
	}
	w->t_end = clock_ns();
	w->res->io_bytes = done;
	w->res->elapsed_ns = w->t_end - w->t_start;
	w->res->bw_bytes = w->res->elapsed_ns
				   ? (uint64_t)((long double)done * 1e9L / w->res->elapsed_ns)
				   : 0;
	return NULL;
}

/* The n-th ':'-separated directory of dirs (caller frees). */
static char *dir_of(const char *dirs, unsigned n)
{
	const char *p = dirs;

	while (n--) {
		p = strchr(p, ':');
		if (!p)
			return NULL;
		p++;
	}
	return strndup(p, strcspn(p, ":"));
}

static unsigned count_dirs(const char *dirs)
{
	unsigned n = 1;

	for (; *dirs; dirs++)
		n += *dirs == ':';
	return n;
}

/* One syncfs per distinct filesystem among the directories. */
static int sync_filesystems(const struct dd_opts *o, unsigned ndirs, uint32_t *count, char *err,
			    size_t errlen)
{
	dev_t seen[DD_MAX_DIRS];
	unsigned nseen = 0;

	for (unsigned i = 0; i < ndirs; i++) {
		char *d = dir_of(o->dirs, i);
		struct stat st;
		unsigned k;
		int fd;

		if (!d || stat(d, &st)) {
			snprintf(err, errlen, "sync: %s: %s", d ? d : "?", strerror(errno));
			free(d);
			return -1;
		}
		for (k = 0; k < nseen && seen[k] != st.st_dev; k++)
			;
		if (k < nseen) {
			free(d);
			continue;
		}
		seen[nseen++] = st.st_dev;
		fd = open(d, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0 || syncfs(fd)) {
			snprintf(err, errlen, "syncfs %s: %s", d, strerror(errno));
			if (fd >= 0)
				close(fd);
			free(d);
			return -1;
		}
		close(fd);
		free(d);
	}
	*count = nseen;
	return 0;
}

static int check_dirs(const struct dd_opts *o, unsigned ndirs, char *err, size_t errlen)
{
	if (ndirs > DD_MAX_DIRS) {
		snprintf(err, errlen, "--directory: at most %d directories", DD_MAX_DIRS);
		return -1;
	}
	for (unsigned i = 0; i < ndirs; i++) {
		char *d = dir_of(o->dirs, i);
		struct stat st;

		if (!d || !*d) {
			snprintf(err, errlen, "--directory %s: an empty directory name", o->dirs);
			free(d);
			return -1;
		}
		if (stat(d, &st) || !S_ISDIR(st.st_mode)) {
			snprintf(err, errlen, "--directory %s: %s", d,
				 errno && !S_ISDIR(st.st_mode) ? strerror(errno) : "not a directory");
			free(d);
			return -1;
		}
		free(d);
	}
	return 0;
}

static int run(const struct dd_opts *o, struct dd_result *r, char *err, size_t errlen)
{
	/* 1..DD_MAX_WRITERS: the table's range */
	unsigned nw = (unsigned)o->writers, ndirs = count_dirs(o->dirs), started = 0;
	struct dd_writer *w = calloc(nw, sizeof(*w));
	pthread_t *th = calloc(nw, sizeof(*th));
	struct dd_gate gate = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 };
	uint64_t *buf = NULL, t_first = UINT64_MAX, t_last = 0, t_sync_end;
	struct rng rng;
	int rc = -1;

	r->writers = nw;
	r->bs = o->bs;
	r->size_per_writer = o->size;
	r->runtime_ms = o->runtime_us / 1000;
	r->directories = strdup(o->dirs);
	r->per_writer = calloc(nw, sizeof(*r->per_writer));
	if (!w || !th || !r->directories || !r->per_writer ||
	    posix_memalign((void **)&buf, 4096, (o->bs + 4095) & ~4095ULL)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (check_dirs(o, ndirs, err, errlen))
		goto out;
	rng_seed(&rng, 0x1dd);
	for (uint64_t i = 0; i < o->bs / 8; i++)
		buf[i] = rng_next(&rng); /* not zeros: filesystems must not get off lightly */
	for (unsigned i = 0; i < nw; i++) {
		char path[PATH_MAX], *d = dir_of(o->dirs, i % ndirs);

		snprintf(path, sizeof(path), "%s/dd.%u", d ? d : ".", i);
		free(d);
		w[i].fd = -1;
		if (!(r->per_writer[i].file = strdup(path))) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
		w[i].fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (w[i].fd < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			goto out;
		}
		w[i].o = o;
		w[i].buf = buf;
		w[i].gate = &gate;
		w[i].res = &r->per_writer[i];
	}
	for (; started < nw; started++) {
		int e = pthread_create(&th[started], NULL, writer_main, &w[started]);

		if (e) {
			snprintf(err, errlen, "starting writer %u: %s", started, strerror(e));
			break;
		}
	}
	pthread_mutex_lock(&gate.lock);
	gate.state = started < nw ? -1 : 1;
	pthread_cond_broadcast(&gate.cond);
	pthread_mutex_unlock(&gate.lock);
	if (started < nw) {
		for (unsigned i = 0; i < started; i++)
			pthread_join(th[i], NULL);
		goto out;
	}
	for (unsigned i = 0; i < nw; i++) {
		pthread_join(th[i], NULL);
		if (w[i].t_start < t_first)
			t_first = w[i].t_start;
		if (w[i].t_end > t_last)
			t_last = w[i].t_end;
		r->io_bytes += r->per_writer[i].io_bytes;
		if (r->per_writer[i].error && !r->error) {
			char msg[PATH_MAX + 64];

			snprintf(msg, sizeof(msg), "writer %u: %s: %s", i, r->per_writer[i].file,
				 strerror(r->per_writer[i].error));
			r->error = strdup(msg);
		}
	}
	for (unsigned i = 0; i < nw; i++) {
		close(w[i].fd);
		w[i].fd = -1;
	}
	if (sync_filesystems(o, ndirs, &r->filesystems_synced, err, errlen))
		goto out;
	t_sync_end = clock_ns();
	r->write_ns = t_last - t_first;
	r->sync_ns = t_sync_end - t_last;
	r->elapsed_ns = t_sync_end - t_first;
	r->bw_bytes = r->elapsed_ns ? (uint64_t)((long double)r->io_bytes * 1e9L / r->elapsed_ns) : 0;
	r->bw = r->bw_bytes / 1024;
	rc = 0;
out:
	for (unsigned i = 0; w && i < nw; i++)
		if (w[i].fd >= 0)
			close(w[i].fd);
	if (!o->keep && r->per_writer)
		for (unsigned i = 0; i < nw; i++)
			if (r->per_writer[i].file)
				(void)unlink(r->per_writer[i].file);
	free(buf);
	free(w);
	free(th);
	return rc;
}

int dd_main(int argc, char **argv)
{
	struct dd_opts o = { 0 };
	struct dd_result r = { 0 };
	char err[PATH_MAX + 128] = "";
	int rc = 1, p, json;

	p = parse_args(&o, argc, argv);
	if (p) {
		rc = p > 0 ? 0 : 1;
		goto out;
	}
	if (run(&o, &r, err, sizeof(err))) {
		fprintf(stderr, "iomatrix-runner dd: %s\n", err);
		goto out;
	}
	json = !strcmp(format_names[o.format], "json");
	if (dd_report_write(o.output, &r, json, err, sizeof(err))) {
		fprintf(stderr, "iomatrix-runner dd: %s\n", err);
		goto out;
	}
	if (r.error)
		fprintf(stderr, "iomatrix-runner dd: %s\n", r.error);
	else
		rc = 0;
out:
	dd_result_free(&r);
	return rc;
}
