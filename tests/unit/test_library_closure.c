// SPDX-License-Identifier: GPL-2.0
/* Programs with exactly the libraries their loader will look for. */
#include <stdlib.h>

#include "check.h"
#include "lib/errmsg.h"
#include "initramfs/image_tree.h"
#include "initramfs/library_closure.h"

static const char *const fixture = "build/tests/closure-fixture";

static void make_fixture(void)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd),
		 "rm -rf %1$s && mkdir -p %1$s/lib %1$s/alone && cd %1$s && "
		 "echo 'int getpid(void); int foo(void){return getpid() < 0;}' > foo.c && "
		 "gcc -shared -fPIC -o lib/libfoo.so.1 -Wl,-soname,libfoo.so.1 foo.c && "
		 "echo 'int foo(void); int main(void){return foo();}' > prog.c && "
		 "gcc -o prog prog.c lib/libfoo.so.1 -Wl,--enable-new-dtags,-rpath,'$ORIGIN/lib' "
		 "&& cp prog alone/prog && gcc -static -o static prog.c foo.c",
		 fixture);
	CHECK_EQ_INT(system(cmd), 0);
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * The tree's regular files as "path:part" lines, sorted; with names_only,
 * just the file names of the libraries.
 */
static void files_of(const struct image_tree *t, int names_only, char *out, size_t outlen)
{
	const char **lines = calloc(t->count + 1, sizeof(*lines));
	char(*buf)[300] = calloc(t->count + 1, sizeof(*buf));
	size_t n = 0, used = 0;

	for (size_t i = 0; i < t->count; i++) {
		const struct image_entry *e = &t->entries[i];

		if (e->kind != ENTRY_FILE || (names_only && e->part != PART_LIBRARIES))
			continue;
		if (names_only)
			snprintf(buf[n], sizeof(buf[n]), "%s\n", strrchr(e->path, '/') + 1);
		else
			snprintf(buf[n], sizeof(buf[n]), "%s:%s\n", e->path,
				 image_part_names[e->part]);
		lines[n] = buf[n];
		n++;
	}
	qsort(lines, n, sizeof(*lines), by_string);
	out[0] = '\0';
	for (size_t i = 0; i < n && used < outlen; i++)
		used += (size_t)snprintf(out + used, outlen - used, "%s", lines[i]);
	free(lines);
	free(buf);
}

static void test_origin_run_path(void)
{
	struct image_tree t = { 0 };
	char err[ERRMSG_LEN], host[256], files[2048];

	make_fixture();
	snprintf(host, sizeof(host), "%s/prog", fixture);
	CHECK_EQ_INT(image_add_program(&t, "/opt/t/prog", host, PART_TOOLS, err, sizeof(err)), 0);
	files_of(&t, 0, files, sizeof(files));
	/* libc's DT_NEEDED of the loader is the loader itself: no second copy */
	CHECK_EQ_STR(files, "/lib/x86_64-linux-gnu/libc.so.6:libraries\n"
			    "/lib64/ld-linux-x86-64.so.2:libraries\n"
			    "/opt/t/lib/libfoo.so.1:libraries\n"
			    "/opt/t/prog:tools\n");
	image_tree_free(&t);
}

static void test_static_brings_nothing(void)
{
	struct image_tree t = { 0 };
	char err[ERRMSG_LEN], host[256], files[1024];

	snprintf(host, sizeof(host), "%s/static", fixture);
	CHECK_EQ_INT(image_add_program(&t, "/init", host, PART_RUNNER, err, sizeof(err)), 0);
	files_of(&t, 0, files, sizeof(files));
	CHECK_EQ_STR(files, "/init:runner\n");
	image_tree_free(&t);
}

static void test_script_taken_as_is(void)
{
	struct image_tree t = { 0 };
	char err[ERRMSG_LEN], files[1024];

	CHECK_EQ_INT(image_add_program(&t, "/init", "tests/lib/load-modules-init", PART_RUNNER,
				       err, sizeof(err)), 0);
	files_of(&t, 0, files, sizeof(files));
	CHECK_EQ_STR(files, "/init:runner\n");
	image_tree_free(&t);
	/* neither ELF nor script: said so */
	CHECK_EQ_INT(image_add_program(&t, "/init", "tests/lib/appliance-modules.spec",
				       PART_RUNNER, err, sizeof(err)), -1);
	CHECK_EQ_STR(err, "tests/lib/appliance-modules.spec: not an ELF file");
	image_tree_free(&t);
}

static void test_missing_library(void)
{
	struct image_tree t = { 0 };
	char err[ERRMSG_LEN], host[256];

	snprintf(host, sizeof(host), "%s/alone/prog", fixture);
	CHECK_EQ_INT(image_add_program(&t, "/bin/prog", host, PART_TOOLS, err, sizeof(err)), -1);
	CHECK(strstr(err, "library libfoo.so.1") && strstr(err, "not found"));
	image_tree_free(&t);
}

/* What ldd lists for a real tool is what goes in, no more, no less. */
static void test_same_as_ldd(void)
{
	static const char *const tools[] = { "/usr/sbin/mkfs.xfs", "/usr/sbin/mke2fs",
					     "/usr/sbin/mdadm" };

	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		struct image_tree t = { 0 };
		char err[ERRMSG_LEN], cmd[512], line[512], ours[4096], theirs[4096] = "";
		FILE *p;

		CHECK_EQ_INT(image_add_program(&t, "/sbin/x", tools[i], PART_TOOLS, err,
					       sizeof(err)), 0);
		files_of(&t, 1, ours, sizeof(ours));
		/* ldd: "libx.so.1 => /path (0x...)" and "/lib64/ld-linux... (0x...)" */
		snprintf(cmd, sizeof(cmd),
			 "ldd %s | grep -v linux-vdso | sed 's/ *(0x.*//; s/ =>.*//; "
			 "s/^[[:space:]]*//; s|.*/||' | LC_ALL=C sort",
			 tools[i]);
		p = popen(cmd, "r");
		while (p && fgets(line, sizeof(line), p))
			strncat(theirs, line, sizeof(theirs) - strlen(theirs) - 1);
		CHECK(p && pclose(p) == 0);
		CHECK(strstr(theirs, "libc.so.6") != NULL);
		CHECK_EQ_STR(ours, theirs);
		image_tree_free(&t);
	}
}

int main(void)
{
	RUN_TEST(test_origin_run_path);
	RUN_TEST(test_static_brings_nothing);
	RUN_TEST(test_script_taken_as_is);
	RUN_TEST(test_missing_library);
	RUN_TEST(test_same_as_ldd);
	CHECK_EXIT();
}
