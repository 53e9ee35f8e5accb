// SPDX-License-Identifier: GPL-2.0
/* modules.load: parse it, then finit_module each entry in order. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lib/byte_buf.h"
#include "runner/console.h"
#include "runner/modules.h"

static int parse_line(const char *line, size_t len, struct module_entry *m, char *why,
		      size_t whylen)
{
	char copy[512], *name, *path, *params, *save;

	if (len >= sizeof(copy)) {
		snprintf(why, whylen, "line longer than %zu characters", sizeof(copy) - 1);
		return -1;
	}
	memcpy(copy, line, len);
	copy[len] = '\0';
	name = strtok_r(copy, " \t\r", &save);
	path = strtok_r(NULL, " \t\r", &save);
	params = strtok_r(NULL, "\r", &save); /* the rest of the line, as insmod takes it */
	if (!path) {
		snprintf(why, whylen, "expected \"<name> <path> [parameters]\", got \"%.*s\"",
			 (int)len, line);
		return -1;
	}
	if (!params)
		params = "";
	while (*params == ' ' || *params == '\t')
		params++;
	if (strlen(name) >= sizeof(m->name) || strlen(path) >= sizeof(m->path) ||
	    strlen(params) >= sizeof(m->params)) {
		snprintf(why, whylen, "module name, path or parameters too long");
		return -1;
	}
	if (path[0] != '/') {
		snprintf(why, whylen, "module %s: path %s is not absolute", name, path);
		return -1;
	}
	strcpy(m->name, name);
	strcpy(m->path, path);
	strcpy(m->params, params);
	return 0;
}

int modules_parse(const char *file, const char *text, size_t len, struct module_list *list,
		  char *err, size_t errlen)
{
	size_t pos = 0;
	int lineno = 0;

	list->count = 0;
	while (pos < len) {
		const char *line = text + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;
		size_t skip = 0;
		char why[384];

		pos += n + (nl ? 1 : 0);
		lineno++;
		while (skip < n && (line[skip] == ' ' || line[skip] == '\t' || line[skip] == '\r'))
			skip++;
		if (skip == n || line[skip] == '#')
			continue;
		if (memchr(line, '\0', n)) {
			snprintf(err, errlen, "%s:%d: NUL byte in line", file, lineno);
			return -1;
		}
		if (list->count == MODULES_MAX) {
			snprintf(err, errlen, "%s:%d: more than %d modules", file, lineno,
				 MODULES_MAX);
			return -1;
		}
		if (parse_line(line + skip, n - skip, &list->mod[list->count], why, sizeof(why))) {
			snprintf(err, errlen, "%s:%d: %s", file, lineno, why);
			return -1;
		}
		list->mod[list->count++].line = lineno;
	}
	return 0;
}

/* modules.load lists a few hundred names: anything this big is not one. */
#define MODULES_MAX_FILE ((1 << 20) - 1)

int modules_read(const char *path, struct module_list *list, char *err, size_t errlen)
{
	struct byte_buf text = { 0 };
	int ret = byte_buf_load(&text, path, MODULES_MAX_FILE);

	if (ret == EFBIG) {
		snprintf(err, errlen, "%s: larger than %zu bytes", path, (size_t)MODULES_MAX_FILE);
		return -1;
	}
	if (ret) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(ret));
		return -1;
	}
	ret = modules_parse(path, (const char *)text.data, text.len, list, err, errlen);
	byte_buf_free(&text);
	return ret;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

enum module_result module_load(const struct module_entry *m, double *seconds, int *error)
{
	double start = now();
	int fd = open(m->path, O_RDONLY | O_CLOEXEC);
	long ret;

	*error = 0;
	if (fd < 0) {
		*error = errno;
		*seconds = now() - start;
		return MODULE_FAILED;
	}
	ret = syscall(SYS_finit_module, fd, m->params, 0);
	if (ret)
		*error = errno;
	close(fd);
	*seconds = now() - start;
	if (!ret)
		return MODULE_LOADED;
	if (*error == EEXIST)
		return MODULE_PRESENT;
	if (*error == ENODEV)
		return MODULE_NO_DEVICE;
	return MODULE_FAILED;
}

void modules_load_all(const struct module_list *list, struct modules_summary *sum)
{
	static const char *const verdict[] = {
		[MODULE_LOADED] = "loaded",
		[MODULE_PRESENT] = "already present",
		[MODULE_NO_DEVICE] = "no device",
		[MODULE_FAILED] = "FAILED",
	};

	memset(sum, 0, sizeof(*sum));
	for (size_t i = 0; i < list->count; i++) {
		const struct module_entry *m = &list->mod[i];
		double secs;
		int error;
		enum module_result r = module_load(m, &secs, &error);

		sum->seconds += secs;
		switch (r) {
		case MODULE_LOADED:
			sum->loaded++;
			break;
		case MODULE_PRESENT:
			sum->present++;
			break;
		case MODULE_NO_DEVICE:
			sum->no_device++;
			break;
		case MODULE_FAILED:
			sum->failed++;
			con_say("module %s: load failed: %s (%s)", m->name, strerror(error),
				m->path);
			continue;
		}
		con_debug("module %s: %s in %.3f s", m->name, verdict[r], secs);
	}
}
