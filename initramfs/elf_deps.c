// SPDX-License-Identifier: GPL-2.0
/* Reading PT_INTERP and the dynamic section; see elf_deps.h. */
#include "initramfs/elf_deps.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "lib/errmsg.h"

#define MAX_NEEDED 1024

/* The fields we use, widened from either ELF class. */
struct elf_view {
	const unsigned char *buf;
	size_t len;
	bool is64;
	uint64_t phoff;
	uint16_t phentsize, phnum;
};

struct segment {
	uint32_t type;
	uint64_t offset, vaddr, filesz;
};

static uint16_t rd16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t rd32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const unsigned char *p)
{
	return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

/* Is [off, off + size) inside the buffer? */
static bool in_file(const struct elf_view *v, uint64_t off, uint64_t size)
{
	return off <= v->len && size <= v->len - off;
}

static int read_segment(const struct elf_view *v, unsigned i, struct segment *s)
{
	uint64_t off = v->phoff + (uint64_t)i * v->phentsize;
	const unsigned char *p;

	if (!in_file(v, off, v->is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr)))
		return -1;
	p = v->buf + off;
	if (v->is64) {
		s->type = rd32(p + offsetof(Elf64_Phdr, p_type));
		s->offset = rd64(p + offsetof(Elf64_Phdr, p_offset));
		s->vaddr = rd64(p + offsetof(Elf64_Phdr, p_vaddr));
		s->filesz = rd64(p + offsetof(Elf64_Phdr, p_filesz));
	} else {
		s->type = rd32(p + offsetof(Elf32_Phdr, p_type));
		s->offset = rd32(p + offsetof(Elf32_Phdr, p_offset));
		s->vaddr = rd32(p + offsetof(Elf32_Phdr, p_vaddr));
		s->filesz = rd32(p + offsetof(Elf32_Phdr, p_filesz));
	}
	return 0;
}

/* The file offset of a virtual address, through the PT_LOAD segments. */
static int vaddr_to_offset(const struct elf_view *v, uint64_t vaddr, uint64_t *off)
{
	for (unsigned i = 0; i < v->phnum; i++) {
		struct segment s;

		if (read_segment(v, i, &s))
			return -1;
		if (s.type == PT_LOAD && vaddr >= s.vaddr && vaddr - s.vaddr < s.filesz) {
			*off = s.offset + (vaddr - s.vaddr);
			return 0;
		}
	}
	return -1;
}

/* A NUL-terminated string starting at off, within limit bytes of the file. */
static char *dup_string(const struct elf_view *v, uint64_t off, uint64_t limit)
{
	const unsigned char *p, *nul;

	if (off >= v->len)
		return NULL;
	if (limit > v->len - off)
		limit = v->len - off;
	p = v->buf + off;
	nul = memchr(p, '\0', (size_t)limit);
	if (!nul)
		return NULL;
	return strndup((const char *)p, (size_t)(nul - p));
}

static int parse_header(struct elf_view *v, struct elf_deps *d, const char *what, char *err,
			size_t errlen)
{
	const unsigned char *p = v->buf;

	if (v->len < EI_NIDENT || memcmp(p, ELFMAG, SELFMAG))
		return errmsg(err, errlen, "%s: not an ELF file", what);
	if (p[EI_DATA] != ELFDATA2LSB)
		return errmsg(err, errlen, "%s: not a little-endian ELF file", what);
	if (p[EI_CLASS] != ELFCLASS64 && p[EI_CLASS] != ELFCLASS32)
		return errmsg(err, errlen, "%s: unknown ELF class %u", what, p[EI_CLASS]);
	v->is64 = p[EI_CLASS] == ELFCLASS64;
	d->elf_class = p[EI_CLASS];
	if (!in_file(v, 0, v->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)))
		return errmsg(err, errlen, "%s: ELF header truncated", what);
	if (v->is64) {
		d->machine = rd16(p + offsetof(Elf64_Ehdr, e_machine));
		v->phoff = rd64(p + offsetof(Elf64_Ehdr, e_phoff));
		v->phentsize = rd16(p + offsetof(Elf64_Ehdr, e_phentsize));
		v->phnum = rd16(p + offsetof(Elf64_Ehdr, e_phnum));
	} else {
		d->machine = rd16(p + offsetof(Elf32_Ehdr, e_machine));
		v->phoff = rd32(p + offsetof(Elf32_Ehdr, e_phoff));
		v->phentsize = rd16(p + offsetof(Elf32_Ehdr, e_phentsize));
		v->phnum = rd16(p + offsetof(Elf32_Ehdr, e_phnum));
	}
	if (v->phnum && v->phentsize < (v->is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr)))
		return errmsg(err, errlen, "%s: program header entries too small", what);
	if (v->phnum && !in_file(v, v->phoff, (uint64_t)v->phnum * v->phentsize))
		return errmsg(err, errlen, "%s: program headers outside the file", what);
	return 0;
}

struct dynamic_info {
	uint64_t strtab_vaddr, strsz;
	bool have_strtab;
	uint64_t needed_off[MAX_NEEDED];
	size_t needed_count;
	uint64_t runpath_off, rpath_off;
	bool have_runpath, have_rpath;
};

static int scan_dynamic(const struct elf_view *v, const struct segment *dyn,
			struct dynamic_info *di, const char *what, char *err, size_t errlen)
{
	size_t entsize = v->is64 ? sizeof(Elf64_Dyn) : sizeof(Elf32_Dyn);

	if (!in_file(v, dyn->offset, dyn->filesz))
		return errmsg(err, errlen, "%s: dynamic section outside the file", what);
	for (uint64_t off = dyn->offset; off + entsize <= dyn->offset + dyn->filesz;
	     off += entsize) {
		const unsigned char *p = v->buf + off;
		int64_t tag = v->is64 ? (int64_t)rd64(p) : (int32_t)rd32(p);
		uint64_t val = v->is64 ? rd64(p + 8) : rd32(p + 4);

		switch (tag) {
		case DT_NULL:
			return 0;
		case DT_NEEDED:
			if (di->needed_count == MAX_NEEDED)
				return errmsg(err, errlen, "%s: more than %d DT_NEEDED entries",
					      what, MAX_NEEDED);
			di->needed_off[di->needed_count++] = val;
			break;
		case DT_STRTAB:
			di->strtab_vaddr = val;
			di->have_strtab = true;
			break;
		case DT_STRSZ:
			di->strsz = val;
			break;
		case DT_RUNPATH:
			di->runpath_off = val;
			di->have_runpath = true;
			break;
		case DT_RPATH:
			di->rpath_off = val;
			di->have_rpath = true;
			break;
		}
	}
	return 0;
}

static int read_dynamic(const struct elf_view *v, const struct segment *dyn,
			struct elf_deps *d, const char *what, char *err, size_t errlen)
{
	struct dynamic_info *di = calloc(1, sizeof(*di));
	uint64_t strtab;
	int ret = -1;

	if (!di)
		return errmsg(err, errlen, "%s: out of memory", what);
	if (scan_dynamic(v, dyn, di, what, err, errlen))
		goto out;
	if (!di->needed_count && !di->have_runpath && !di->have_rpath) {
		ret = 0;
		goto out;
	}
	if (!di->have_strtab || vaddr_to_offset(v, di->strtab_vaddr, &strtab) ||
	    !in_file(v, strtab, di->strsz)) {
		errmsg(err, errlen, "%s: dynamic string table missing or outside the file", what);
		goto out;
	}
	d->needed = calloc(di->needed_count ? di->needed_count : 1, sizeof(*d->needed));
	if (!d->needed) {
		errmsg(err, errlen, "%s: out of memory", what);
		goto out;
	}
	for (size_t i = 0; i < di->needed_count; i++) {
		char *name = di->needed_off[i] < di->strsz
				     ? dup_string(v, strtab + di->needed_off[i],
						  di->strsz - di->needed_off[i])
				     : NULL;

		if (!name || !*name) {
			free(name);
			errmsg(err, errlen, "%s: DT_NEEDED entry %zu is not a string in the table",
			       what, i);
			goto out;
		}
		d->needed[d->needed_count++] = name;
	}
	if (di->have_runpath || di->have_rpath) {
		uint64_t o = di->have_runpath ? di->runpath_off : di->rpath_off;

		d->search_is_runpath = di->have_runpath;
		d->search_path = o < di->strsz ? dup_string(v, strtab + o, di->strsz - o) : NULL;
		if (!d->search_path) {
			errmsg(err, errlen, "%s: DT_%s is not a string in the table", what,
			       di->have_runpath ? "RUNPATH" : "RPATH");
			goto out;
		}
	}
	ret = 0;
out:
	free(di);
	return ret;
}

int elf_deps_parse(const void *buf, size_t len, const char *what, struct elf_deps *deps,
		   char *err, size_t errlen)
{
	struct elf_view v = { .buf = buf, .len = len };
	bool have_dynamic = false;
	struct segment dyn = { 0 };

	memset(deps, 0, sizeof(*deps));
	if (parse_header(&v, deps, what, err, errlen))
		goto fail;
	for (unsigned i = 0; i < v.phnum; i++) {
		struct segment s;

		if (read_segment(&v, i, &s))
			goto truncated;
		if (s.type == PT_INTERP && !deps->interp) {
			if (!in_file(&v, s.offset, s.filesz))
				goto truncated;
			deps->interp = dup_string(&v, s.offset, s.filesz);
			if (!deps->interp || !*deps->interp) {
				errmsg(err, errlen, "%s: PT_INTERP is not a string", what);
				goto fail;
			}
		} else if (s.type == PT_DYNAMIC && !have_dynamic) {
			dyn = s;
			have_dynamic = true;
		}
	}
	if (have_dynamic && read_dynamic(&v, &dyn, deps, what, err, errlen))
		goto fail;
	return 0;
truncated:
	errmsg(err, errlen, "%s: program header outside the file", what);
fail:
	elf_deps_free(deps);
	return -1;
}

void elf_deps_free(struct elf_deps *deps)
{
	free(deps->interp);
	for (size_t i = 0; i < deps->needed_count; i++)
		free(deps->needed[i]);
	free(deps->needed);
	free(deps->search_path);
	memset(deps, 0, sizeof(*deps));
}
