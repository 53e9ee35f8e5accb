// SPDX-License-Identifier: GPL-2.0
/* Reading PT_INTERP, DT_NEEDED and the run path from ELF files, good and broken. */
#include <elf.h>
#include <stdlib.h>
#include <unistd.h>

#include "lib/byte_buf.h"
#include "check.h"
#include "initramfs/elf_deps.h"
#include "lib/errmsg.h"

static int has_needed(const struct elf_deps *d, const char *name)
{
	for (size_t i = 0; i < d->needed_count; i++)
		if (!strcmp(d->needed[i], name))
			return 1;
	return 0;
}

static int build(const char *cmd)
{
	return system(cmd);
}

/* A program with a library and an $ORIGIN run path, built for the test. */
static const char *const prog_dir = "build/tests/elf-fixture";

static void make_fixture(void)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd),
		 "mkdir -p %1$s/lib && cd %1$s && "
		 "echo 'int getpid(void); int foo(void){return getpid() < 0;}' > foo.c && "
		 "gcc -shared -fPIC -o lib/libfoo.so.1 -Wl,-soname,libfoo.so.1 foo.c && "
		 "echo 'int foo(void); int main(void){return foo();}' > prog.c && "
		 "gcc -o prog prog.c lib/libfoo.so.1 -Wl,--enable-new-dtags,-rpath,'$ORIGIN/lib' "
		 "&& gcc -static -o static prog.c foo.c",
		 prog_dir);
	CHECK_EQ_INT(build(cmd), 0);
}

static void parse_path(const char *path, struct elf_deps *d, int expect)
{
	struct byte_buf b = { 0 };
	char err[ERRMSG_LEN];

	CHECK_EQ_INT(byte_buf_read_file(&b, path, 1 << 28, err, sizeof(err)), 0);
	CHECK_EQ_INT(elf_deps_parse(b.data, b.len, path, d, err, sizeof(err)), expect);
	byte_buf_free(&b);
}

static void test_dynamic_program(void)
{
	struct elf_deps d;
	char path[256];

	make_fixture();
	snprintf(path, sizeof(path), "%s/prog", prog_dir);
	parse_path(path, &d, 0);
	CHECK_EQ_STR(d.interp, "/lib64/ld-linux-x86-64.so.2");
	CHECK(has_needed(&d, "libfoo.so.1") && has_needed(&d, "libc.so.6"));
	CHECK_EQ_INT(d.needed_count, 2);
	CHECK_EQ_STR(d.search_path, "$ORIGIN/lib");
	CHECK(d.search_is_runpath);
	CHECK_EQ_INT(d.machine, EM_X86_64);
	CHECK_EQ_INT(d.elf_class, ELFCLASS64);
	elf_deps_free(&d);
}

static void test_static_program(void)
{
	struct elf_deps d;
	char path[256];

	snprintf(path, sizeof(path), "%s/static", prog_dir);
	parse_path(path, &d, 0);
	CHECK(d.interp == NULL);
	CHECK_EQ_INT(d.needed_count, 0);
	elf_deps_free(&d);
}

static void test_shared_library(void)
{
	struct elf_deps d;
	char path[256];

	snprintf(path, sizeof(path), "%s/lib/libfoo.so.1", prog_dir);
	parse_path(path, &d, 0);
	CHECK(d.interp == NULL);
	CHECK(has_needed(&d, "libc.so.6"));
	elf_deps_free(&d);
}

/* Every prefix of a real file: an error or a result, never a read out of bounds. */
static void test_truncated(void)
{
	struct byte_buf b = { 0 };
	struct elf_deps d;
	char err[ERRMSG_LEN], path[256];
	int failures = 0;

	snprintf(path, sizeof(path), "%s/prog", prog_dir);
	CHECK_EQ_INT(byte_buf_read_file(&b, path, 1 << 24, err, sizeof(err)), 0);
	for (size_t len = 0; len < b.len; len += len < 256 ? 1 : 61) {
		unsigned char *copy = malloc(len ? len : 1);

		memcpy(copy, b.data, len);
		if (elf_deps_parse(copy, len, "cut", &d, err, sizeof(err)))
			failures++;
		else
			elf_deps_free(&d);
		free(copy);
	}
	CHECK(failures > 0);
	CHECK_EQ_INT(elf_deps_parse(b.data, 3, "cut", &d, err, sizeof(err)), -1);
	CHECK_EQ_STR(err, "cut: not an ELF file");
	byte_buf_free(&b);
}

static void test_corrupt_headers(void)
{
	struct byte_buf b = { 0 };
	struct elf_deps d;
	char err[ERRMSG_LEN], path[256];
	Elf64_Ehdr eh;

	snprintf(path, sizeof(path), "%s/prog", prog_dir);
	CHECK_EQ_INT(byte_buf_read_file(&b, path, 1 << 24, err, sizeof(err)), 0);
	memcpy(&eh, b.data, sizeof(eh));
	((Elf64_Ehdr *)b.data)->e_phoff = (Elf64_Off)1 << 40;
	CHECK_EQ_INT(elf_deps_parse(b.data, b.len, "p", &d, err, sizeof(err)), -1);
	CHECK(strstr(err, "program headers outside the file") != NULL);
	memcpy(b.data, &eh, sizeof(eh));
	((Elf64_Ehdr *)b.data)->e_phentsize = 8;
	CHECK_EQ_INT(elf_deps_parse(b.data, b.len, "p", &d, err, sizeof(err)), -1);
	memcpy(b.data, &eh, sizeof(eh));
	b.data[EI_DATA] = ELFDATA2MSB;
	CHECK_EQ_INT(elf_deps_parse(b.data, b.len, "p", &d, err, sizeof(err)), -1);
	CHECK(strstr(err, "little-endian") != NULL);
	byte_buf_free(&b);
}

int main(void)
{
	RUN_TEST(test_dynamic_program);
	RUN_TEST(test_static_program);
	RUN_TEST(test_shared_library);
	RUN_TEST(test_truncated);
	RUN_TEST(test_corrupt_headers);
	CHECK_EXIT();
}
