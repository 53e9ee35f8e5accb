// SPDX-License-Identifier: GPL-2.0
/* A strict JSON checker with a scalar visitor; see json_check.h. */
#include "lib/json_check.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct parser {
	const char *s;
	size_t len, pos;
	struct json_check_opts *o;
	size_t out; /* bytes written to o->minified */
	char path[JSON_CHECK_PATH_MAX];
	size_t path_len;
	char *err;
	size_t errlen;
	bool failed;
};

static int fail(struct parser *p, const char *what)
{
	if (!p->failed)
		snprintf(p->err, p->errlen, "byte %zu: %s", p->pos, what);
	p->failed = true;
	return -1;
}

static void emit(struct parser *p, const char *from, size_t n)
{
	if (p->o && p->o->minified) {
		memcpy(p->o->minified + p->out, from, n);
		p->out += n;
	}
}

static void skip_blanks(struct parser *p)
{
	while (p->pos < p->len && strchr(" \t\r\n", p->s[p->pos]) && p->s[p->pos])
		p->pos++;
}

/* Length of a valid UTF-8 sequence at s (at most n bytes), 0 when invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t need;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		need = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		need = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		need = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n < need)
		return 0;
	for (size_t i = 1; i < need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and code points beyond U+10FFFF. */
	if ((need == 3 && cp < 0x800) || (need == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return need;
}

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* A string at p->pos (its opening quote); start and n: the text between the quotes. */
static int parse_string(struct parser *p, const char **start, size_t *n)
{
	size_t from = p->pos;

	p->pos++;
	*start = p->s + p->pos;
	while (p->pos < p->len) {
		unsigned char c = (unsigned char)p->s[p->pos];
		size_t k;

		if (c == '"') {
			*n = (size_t)(p->s + p->pos - *start);
			p->pos++;
			emit(p, p->s + from, p->pos - from);
			return 0;
		}
		if (c < 0x20)
			return fail(p, "control character in a string");
		if (c == '\\') {
			if (p->pos + 1 >= p->len)
				break;
			c = (unsigned char)p->s[p->pos + 1];
			if (c == 'u') {
				if (p->pos + 6 > p->len)
					break;
				for (int i = 2; i < 6; i++)
					if (!is_hex(p->s[p->pos + i]))
						return fail(p, "\\u needs four hex digits");
				p->pos += 6;
				continue;
			}
			if (!strchr("\"\\/bfnrt", c) || !c)
				return fail(p, "unknown escape in a string");
			p->pos += 2;
			continue;
		}
		k = utf8_len((const unsigned char *)p->s + p->pos, p->len - p->pos);
		if (!k)
			return fail(p, "invalid UTF-8 in a string");
		p->pos += k;
	}
	return fail(p, "unterminated string");
}

static bool digit_at(const struct parser *p, size_t i)
{
	return i < p->len && p->s[i] >= '0' && p->s[i] <= '9';
}

static int parse_number(struct parser *p)
{
	size_t i = p->pos;

	if (i < p->len && p->s[i] == '-')
		i++;
	if (!digit_at(p, i))
		return fail(p, "not a value");
	if (p->s[i] == '0')
		i++;
	else
		while (digit_at(p, i))
			i++;
	if (i < p->len && p->s[i] == '.') {
		i++;
		if (!digit_at(p, i))
			return fail(p, "a digit must follow the decimal point");
		while (digit_at(p, i))
			i++;
	}
	if (i < p->len && (p->s[i] == 'e' || p->s[i] == 'E')) {
		i++;
		if (i < p->len && (p->s[i] == '+' || p->s[i] == '-'))
			i++;
		if (!digit_at(p, i))
			return fail(p, "a digit must follow the exponent");
		while (digit_at(p, i))
			i++;
	}
	emit(p, p->s + p->pos, i - p->pos);
	p->pos = i;
	return 0;
}

static void leaf(struct parser *p, enum json_leaf_type t, const char *tok, size_t n)
{
	if (p->o && p->o->leaf)
		p->o->leaf(p->o->ctx, p->path, t, tok, n);
}

/* Appends ".name" (or "name" at the top) to the path; returns the old length. */
static size_t path_push(struct parser *p, const char *name, size_t n)
{
	size_t old = p->path_len, room = sizeof(p->path) - 1 - old;

	if (old && room) {
		p->path[p->path_len++] = '.';
		room--;
	}
	if (n > room)
		n = room;
	memcpy(p->path + p->path_len, name, n);
	p->path_len += n;
	p->path[p->path_len] = '\0';
	return old;
}

static void path_pop(struct parser *p, size_t old)
{
	p->path_len = old;
	p->path[old] = '\0';
}

static int parse_value(struct parser *p, int depth);

static int parse_members(struct parser *p, int depth, bool object)
{
	char close = object ? '}' : ']';
	size_t item = 0;

	emit(p, p->s + p->pos, 1);
	p->pos++;
	skip_blanks(p);
	if (p->pos < p->len && p->s[p->pos] == close) {
		emit(p, &close, 1);
		p->pos++;
		return 0;
	}
	for (;;) {
		size_t old;

		skip_blanks(p);
		if (object) {
			const char *name;
			size_t n;

			if (p->pos >= p->len || p->s[p->pos] != '"')
				return fail(p, "a member name (a string) expected");
			if (parse_string(p, &name, &n))
				return -1;
			skip_blanks(p);
			if (p->pos >= p->len || p->s[p->pos] != ':')
				return fail(p, "':' expected after a member name");
			emit(p, ":", 1);
			p->pos++;
			old = path_push(p, name, n);
		} else {
			char idx[24];

			old = path_push(p, idx, (size_t)snprintf(idx, sizeof(idx), "%zu", item));
		}
		if (parse_value(p, depth + 1))
			return -1;
		path_pop(p, old);
		item++;
		skip_blanks(p);
		if (p->pos < p->len && p->s[p->pos] == ',') {
			emit(p, ",", 1);
			p->pos++;
			continue;
		}
		if (p->pos < p->len && p->s[p->pos] == close) {
			emit(p, &close, 1);
			p->pos++;
			return 0;
		}
		return fail(p, object ? "',' or '}' expected" : "',' or ']' expected");
	}
}

static const struct {
	const char *word;
	enum json_leaf_type type;
} literals[] = {
	{"true", JSON_LEAF_BOOL},
	{"false", JSON_LEAF_BOOL},
	{"null", JSON_LEAF_NULL},
};

static int parse_value(struct parser *p, int depth)
{
	const char *tok;
	size_t n;

	if (depth > JSON_CHECK_MAX_DEPTH)
		return fail(p, "nested too deep");
	skip_blanks(p);
	if (p->pos >= p->len)
		return fail(p, "a value expected, the text ended");
	switch (p->s[p->pos]) {
	case '{':
		return parse_members(p, depth, true);
	case '[':
		return parse_members(p, depth, false);
	case '"':
		if (parse_string(p, &tok, &n))
			return -1;
		leaf(p, JSON_LEAF_STRING, tok - 1, n + 2);
		return 0;
	default:
		break;
	}
	for (size_t i = 0; i < sizeof(literals) / sizeof(literals[0]); i++) {
		size_t k = strlen(literals[i].word);

		if (p->len - p->pos >= k && !memcmp(p->s + p->pos, literals[i].word, k)) {
			emit(p, p->s + p->pos, k);
			leaf(p, literals[i].type, p->s + p->pos, k);
			p->pos += k;
			return 0;
		}
	}
	tok = p->s + p->pos;
	if (parse_number(p))
		return -1;
	leaf(p, JSON_LEAF_NUMBER, tok, (size_t)(p->s + p->pos - tok));
	return 0;
}

int json_check(const char *text, size_t len, struct json_check_opts *opts, char *err, size_t errlen)
{
	struct parser p = {.s = text, .len = len, .o = opts, .err = err, .errlen = errlen};

	if (errlen)
		err[0] = '\0';
	if (parse_value(&p, 0))
		return -1;
	skip_blanks(&p);
	if (p.pos < p.len)
		return fail(&p, "text after the value");
	if (opts && opts->minified) {
		opts->minified[p.out] = '\0';
		opts->minified_len = p.out;
	}
	return 0;
}
