/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What an ELF executable or shared library needs from the dynamic loader:
 * its interpreter (PT_INTERP), the libraries it names (DT_NEEDED) and where
 * it asks for them to be searched (DT_RUNPATH, or the older DT_RPATH).
 * Read from the file's bytes, without running anything; every offset is
 * checked, since the input is whatever file the user points us at.
 */
#ifndef IOMATRIX_INITRAMFS_ELF_DEPS_H
#define IOMATRIX_INITRAMFS_ELF_DEPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct elf_deps {
	uint16_t machine;	/* e_machine: a library must match its user */
	uint8_t elf_class;	/* ELFCLASS32 or ELFCLASS64 */
	char *interp;		/* NULL: no interpreter (static) */
	char **needed;		/* DT_NEEDED names, in file order */
	size_t needed_count;
	char *search_path;	/* DT_RUNPATH, else DT_RPATH, else NULL */
	bool search_is_runpath;
};

/*
 * Parse an ELF file held in buf (64- or 32-bit, little-endian). Returns 0,
 * or -1 with "what: cause" in err; deps is then empty.
 */
int elf_deps_parse(const void *buf, size_t len, const char *what, struct elf_deps *deps,
		   char *err, size_t errlen);
void elf_deps_free(struct elf_deps *deps);

#endif
