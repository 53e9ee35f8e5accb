// SPDX-License-Identifier: GPL-2.0
/* Running one step of a cell and describing its failure; see step.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runner/console.h"
#include "runner/spawn.h"
#include "runner/setup/step.h"

double step_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

void step_fail(struct step_error *e, const char *step, const char *command, const char *status,
	       const char *tail)
{
	memset(e, 0, sizeof(*e));
	copy(e->step, sizeof(e->step), step);
	copy(e->command, sizeof(e->command), command);
	copy(e->status, sizeof(e->status), status);
	copy(e->tail, sizeof(e->tail), tail);
}

const char *step_error_line(const struct step_error *e, char *buf, size_t len)
{
	snprintf(buf, len, "%s: %s: %s%s%s", e->step, e->command, e->status, e->tail[0] ? ": " : "",
		 e->tail);
	return buf;
}

const char *step_join_argv(const char *const argv[], char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; argv[i] && used < len; i++) {
		const char *q = strchr(argv[i], ' ') ? "'" : "";

		used += (size_t)snprintf(buf + used, len - used, "%s%s%s%s", i ? " " : "", q,
					 argv[i], q);
	}
	return buf;
}

void step_file_tail(const char *path, int lines, char *out, size_t len)
{
	char buf[8192];
	const char *starts[16];
	int nstarts = 0;
	size_t used = 0;
	ssize_t n;
	off_t size;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	out[0] = '\0';
	if (fd < 0)
		return;
	size = lseek(fd, 0, SEEK_END);
	if (size > (off_t)sizeof(buf) - 1)
		lseek(fd, size - (off_t)sizeof(buf) + 1, SEEK_SET);
	else
		lseek(fd, 0, SEEK_SET);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	if (lines > 16)
		lines = 16;
	/* Walk the lines; keep where the last `lines` non-empty ones start. */
	for (char *line = buf, *nl; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		for (char *c = line; *c; c++)
			if ((unsigned char)*c < 0x20 || (unsigned char)*c == 0x7f)
				*c = (*c == '\r') ? ' ' : '?';
		while (*line == ' ')
			line++;
		if (!*line)
			continue;
		if (nstarts == lines) {
			memmove(starts, starts + 1, sizeof(starts[0]) * (size_t)(lines - 1));
			nstarts--;
		}
		starts[nstarts++] = line;
	}
	for (int i = 0; i < nstarts && used < len; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%s", i ? " | " : "", starts[i]);
}

int step_run(const char *step, const char *const argv[], double timeout, struct step_error *e)
{
	struct spawn_opts opts = {-1, -1, -1, false};
	char cmd[STEP_COMMAND_MAX], how[128], tail[STEP_TAIL_MAX];
	int in, out, status = 0, ret;

	step_join_argv(argv, cmd, sizeof(cmd));
	con_debug("%s: %s", step, cmd);
	mkdir("/run/iomatrix", 0755);
	in = open("/dev/null", O_RDONLY | O_CLOEXEC);
	out = open(STEP_OUTPUT, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (in < 0 || out < 0) {
		snprintf(how, sizeof(how), "cannot open %s: %s", in < 0 ? "/dev/null" : STEP_OUTPUT,
			 strerror(errno));
		if (in >= 0)
			close(in);
		step_fail(e, step, cmd, how, NULL);
		return -1;
	}
	opts.stdin_fd = in;
	opts.stdout_fd = out;
	opts.stderr_fd = out;
	ret = run_child(argv, timeout, &opts, &status);
	close(in);
	close(out);
	if (ret == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (ret == SPAWN_ETIMEDOUT)
		snprintf(how, sizeof(how), "timed out after %.0f s (killed)", timeout);
	else if (ret)
		snprintf(how, sizeof(how), "cannot run: %s", spawn_strerror(ret));
	else
		spawn_status_str(status, how, sizeof(how));
	step_file_tail(STEP_OUTPUT, STEP_TAIL_LINES, tail, sizeof(tail));
	step_fail(e, step, cmd, how, tail);
	e->timeout = ret == SPAWN_ETIMEDOUT;
	return -1;
}
