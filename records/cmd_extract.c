// SPDX-License-Identifier: GPL-2.0
/*
 * iomatrix extract: records out of serial logs and results logs, into a
 * result set. Each input is told apart by content: a results log starts
 * with its header; anything else is read as a console log.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/cli.h"
#include "records/commands.h"
#include "records/frame_decoder.h"
#include "records/rs_builder.h"
#include "records/results_log.h"

struct extract_opts {
	const char *output;
	const char *run_id;
	bool force, accept_incomplete, quiet;
};

#define OFF(f) offsetof(struct extract_opts, f)

static const struct cli_opt extract_opts[] = {
	{ .name = "output", .short_name = 'o', .kind = CLI_STRING, .offset = OFF(output),
	  .arg = "DIR", .help = "the result set to write; must not exist" },
	{ .name = "force", .short_name = 'f', .kind = CLI_FLAG, .offset = OFF(force),
	  .help = "replace DIR when it is a result set" },
	{ .name = "run-id", .kind = CLI_STRING, .offset = OFF(run_id), .arg = "ID",
	  .help = "keep run ID when the inputs hold several runs" },
	{ .name = "accept-incomplete", .kind = CLI_FLAG, .offset = OFF(accept_incomplete),
	  .help = "exit 0 even when the result set is incomplete" },
	{ .name = "quiet", .short_name = 'q', .kind = CLI_FLAG, .offset = OFF(quiet),
	  .help = "print nothing but errors" },
};

static const struct cli_cmd extract_cmd = {
	.name = "extract",
	.synopsis = "INPUT... -o RESULT_SET",
	.about = "Recovers the records of a run from serial logs (console captures, kernel\n"
		 "messages and all) and results logs (the results disk or partition, or an\n"
		 "image of it), told apart by content. Records found in several inputs are\n"
		 "merged by sequence number and must agree byte for byte. Each record is\n"
		 "checked as JSON; the result set (docs/records.md) is written all at once.",
	.more = "Exit status: 0 the result set is written and complete; 1 it is written\n"
		"but incomplete: a record damaged (seen, not intact in any input), lost\n"
		"(a gap in the sequence numbers), not a valid record, or different in two\n"
		"inputs, or a cell of the matrix without a record (0 with\n"
		"--accept-incomplete); 2 nothing was written: bad usage, an unreadable\n"
		"input, no valid record, several runs and no --run-id, or DIR exists.\n",
	.opts = extract_opts,
	.nopts = sizeof(extract_opts) / sizeof(extract_opts[0]),
};

struct sink {
	struct rs_builder *rs;
	int src;
};

static int from_serial(void *ctx, const struct frame_event *ev)
{
	struct sink *s = ctx;
	return ev->kind == FRAME_RECORD ? rsb_add_record(s->rs, s->src, ev->seq, ev->data, ev->len)
					: rsb_add_damaged(s->rs, s->src, ev->seq, ev->why);
}

static int from_log(void *ctx, const struct rlog_item *item)
{
	struct sink *s = ctx;
	return item->data ? rsb_add_record(s->rs, s->src, item->seq, item->data, item->len)
			  : rsb_add_damaged(s->rs, s->src, item->seq, item->damage);
}

static int read_serial(struct rs_builder *rs, const char *path, int fd, bool quiet)
{
	struct sink s = {rs, rsb_add_source(rs, path, RSB_SERIAL)};
	struct frame_decoder *d;
	const struct frame_stats *st;
	static char buf[1 << 16];
	ssize_t n;
	int r = 0;

	if (s.src < 0 || !(d = frame_decoder_new(from_serial, &s))) {
		fprintf(stderr, "iomatrix extract: out of memory\n");
		return -1;
	}
	while (!r && (n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fprintf(stderr, "iomatrix extract: %s: %s\n", path, strerror(errno));
			frame_decoder_free(d);
			return -1;
		}
		r = frame_decoder_feed(d, buf, (size_t)n);
	}
	if (!r)
		r = frame_decoder_finish(d);
	if (r) {
		/* the decoder fails only when memory runs out, here or in the sink */
		fprintf(stderr, "iomatrix extract: %s: out of memory\n", path);
		frame_decoder_free(d);
		return -1;
	}
	st = frame_decoder_stats(d);
	if (!quiet)
		printf("%s: serial log, %llu lines of ours (%llu repaired around kernel text, "
		       "%llu duplicates), %llu that never checked\n",
		       path, (unsigned long long)st->frames, (unsigned long long)st->repaired,
		       (unsigned long long)st->duplicates, (unsigned long long)st->bad);
	frame_decoder_free(d);
	return 0;
}

static int read_log(struct rs_builder *rs, const char *path, bool quiet)
{
	struct sink s = {rs, rsb_add_source(rs, path, RSB_LOG)};
	struct rlog_scan_result res;
	char err[RLOG_ERR_LEN];

	if (s.src < 0)
		return -1;
	if (rlog_scan_path(path, from_log, &s, &res, err, sizeof(err))) {
		fprintf(stderr, "iomatrix extract: %s\n", err);
		return -1;
	}
	if (rsb_source_set_log(rs, s.src, res.info.run_id, res.info.created_unix))
		return -1;
	if (!quiet)
		printf("%s: results log of run %s, %u records, %u damaged, last seq %u\n", path,
		       res.info.run_id, res.records, res.damaged, res.last_seq);
	return 0;
}

/* A results log begins with its header; anything else is a console log. */
static int read_input(struct rs_builder *rs, const char *path, bool quiet)
{
	char head[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC), r;

	if (fd < 0) {
		fprintf(stderr, "iomatrix extract: %s: %s\n", path, strerror(errno));
		return -1;
	}
	n = pread(fd, head, sizeof(head), 0);
	if (n < 0) {
		fprintf(stderr, "iomatrix extract: %s: %s\n", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (rlog_is_log(head, (size_t)n)) {
		close(fd);
		return read_log(rs, path, quiet);
	}
	r = read_serial(rs, path, fd, quiet);
	close(fd);
	return r;
}

/*
 * The inputs into pos (room for argc). 0 to go on, 1 when --help was
 * printed, -1 on a usage error (reported, one line).
 */
static int parse_args(int argc, char **argv, struct extract_opts *o, char **pos, size_t *npos)
{
	struct cli_cmd cmd = extract_cmd;
	int r;

	cmd.max_pos = (size_t)argc; /* INPUT...: as many as there are words */
	r = cli_parse(&cmd, argc, argv, o, pos, npos);
	if (r)
		return r;
	if (!o->output || !*npos) {
		fprintf(stderr, "iomatrix extract: %s (iomatrix extract --help)\n",
			!o->output ? "-o RESULT_SET is required" : "no INPUT given");
		return -1;
	}
	return 0;
}

int cmd_extract(int argc, char **argv)
{
	struct extract_opts o = {0};
	char err[RSB_ERR_LEN], **inputs;
	struct rs_builder *rs = NULL;
	size_t ninputs;
	int ret = 2, r;

	inputs = calloc((size_t)argc, sizeof(*inputs));
	if (!inputs) {
		fprintf(stderr, "iomatrix extract: out of memory\n");
		return 2;
	}
	r = parse_args(argc, argv, &o, inputs, &ninputs);
	if (r) {
		free(inputs);
		return r > 0 ? 0 : 2;
	}
	rs = rsb_new();
	if (!rs)
		goto out;
	for (size_t i = 0; i < ninputs; i++)
		if (read_input(rs, inputs[i], o.quiet))
			goto out;
	if (rsb_build(rs, o.run_id, err, sizeof(err))) {
		fprintf(stderr, "iomatrix extract: %s\n", err);
		goto out;
	}
	if (!o.quiet)
		rsb_print_summary(rs, stdout);
	if (rsb_write(rs, o.output, o.force, err, sizeof(err))) {
		fprintf(stderr, "iomatrix extract: %s\n", err);
		goto out;
	}
	if (!o.quiet)
		printf("result set %s: %u records%s\n", o.output, rsb_record_count(rs),
		       rsb_incomplete(rs) ? ", INCOMPLETE (see above)" : ", complete");
	ret = rsb_incomplete(rs) && !o.accept_incomplete ? 1 : 0;
out:
	rsb_free(rs);
	free(inputs);
	return ret;
}
