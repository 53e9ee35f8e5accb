// SPDX-License-Identifier: GPL-2.0
/* The kernel and the machine, for records; see machine_info.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "runner/machine_info.h"

int read_text_file(const char *path, char *buf, size_t len)
{
	size_t done = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	buf[0] = '\0';
	if (fd < 0)
		return -errno;
	while (done + 1 < len) {
		ssize_t n = read(fd, buf + done, len - 1 - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int ret = -errno;

			close(fd);
			buf[0] = '\0';
			return ret;
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	close(fd);
	buf[done] = '\0';
	return 0;
}

static void chomp(char *s)
{
	s[strcspn(s, "\n")] = '\0';
}

void machine_cpu_model(const char *cpuinfo, char *out, size_t len)
{
	const char *p = strstr(cpuinfo, "model name");
	const char *colon, *end;

	out[0] = '\0';
	if (!p || !(colon = strchr(p, ':')))
		return;
	colon++;
	while (*colon == ' ' || *colon == '\t')
		colon++;
	end = strchr(colon, '\n');
	snprintf(out, len, "%.*s", (int)(end ? end - colon : (long)strlen(colon)), colon);
}

uint64_t machine_mem_kb(const char *meminfo)
{
	const char *p = strstr(meminfo, "MemTotal:");

	return p ? strtoull(p + strlen("MemTotal:"), NULL, 10) : 0;
}

void machine_info_read(struct machine_info *m)
{
	static char buf[65536];
	struct utsname u;
	long n;

	memset(m, 0, sizeof(*m));
	if (uname(&u) == 0) {
		snprintf(m->release, sizeof(m->release), "%s", u.release);
		snprintf(m->version, sizeof(m->version), "%s", u.version);
	}
	read_text_file("/proc/version", m->proc_version, sizeof(m->proc_version));
	chomp(m->proc_version);
	read_text_file("/proc/cmdline", m->cmdline, sizeof(m->cmdline));
	chomp(m->cmdline);
	if (read_text_file("/proc/cpuinfo", buf, sizeof(buf)) == 0)
		machine_cpu_model(buf, m->cpu_model, sizeof(m->cpu_model));
	if (read_text_file("/proc/meminfo", buf, sizeof(buf)) == 0)
		m->mem_kb = machine_mem_kb(buf);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	m->cpus = n > 0 ? (int)n : 0;
}

static void str_or_null(struct jw *j, const char *key, const char *s)
{
	if (s[0])
		jw_str(j, key, s);
	else
		jw_null(j, key);
}

void machine_info_write(struct jw *j, const struct machine_info *m)
{
	jw_obj_begin(j, "kernel");
	str_or_null(j, "release", m->release);
	str_or_null(j, "version", m->version);
	str_or_null(j, "proc_version", m->proc_version);
	jw_str(j, "cmdline", m->cmdline);
	jw_obj_end(j);
	jw_obj_begin(j, "machine");
	str_or_null(j, "cpu_model", m->cpu_model);
	if (m->cpus > 0)
		jw_int(j, "cpus", m->cpus);
	else
		jw_null(j, "cpus");
	if (m->mem_kb)
		jw_uint(j, "mem_kb", m->mem_kb);
	else
		jw_null(j, "mem_kb");
	jw_obj_end(j);
}
