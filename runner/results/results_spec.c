// SPDX-License-Identifier: GPL-2.0
/* Parsing iomatrix.results=; see results_spec.h. */
#include "runner/results/results_spec.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define RULES "console, serial:TTY, kmsg[:LEVEL], disk:PARTLABEL=x|PARTUUID=x|serial=x|NAME"

static const struct {
	const char *prefix; /* as written, matched without case */
	enum results_disk_by by;
} disk_keys[] = {
	{"PARTLABEL=", RESULTS_BY_PARTLABEL},
	{"PARTUUID=", RESULTS_BY_PARTUUID},
	{"serial=", RESULTS_BY_SERIAL},
};

const char *results_by_name(enum results_disk_by by)
{
	static const char *const names[] = {
		[RESULTS_BY_NAME] = "name",
		[RESULTS_BY_SERIAL] = "serial",
		[RESULTS_BY_PARTLABEL] = "PARTLABEL",
		[RESULTS_BY_PARTUUID] = "PARTUUID",
	};

	return names[by];
}

/* A copy for one message line: control characters become '?'. */
static void for_message(char *out, size_t len, const char *s, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n && s[i] && k + 1 < len; i++)
		out[k++] = iscntrl((unsigned char)s[i]) ? '?' : s[i];
	out[k] = '\0';
}

/* A kernel device name: letters, digits, '_', '.', '-' (vdd1, ttyS1, nvme0n1p2). */
static bool device_name(const char *s)
{
	if (!*s || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_.-", *s))
			return false;
	return true;
}

/* "ttyS1" or "/dev/ttyS1": the name under /dev, or NULL. */
static const char *dev_name(const char *s)
{
	if (!strncmp(s, "/dev/", 5))
		s += 5;
	return device_name(s) ? s : NULL;
}

/* 8-4-4-4-12 hex digits, as a GPT PARTUUID is written. */
static bool guid(const char *s)
{
	static const char shape[] = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";

	if (strlen(s) != sizeof(shape) - 1)
		return false;
	for (size_t i = 0; shape[i]; i++)
		if (shape[i] == 'x' ? !isxdigit((unsigned char)s[i]) : s[i] != '-')
			return false;
	return true;
}

static bool printable_value(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isgraph((unsigned char)*s) || *s == ',')
			return false;
	return true;
}

static int parse_disk(struct results_channel_spec *ch, const char *arg, char *err, size_t errlen)
{
	const char *name;

	for (size_t i = 0; i < sizeof(disk_keys) / sizeof(disk_keys[0]); i++) {
		size_t n = strlen(disk_keys[i].prefix);
		const char *v = arg + n;

		if (strncasecmp(arg, disk_keys[i].prefix, n))
			continue;
		ch->by = disk_keys[i].by;
		if (!printable_value(v) || strlen(v) >= sizeof(ch->value) ||
		    (ch->by == RESULTS_BY_PARTUUID && !guid(v))) {
			snprintf(err, errlen, "'%s': %s%s", ch->word, disk_keys[i].prefix,
				 ch->by == RESULTS_BY_PARTUUID
					 ? " needs a GPT partition GUID "
					   "(xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)"
					 : " needs a value");
			return -1;
		}
		snprintf(ch->value, sizeof(ch->value), "%s", v);
		return 0;
	}
	name = dev_name(arg);
	if (!name || strlen(name) >= 32) {
		snprintf(err, errlen,
			 "'%s': not a disk: PARTLABEL=x, PARTUUID=x, serial=x, or a device "
			 "name (vdd, /dev/vdd1)",
			 ch->word);
		return -1;
	}
	ch->by = RESULTS_BY_NAME;
	snprintf(ch->value, sizeof(ch->value), "%s", name);
	return 0;
}

static int parse_word(struct results_channel_spec *ch, const char *word, char *err, size_t errlen)
{
	const char *colon = strchr(word, ':');
	const char *arg = colon ? colon + 1 : NULL;
	size_t klen = colon ? (size_t)(colon - word) : strlen(word);
	const char *name;

	memset(ch, 0, sizeof(*ch));
	for_message(ch->word, sizeof(ch->word), word, strlen(word));
	if (klen == 7 && !strncmp(word, "console", 7) && !arg) {
		ch->kind = RESULTS_CONSOLE;
		return 0;
	}
	if (klen == 4 && !strncmp(word, "kmsg", 4)) {
		ch->kind = RESULTS_KMSG;
		ch->kmsg_level = RESULTS_KMSG_LEVEL;
		if (!arg)
			return 0;
		if (strlen(arg) == 1 && arg[0] >= '0' && arg[0] <= '7') {
			ch->kmsg_level = arg[0] - '0';
			return 0;
		}
		snprintf(err, errlen, "'%s': the kmsg level is a syslog level, 0 to 7", ch->word);
		return -1;
	}
	if (klen == 6 && !strncmp(word, "serial", 6) && arg) {
		ch->kind = RESULTS_SERIAL;
		name = dev_name(arg);
		if (!name || strlen(name) >= 32) {
			snprintf(err, errlen, "'%s': not a tty name (ttyS1, /dev/ttyUSB0)",
				 ch->word);
			return -1;
		}
		snprintf(ch->value, sizeof(ch->value), "/dev/%s", name);
		return 0;
	}
	if (klen == 4 && !strncmp(word, "disk", 4) && arg) {
		ch->kind = RESULTS_DISK;
		return parse_disk(ch, arg, err, errlen);
	}
	snprintf(err, errlen, "'%s': not a channel (%s)", ch->word, RULES);
	return -1;
}

/* Whether two channels are the same place. */
static bool same_place(const struct results_channel_spec *a, const struct results_channel_spec *b)
{
	if (a->kind != b->kind)
		return false;
	return a->kind == RESULTS_CONSOLE || a->kind == RESULTS_KMSG || !strcmp(a->value, b->value);
}

int results_spec_parse(const char *text, struct results_spec *out, char *err, size_t errlen)
{
	char word[256];

	memset(out, 0, sizeof(*out));
	out->disk = -1;
	if (!text || !*text) {
		snprintf(err, errlen, "empty: name at least one channel (%s)", RULES);
		return -1;
	}
	for (const char *p = text; p;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		struct results_channel_spec *ch = &out->ch[out->count];

		if (!n || n >= sizeof(word)) {
			char shown[128];

			for_message(shown, sizeof(shown), text, strlen(text));
			snprintf(err, errlen, "%s word in '%s'", n ? "an overlong" : "an empty",
				 shown);
			return -1;
		}
		if (out->count == RESULTS_CHANNELS_MAX) {
			snprintf(err, errlen, "more than %d channels", RESULTS_CHANNELS_MAX);
			return -1;
		}
		memcpy(word, p, n);
		word[n] = '\0';
		if (parse_word(ch, word, err, errlen))
			return -1;
		for (size_t i = 0; i < out->count; i++)
			if (same_place(&out->ch[i], ch)) {
				snprintf(err, errlen, "'%s': named twice", ch->word);
				return -1;
			}
		if (ch->kind == RESULTS_DISK) {
			if (out->disk >= 0) {
				snprintf(err, errlen,
					 "'%s': a second results disk (one run writes one "
					 "results log; '%s' is the first)",
					 ch->word, out->ch[out->disk].word);
				return -1;
			}
			out->disk = (int)out->count;
		}
		out->count++;
		p = comma ? comma + 1 : NULL;
	}
	return 0;
}
