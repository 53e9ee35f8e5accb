/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every record says about the kernel and the machine: kernel release
 * and version, /proc/version, the command line, the CPU model, how many
 * CPUs and how much memory. Read once per boot.
 */
#ifndef IOMATRIX_RUNNER_MACHINE_INFO_H
#define IOMATRIX_RUNNER_MACHINE_INFO_H

#include <stdint.h>

#include "lib/json_out.h"

struct machine_info {
	char release[128];	/* uname -r */
	char version[256];	/* uname -v: "#1 SMP PREEMPT_DYNAMIC Debian ..." */
	char proc_version[512]; /* /proc/version */
	char cmdline[4096];	/* /proc/cmdline */
	char cpu_model[128];	/* /proc/cpuinfo's first "model name" */
	int cpus;		/* online */
	uint64_t mem_kb;	/* MemTotal */
};

void machine_info_read(struct machine_info *m);

/* The "model name" of a /proc/cpuinfo text into out ("" when none). */
void machine_cpu_model(const char *cpuinfo, char *out, size_t len);
/* MemTotal in kB from a /proc/meminfo text, 0 when absent. */
uint64_t machine_mem_kb(const char *meminfo);

/* The record's "kernel" and "machine" members. */
void machine_info_write(struct jw *j, const struct machine_info *m);

/* Reads a small text file (at most len - 1 bytes) into buf; -errno on failure. */
int read_text_file(const char *path, char *buf, size_t len);

#endif
