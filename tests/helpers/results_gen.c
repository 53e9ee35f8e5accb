// SPDX-License-Identifier: GPL-2.0
/*
 * results_gen: writes what the appliance would leave behind for a synthetic
 * run, through the product's own writers, so that host tests and fuzz seed
 * corpora have realistic input. A test helper: never installed, never in
 * the product.
 *
 *   results_gen serial FILE N [options]   a console log with records 1..N
 *   results_gen log FILE N [options]      a results log (FILE must exist)
 *
 * options:
 *   --run-id ID       run id (default 5f0c9a1e7d2b4c38)
 *   --cells C         cell.count (default N): records go cell 0..C-1, then repeat 1
 *   --size MIN-MAX    record sizes in bytes (default 1000-60000)
 *   --status SEQ=S    record SEQ gets status S (ok by default)
 *   --skip SEQ        leave record SEQ out
 *   --damage SEQ      damage record SEQ (serial: one of its lines; log: a payload byte)
 *   --cut             serial: end the log in the middle of the last record
 *   --noise           serial: kernel lines between and inside ours
 *   --block-size B    log: block size (default 4096)
 *   --seed S          size and noise draws (default 1)
 * Options that name a SEQ may be given several times.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/crc32.h"
#include "records/results_log.h"
#include "records/serial_frame.h"
#include "synth_record.h"

#define MAX_MARKS 64

struct gen {
	const char *mode, *file;
	uint32_t n, cells;
	const char *run_id;
	size_t size_min, size_max;
	uint32_t block_size;
	uint64_t seed;
	bool cut, noise;
	uint32_t skip[MAX_MARKS], damage[MAX_MARKS], status_seq[MAX_MARKS];
	const char *status[MAX_MARKS];
	int nskip, ndamage, nstatus;
};

static bool marked(const uint32_t *list, int n, uint32_t seq)
{
	for (int i = 0; i < n; i++)
		if (list[i] == seq)
			return true;
	return false;
}

static const char *status_of(const struct gen *g, uint32_t seq)
{
	for (int i = 0; i < g->nstatus; i++)
		if (g->status_seq[i] == seq)
			return g->status[i];
	return "ok";
}

static char *make_record(const struct gen *g, uint32_t seq, size_t *len)
{
	struct synth_run run = {g->run_id, "quick", "6.1.0-57-amd64", g->cells};
	uint64_t rnd = g->seed * 1000003 + seq;
	size_t size = g->size_min + synth_below(&rnd, g->size_max - g->size_min + 1);

	return synth_record(&run, seq, status_of(g, seq), size, len);
}

static const char *const noise[] = {
	"[   12.345678] md/raid:md0: device vdb operational as raid disk 1\r\n",
	"[   13.000001] EXT4-fs (md0): mounted filesystem with ordered data mode.\r\n",
	"[   14.500000] sysrq: Show Blocked State\r\n",
};

static int write_serial(const struct gen *g)
{
	FILE *f = fopen(g->file, "w");
	uint64_t rnd = g->seed;

	if (!f) {
		fprintf(stderr, "results_gen: %s: %s\n", g->file, strerror(errno));
		return 1;
	}
	fputs("[    0.000000] Linux version 6.1.0-57-amd64\r\n", f);
	for (uint32_t seq = 1; seq <= g->n; seq++) {
		size_t len;
		char *rec = make_record(g, seq, &len);
		uint32_t crc = crc32_ieee(0, rec, len), count = frame_chunk_count(len);
		uint32_t bad_line = (uint32_t)synth_below(&rnd, count);

		if (marked(g->skip, g->nskip, seq)) {
			free(rec);
			continue;
		}
		for (uint32_t i = 0; i < count; i++) {
			char line[FRAME_LINE_MAX + 2];
			size_t n = frame_format_line(line, seq, rec, len, crc, i);
			const char *k = noise[synth_below(&rnd, 3)];

			if (g->cut && seq == g->n && i == count / 2 + 1)
				break;
			if (marked(g->damage, g->ndamage, seq) && i == bad_line)
				line[n / 2] = line[n / 2] == 'A' ? 'B' : 'A';
			if (g->noise && synth_below(&rnd, 4) == 0)
				fputs(k, f);
			if (g->noise && synth_below(&rnd, 8) == 0) {
				size_t at = synth_below(&rnd, n);

				fwrite(line, 1, at, f);
				fputs(k, f);
				fwrite(line + at, 1, n - at, f);
			} else {
				fwrite(line, 1, n, f);
			}
		}
		free(rec);
	}
	if (!g->cut)
		fputs("[  99.000000] reboot: Power down\r\n", f);
	if (fclose(f)) {
		fprintf(stderr, "results_gen: %s: %s\n", g->file, strerror(errno));
		return 1;
	}
	return 0;
}

/* Flips a payload byte of the record that starts at `block`. */
static int damage_record(const char *file, uint64_t block, uint32_t bs)
{
	off_t off = (off_t)(block * bs + RLOG_RECORD_HEADER + 1);
	int fd = open(file, O_RDWR);
	uint8_t b;
	int r;

	if (fd < 0)
		return -1;
	r = pread(fd, &b, 1, off) == 1 ? 0 : -1;
	b ^= 0x20;
	if (!r && pwrite(fd, &b, 1, off) != 1)
		r = -1;
	close(fd);
	return r;
}

static int write_log(const struct gen *g)
{
	char err[RLOG_ERR_LEN];
	struct results_log log;
	uint64_t damage_at[MAX_MARKS];
	int ndamage = 0;

	if (rlog_init(g->file, g->run_id, g->block_size, RLOG_INIT_OVERWRITE, err, sizeof(err)) ||
	    rlog_open(&log, g->file, NULL, NULL, err, sizeof(err))) {
		fprintf(stderr, "results_gen: %s\n", err);
		return 1;
	}
	for (uint32_t seq = 1; seq <= g->n; seq++) {
		struct rlog_entry e = {.seq = seq,
				       .cell_index = (seq - 1) % g->cells + 1,
				       .repeat = (seq - 1) / g->cells};
		char *rec;

		if (marked(g->skip, g->nskip, seq))
			continue;
		rec = make_record(g, seq, &e.len);
		e.data = rec;
		if (marked(g->damage, g->ndamage, seq) && ndamage < MAX_MARKS)
			damage_at[ndamage++] = log.end_block;
		if (rlog_append(&log, &e, err, sizeof(err))) {
			fprintf(stderr, "results_gen: %s\n", err);
			free(rec);
			rlog_close(&log);
			return 1;
		}
		free(rec);
	}
	rlog_close(&log);
	for (int i = 0; i < ndamage; i++)
		if (damage_record(g->file, damage_at[i], log.info.block_size))
			return 1;
	return 0;
}

static uint32_t seq_arg(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (*end && *end != '=') {
		fprintf(stderr, "results_gen: bad number '%s'\n", s);
		exit(2);
	}
	return (uint32_t)v;
}

int main(int argc, char **argv)
{
	struct gen g = {.run_id = "5f0c9a1e7d2b4c38",
			.size_min = 1000,
			.size_max = 60000,
			.block_size = 4096,
			.seed = 1};

	if (argc < 4) {
		fprintf(stderr, "usage: results_gen serial|log FILE N [options]\n");
		return 2;
	}
	g.mode = argv[1];
	g.file = argv[2];
	g.n = g.cells = seq_arg(argv[3]);
	for (int i = 4; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--cut")) {
			g.cut = true;
			continue;
		}
		if (!strcmp(a, "--noise")) {
			g.noise = true;
			continue;
		}
		if (!v) {
			fprintf(stderr, "results_gen: %s needs a value\n", a);
			return 2;
		}
		i++;
		if (!strcmp(a, "--run-id"))
			g.run_id = v;
		else if (!strcmp(a, "--cells"))
			g.cells = seq_arg(v);
		else if (!strcmp(a, "--size") &&
			 sscanf(v, "%zu-%zu", &g.size_min, &g.size_max) == 2)
			;
		else if (!strcmp(a, "--block-size"))
			g.block_size = seq_arg(v);
		else if (!strcmp(a, "--seed"))
			g.seed = seq_arg(v);
		else if (!strcmp(a, "--skip") && g.nskip < MAX_MARKS)
			g.skip[g.nskip++] = seq_arg(v);
		else if (!strcmp(a, "--damage") && g.ndamage < MAX_MARKS)
			g.damage[g.ndamage++] = seq_arg(v);
		else if (!strcmp(a, "--status") && strchr(v, '=') && g.nstatus < MAX_MARKS) {
			g.status_seq[g.nstatus] = seq_arg(v);
			g.status[g.nstatus++] = strchr(v, '=') + 1;
		} else {
			fprintf(stderr, "results_gen: unknown option or bad value: %s %s\n", a, v);
			return 2;
		}
	}
	if (!g.n || !g.cells || g.size_min > g.size_max) {
		fprintf(stderr, "results_gen: N, --cells and --size must be sensible\n");
		return 2;
	}
	if (!strcmp(g.mode, "serial"))
		return write_serial(&g);
	if (!strcmp(g.mode, "log"))
		return write_log(&g);
	fprintf(stderr, "results_gen: mode must be serial or log, not '%s'\n", g.mode);
	return 2;
}
