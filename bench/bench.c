// SPDX-License-Identifier: GPL-2.0
/*
 * make bench: iomatrix-runner against Debian's fio on the same jobs.
 *
 * Each case runs both programs (and, for case a, a bare pread loop) in
 * alternating order for several rounds; every run is a child whose CPU
 * time and peak RSS come from wait4(2), whose IOPS and IO count come from
 * its own JSON. Printed: the median over rounds of the paired ratios
 * ours/fio for IOPS (higher is better), CPU time per IO and peak RSS
 * (lower is better), and ours/bare loop for case a.
 *
 *   bench [--rounds N] [--runtime SECONDS] [--cases a,b1,b32,c,d,e,f]
 *         [--cpu N|none] [--idle poll|native] [--work DIR]
 *
 * Idle CPUs are held polling (--idle poll, the default; idle_poll.h) for
 * the whole bench. Why: a CPU with nothing to run enters an idle state,
 * and in a VM a vCPU halts into the hypervisor; waking it (the loop
 * device's worker completing an IO, then the waiting program) then costs
 * more than the IO. On this 2-vCPU VM, idle, psync O_DIRECT writes to a
 * loop device ran at 9-24k IOPS natively and 63-95k polling, for fio and
 * for us alike, and natively which of the two won depended on how often
 * each happened to find the other CPU awake, not on its engine. Polling,
 * the bench measures the engines. --idle native measures the machine as
 * it is. --cpu N pins every program to one CPU (default: not pinned).
 *
 * Needs root (loop devices) and about 2 GiB in /dev/shm. Files are fully
 * written, never sparse: reads of holes flatter every engine.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "idle_poll.h"

#define WORK_DEFAULT "/dev/shm/iomatrix-bench"
#define FILE_MB	  1024
#define MAX_ROUNDS 64
#define MAX_ARGS  32

struct bcase {
	const char *id;
	const char *what;
	const char *args; /* blank-separated; @FILE @LOOP @RUNTIME are replaced */
	int needs_loop;
	int bare;
};

static const struct bcase cases[] = {
	{ "a", "4k randread psync, cached 1 GiB file in /dev/shm",
	  "--name=a --filename=@FILE --rw=randread --bs=4k --ioengine=psync "
	  "--time_based --runtime=@RUNTIME",
	  0, 1 },
	{ "b1", "null engine 4k randread iodepth=1",
	  "--name=b --ioengine=null --rw=randread --bs=4k --size=1g "
	  "--iodepth=1 --time_based --runtime=@RUNTIME",
	  0, 0 },
	{ "b32", "null engine 4k randread iodepth=32",
	  "--name=b --ioengine=null --rw=randread --bs=4k --size=1g "
	  "--iodepth=32 --time_based --runtime=@RUNTIME",
	  0, 0 },
	{ "c", "io_uring 4k randread O_DIRECT iodepth=32, loop on /dev/shm",
	  "--name=c --filename=@LOOP --rw=randread --bs=4k --direct=1 "
	  "--ioengine=io_uring --iodepth=32 --time_based --runtime=@RUNTIME",
	  1, 0 },
	{ "d", "libaio 4k randread O_DIRECT iodepth=32, loop on /dev/shm",
	  "--name=d --filename=@LOOP --rw=randread --bs=4k --direct=1 "
	  "--ioengine=libaio --iodepth=32 --time_based --runtime=@RUNTIME",
	  1, 0 },
	{ "e", "psync 4k randwrite O_DIRECT, loop on /dev/shm",
	  "--name=e --filename=@LOOP --rw=randwrite --bs=4k --direct=1 "
	  "--ioengine=psync --time_based --runtime=@RUNTIME",
	  1, 0 },
	{ "f", "1M sequential buffered read, loop on /dev/shm",
	  "--name=f --filename=@LOOP --rw=read --bs=1M --ioengine=psync "
	  "--time_based --runtime=@RUNTIME",
	  1, 0 },
};

struct run {
	double iops;
	double cpu_per_io_ns;
	long rss_kb;
};

static char loop_dev[64];
/* Under --work DIR (one per bench running at once): */
static char work[256], shm_file[300], loop_img[300], out_json[300], out_arg[320];
static const char *runner = "build/iomatrix-runner";
static const char *bare_loop = "build/bench/pread_loop";

static int sh(const char *cmd)
{
	int rc = system(cmd);

	return rc == -1 || !WIFEXITED(rc) ? -1 : WEXITSTATUS(rc);
}

static int fill_file(const char *path, unsigned mb)
{
	char cmd[256];
	struct stat st;

	if (!stat(path, &st) && st.st_size == (off_t)mb << 20 && st.st_blocks * 512 >= st.st_size)
		return 0;
	fprintf(stderr, "bench: writing %s (%u MiB of random data)\n", path, mb);
	snprintf(cmd, sizeof(cmd), "dd if=/dev/urandom of=%s bs=1M count=%u status=none", path, mb);
	return sh(cmd);
}

static void cleanup(void)
{
	char cmd[128];

	if (loop_dev[0]) {
		snprintf(cmd, sizeof(cmd), "losetup -d %s", loop_dev);
		sh(cmd);
	}
	/* Only what the bench made: DIR may be the user's. */
	unlink(shm_file);
	unlink(loop_img);
	unlink(out_json);
	rmdir(work);
}

static int setup(int need_loop)
{
	char cmd[400];
	FILE *p;

	if (mkdir(work, 0755) && errno != EEXIST) {
		fprintf(stderr, "bench: %s: %s\n", work, strerror(errno));
		return -1;
	}
	if (fill_file(shm_file, FILE_MB))
		return -1;
	if (!need_loop)
		return 0;
	if (fill_file(loop_img, FILE_MB))
		return -1;
	snprintf(cmd, sizeof(cmd), "losetup -f --show --direct-io=on '%s'", loop_img);
	p = popen(cmd, "r");
	if (!p || !fgets(loop_dev, sizeof(loop_dev), p)) {
		if (p)
			pclose(p);
		fprintf(stderr, "bench: losetup failed (root needed)\n");
		return -1;
	}
	pclose(p);
	loop_dev[strcspn(loop_dev, "\n")] = '\0';
	return 0;
}

/* Splits c->args into argv after prog, replacing the @ words. */
static int build_argv(const char *prog, const struct bcase *c, const char *runtime, char **argv,
		      char *store, size_t storelen)
{
	int n = 0;
	char *p;

	snprintf(store, storelen, "%s", c->args);
	argv[n++] = (char *)prog;
	for (char *tok = strtok_r(store, " ", &p); tok && n < MAX_ARGS - 4;
	     tok = strtok_r(NULL, " ", &p)) {
		static char subst[MAX_ARGS][400];
		char *at = strchr(tok, '@');

		if (at) {
			const char *val = !strcmp(at, "@FILE")	  ? shm_file
					  : !strcmp(at, "@LOOP") ? loop_dev
								 : runtime;
			snprintf(subst[n], sizeof(subst[n]), "%.*s%s", (int)(at - tok), tok, val);
			tok = subst[n];
		}
		argv[n++] = tok;
	}
	argv[n++] = "--output-format=json";
	argv[n++] = out_arg;
	argv[n] = NULL;
	return n;
}

/* Pins the bench, and so every program it starts, to one CPU (see the top). */
static int pin(const char *cpu)
{
	char *end;
	long n;
	cpu_set_t set;

	if (!strcmp(cpu, "none"))
		return 0;
	errno = 0;
	n = strtol(cpu, &end, 10);
	if (errno || end == cpu || *end || n < 0 || n >= CPU_SETSIZE) {
		fprintf(stderr, "bench: --cpu %s: not a CPU number or 'none'\n", cpu);
		return -1;
	}
	CPU_ZERO(&set);
	CPU_SET((int)n, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "bench: --cpu %s: %s\n", cpu, strerror(errno));
		return -1;
	}
	return 0;
}

static pid_t spawn(char **argv)
{
	pid_t pid = fork();

	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0)
			dup2(null, 1);
		execvp(argv[0], argv);
		fprintf(stderr, "bench: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	return pid;
}

static int wait_child(pid_t pid, struct rusage *ru)
{
	int status;

	if (pid < 0 || wait4(pid, &status, 0, ru) < 0)
		return -1;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

/* IOPS and IOs from a fio-style JSON (fio may put notes before the '{'). */
static int read_json(double *iops, double *ios)
{
	FILE *f = fopen(out_json, "r");
	static char buf[1 << 20];
	size_t n;
	char *start;
	struct json_object *root, *jobs;

	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	start = strchr(buf, '{');
	if (!start || !(root = json_tokener_parse(start)))
		return -1;
	*iops = *ios = 0;
	if (json_object_object_get_ex(root, "jobs", &jobs))
		for (size_t i = 0; i < json_object_array_length(jobs); i++) {
			struct json_object *job = json_object_array_get_idx(jobs, i), *d, *v;

			for (int k = 0; k < 2; k++) {
				if (!json_object_object_get_ex(job, k ? "write" : "read", &d))
					continue;
				if (json_object_object_get_ex(d, "iops", &v))
					*iops += json_object_get_double(v);
				if (json_object_object_get_ex(d, "total_ios", &v))
					*ios += json_object_get_double(v);
			}
		}
	json_object_put(root);
	return *ios > 0 ? 0 : -1;
}

static int run_tool(const char *prog, const struct bcase *c, const char *runtime, struct run *r)
{
	char *argv[MAX_ARGS], store[1024];
	struct rusage ru;
	double ios;

	unlink(out_json);
	build_argv(prog, c, runtime, argv, store, sizeof(store));
	if (wait_child(spawn(argv), &ru) || read_json(&r->iops, &ios)) {
		fprintf(stderr, "bench: case %s: %s failed\n", c->id, prog);
		return -1;
	}
	r->cpu_per_io_ns = ((double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec) * 1e9 +
			   ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) * 1e3;
	r->cpu_per_io_ns /= ios;
	r->rss_kb = ru.ru_maxrss;
	return 0;
}

static int run_bare(const char *runtime, struct run *r)
{
	char *argv[] = { (char *)bare_loop, shm_file, (char *)runtime, NULL };
	unsigned long long ios;
	double secs;
	struct rusage ru;
	int fds[2], rc;
	pid_t pid;
	FILE *f;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (!pid) {
		dup2(fds[1], 1);
		close(fds[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	f = fdopen(fds[0], "r");
	rc = f && fscanf(f, "ios %llu seconds %lf", &ios, &secs) == 2 ? 0 : -1;
	if (f)
		fclose(f);
	if (wait_child(pid, &ru) || rc || !ios)
		return -1;
	r->iops = (double)ios / secs;
	r->cpu_per_io_ns = (((double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec) * 1e9 +
			    ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) * 1e3) /
			   (double)ios;
	r->rss_kb = ru.ru_maxrss;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double load_avg(void)
{
	double l = -1;
	FILE *f = fopen("/proc/loadavg", "r");

	if (f) {
		if (fscanf(f, "%lf", &l) != 1)
			l = -1;
		fclose(f);
	}
	return l;
}

static int wanted(const char *list, const char *id)
{
	size_t n = strlen(id);

	if (!list)
		return 1;
	for (const char *p = list; (p = strstr(p, id)); p += n)
		if ((p == list || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	int rounds = 5, need_loop = 0;
	const char *runtime = "3", *only = NULL, *cpu = "none", *idle = "poll";
	const char *workdir = WORK_DEFAULT;
	char idle_why[256] = "";
	double r_iops[MAX_ROUNDS], r_cpu[MAX_ROUNDS], r_rss[MAX_ROUNDS], r_bare[MAX_ROUNDS];
	double o_iops[MAX_ROUNDS], f_iops[MAX_ROUNDS], b_iops[MAX_ROUNDS];
	double o_cpu[MAX_ROUNDS], f_cpu[MAX_ROUNDS], o_rss[MAX_ROUNDS], f_rss[MAX_ROUNDS];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
			rounds = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--runtime") && i + 1 < argc)
			runtime = argv[++i];
		else if (!strcmp(argv[i], "--cases") && i + 1 < argc)
			only = argv[++i];
		else if (!strcmp(argv[i], "--runner") && i + 1 < argc)
			runner = argv[++i];
		else if (!strcmp(argv[i], "--bare") && i + 1 < argc)
			bare_loop = argv[++i];
		else if (!strcmp(argv[i], "--cpu") && i + 1 < argc)
			cpu = argv[++i];
		else if (!strcmp(argv[i], "--work") && i + 1 < argc && argv[i + 1][0] &&
			 !strchr(argv[i + 1], '\'') && strlen(argv[i + 1]) < sizeof(work))
			workdir = argv[++i];
		else if (!strcmp(argv[i], "--idle") && i + 1 < argc &&
			 (!strcmp(argv[i + 1], "poll") || !strcmp(argv[i + 1], "native")))
			idle = argv[++i];
		else {
			fprintf(stderr,
				"usage: %s [--rounds N] [--runtime SECONDS] [--cases a,b1,...] [--runner PATH] [--bare PATH] [--cpu N|none] [--idle poll|native] [--work DIR]\n",
				argv[0]);
			return 2;
		}
	}
	if (pin(cpu))
		return 2;
	snprintf(work, sizeof(work), "%s", workdir);
	snprintf(shm_file, sizeof(shm_file), "%s/a.dat", work);
	snprintf(loop_img, sizeof(loop_img), "%s/loop.img", work);
	snprintf(out_json, sizeof(out_json), "%s/out.json", work);
	snprintf(out_arg, sizeof(out_arg), "--output=%s", out_json);
	/* Held until exit: the kernel drops the request when the descriptor closes. */
	if (!strcmp(idle, "poll") && idle_poll_hold(idle_why, sizeof(idle_why)) < 0) {
		fprintf(stderr, "bench: cannot keep idle CPUs polling (%s): measuring with native idle\n",
			idle_why);
		idle = "native";
	}
	if (rounds < 1 || rounds > MAX_ROUNDS)
		rounds = 5;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
		need_loop |= wanted(only, cases[c].id) && cases[c].needs_loop;
	atexit(cleanup);
	if (setup(need_loop))
		return 1;

	printf("iomatrix bench: %d rounds of %s s per program and case, alternating, %s%s, idle CPUs %s; load %.2f\n",
	       rounds, runtime, strcmp(cpu, "none") ? "pinned to CPU " : "not pinned",
	       strcmp(cpu, "none") ? cpu : "",
	       strcmp(idle, "poll") ? "native" : "polling (cpu_dma_latency 0)", load_avg());
	printf("medians of paired ratios ours/fio (IOPS: higher is better; CPU per IO, RSS: lower)\n\n");
	printf("%-4s %-58s %10s %10s %7s %9s %9s %7s %7s %7s %6s %8s\n", "case", "what",
	       "ours IOPS", "fio IOPS", "IOPS x", "ours CPU", "fio CPU", "CPU x", "ours KB",
	       "fio KB", "RSS x", "vs bare");
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const struct bcase *bc = &cases[c];
		int ok = 1;

		if (!wanted(only, bc->id))
			continue;
		for (int r = 0; r < rounds && ok; r++) {
			struct run ours, fio, bare = { 0 };
			int nprog = bc->bare ? 3 : 2;

			/* Rotate who goes first: page cache, clocks and neighbours even out. */
			for (int k = 0; k < nprog && ok; k++) {
				switch ((r + k) % nprog) {
				case 0:
					ok = !run_tool(runner, bc, runtime, &ours);
					break;
				case 1:
					ok = !run_tool("fio", bc, runtime, &fio);
					break;
				default:
					ok = !run_bare(runtime, &bare);
				}
			}
			if (!ok)
				break;
			o_iops[r] = ours.iops;
			f_iops[r] = fio.iops;
			b_iops[r] = bare.iops;
			o_cpu[r] = ours.cpu_per_io_ns;
			f_cpu[r] = fio.cpu_per_io_ns;
			o_rss[r] = (double)ours.rss_kb;
			f_rss[r] = (double)fio.rss_kb;
			r_iops[r] = ours.iops / fio.iops;
			r_cpu[r] = ours.cpu_per_io_ns / fio.cpu_per_io_ns;
			r_rss[r] = (double)ours.rss_kb / (double)fio.rss_kb;
			r_bare[r] = bc->bare ? ours.iops / bare.iops : 0;
		}
		if (!ok) {
			printf("%-4s %-58s failed\n", bc->id, bc->what);
			continue;
		}
		printf("%-4s %-58s %10.0f %10.0f %7.2f %8.0fn %8.0fn %7.2f %7.0f %7.0f %6.3f", bc->id,
		       bc->what, median(o_iops, rounds), median(f_iops, rounds),
		       median(r_iops, rounds), median(o_cpu, rounds), median(f_cpu, rounds),
		       median(r_cpu, rounds), median(o_rss, rounds), median(f_rss, rounds),
		       median(r_rss, rounds));
		if (bc->bare)
			printf(" %8.3f\n%-4s %-58s %10.0f (bare loop IOPS; fio/bare %.3f)\n",
			       median(r_bare, rounds), "", "", median(b_iops, rounds),
			       median(r_bare, rounds) / median(r_iops, rounds));
		else
			printf("\n");
		fflush(stdout);
	}
	printf("\nload at the end %.2f\n", load_avg());
	return 0;
}
