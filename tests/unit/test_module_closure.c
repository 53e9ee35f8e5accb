// SPDX-License-Identifier: GPL-2.0
/*
 * The module closure on a fake tree made by tests/lib/fake-modules (real
 * depmod, compressed modules): dependencies, soft dependencies from every
 * modules.softdep line, load order, built-in and missing modules.
 */
#include <limits.h>
#include <stdlib.h>

#include "lib/byte_buf.h"
#include "check.h"
#include "lib/errmsg.h"
#include "initramfs/image_tree.h"
#include "initramfs/module_closure.h"
#include "initramfs/module_file.h"

#define RELEASE "9.9.9-test"

static const char *const root = "build/tests/fake-modules-closure";
static char moddir[512];

static const char spec[] =
	"kernel/virtio/virtio.ko\n"
	"kernel/virtio/virtio_ring.ko.zst\n"
	"kernel/virtio/virtio_pci.ko.xz needs=virtio,virtio_ring\n"
	"kernel/lib/libcrc32c.ko pre=crc32c\n"
	"kernel/crypto/crc32c_generic.ko.zst alias=crc32c,crypto-crc32c\n"
	"kernel/crypto/blake2b_generic.ko alias=blake2b-256\n"
	"kernel/crypto/xxhash_generic.ko.xz alias=xxhash64\n"
	"kernel/fs/btrfs/btrfs.ko.zst needs=libcrc32c pre=blake2b-256,xxhash64,sha256 post=after-fs\n"
	"kernel/misc/after-fs.ko\n"
	"kernel/md/md-mod.ko\n"
	"kernel/md/raid0.ko needs=md-mod\n"
	"kernel/fs/ext2/ext2.ko\n"
	"builtin kernel/fs/ext4/ext4.ko\n";

static const struct wanted_module wanted[] = {
	{ "virtio_pci", "CONFIG_VIRTIO_PCI", NEED_ALWAYS, NULL, NULL, "t" },
	{ "raid0", "CONFIG_MD_RAID0", NEED_ALWAYS, NULL, NULL, "t" },
	{ "btrfs", "CONFIG_BTRFS_FS", NEED_ALWAYS, NULL, NULL, "t" },
	{ "ext4", "CONFIG_EXT4_FS", NEED_ALWAYS, NULL, NULL, "t" },
	{ "ext2", "CONFIG_EXT2_FS", NEED_IF_MODULE, "CONFIG_EXT4_USE_FOR_EXT2", "ext4", "t" },
	{ "not-here", "CONFIG_NOT_HERE", NEED_OPTIONAL, NULL, NULL, "nothing" },
	{ NULL, NULL, NEED_ALWAYS, NULL, NULL, NULL },
};

static void make_tree(void)
{
	char cmd[PATH_MAX + 128], path[PATH_MAX];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "rm -rf %s && mkdir -p %s", root, root);
	CHECK_EQ_INT(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/spec", root);
	f = fopen(path, "w");
	CHECK(f && fputs(spec, f) >= 0 && !fclose(f));
	snprintf(cmd, sizeof(cmd), "tests/lib/fake-modules %s %s < %s/spec", root, RELEASE, root);
	CHECK_EQ_INT(system(cmd), 0);
	snprintf(moddir, sizeof(moddir), "%s/lib/modules/%s", root, RELEASE);
}

static int position(const struct module_closure *c, const char *name)
{
	for (size_t i = 0; i < c->count; i++)
		if (!strcmp(c->mods[i].name, name))
			return (int)i;
	return -1;
}

static void test_order_and_soft_dependencies(void)
{
	struct module_closure c;
	char err[ERRMSG_LEN];
	FILE *notes = tmpfile();
	char line[512] = "";

	make_tree();
	CHECK_EQ_INT(module_closure_build(moddir, wanted, NULL, &c, notes, err, sizeof(err)), 0);
	CHECK_EQ_INT(c.count, 12);
	CHECK(position(&c, "virtio") >= 0 && position(&c, "virtio") < position(&c, "virtio_pci"));
	CHECK(position(&c, "virtio_ring") >= 0 &&
	      position(&c, "virtio_ring") < position(&c, "virtio_pci"));
	CHECK(position(&c, "md_mod") >= 0 && position(&c, "md_mod") < position(&c, "raid0"));
	/* both pre softdeps of btrfs, though on separate modules.softdep lines */
	CHECK(position(&c, "blake2b_generic") >= 0 &&
	      position(&c, "blake2b_generic") < position(&c, "btrfs"));
	CHECK(position(&c, "xxhash_generic") >= 0 &&
	      position(&c, "xxhash_generic") < position(&c, "btrfs"));
	/* a softdep of a dependency, through an alias */
	CHECK(position(&c, "crc32c_generic") >= 0 &&
	      position(&c, "crc32c_generic") < position(&c, "libcrc32c"));
	CHECK(position(&c, "libcrc32c") < position(&c, "btrfs"));
	CHECK(position(&c, "after_fs") > position(&c, "btrfs"));
	CHECK(position(&c, "ext2") >= 0); /* no config: included when present */
	CHECK(c.mods[position(&c, "blake2b_generic")].soft);
	CHECK(!c.mods[position(&c, "libcrc32c")].soft);
	CHECK_EQ_STR(c.mods[position(&c, "virtio_pci")].rel_path, "kernel/virtio/virtio_pci.ko.xz");
	CHECK_EQ_INT(c.builtin.count, 1);
	CHECK(name_list_has(&c.builtin, "ext4"));
	rewind(notes);
	CHECK(fgets(line, sizeof(line), notes) != NULL);
	CHECK(strstr(line, "module not-here") && strstr(line, "optional"));
	fclose(notes);
	module_closure_free(&c);
}

static void test_conditional_on_config(void)
{
	static const char with_m[] = "CONFIG_EXT2_FS=m\n";
	static const char served[] = "# CONFIG_EXT2_FS is not set\nCONFIG_EXT4_USE_FOR_EXT2=y\n";
	struct kernel_config cfg;
	struct module_closure c;
	char err[ERRMSG_LEN];

	CHECK_EQ_INT(kernel_config_parse(&cfg, "m.config", with_m, sizeof(with_m) - 1), 0);
	CHECK_EQ_INT(module_closure_build(moddir, wanted, &cfg, &c, NULL, err, sizeof(err)), 0);
	CHECK(position(&c, "ext2") >= 0);
	module_closure_free(&c);
	kernel_config_free(&cfg);

	CHECK_EQ_INT(kernel_config_parse(&cfg, "s.config", served, sizeof(served) - 1), 0);
	CHECK_EQ_INT(module_closure_build(moddir, wanted, &cfg, &c, NULL, err, sizeof(err)), 0);
	CHECK_EQ_INT(position(&c, "ext2"), -1);
	CHECK_EQ_INT(c.info.count, 1);
	CHECK(c.info.count &&
	      !strcmp(c.info.names[0],
		      "ext2: mounted by ext4 (CONFIG_EXT2_FS unset, CONFIG_EXT4_USE_FOR_EXT2=y)"));
	module_closure_free(&c);
	kernel_config_free(&cfg);
}

static void test_missing_module(void)
{
	/* printk is in every running kernel's /sys/module; this tree does not have it */
	static const struct wanted_module missing[] = {
		{ "printk", "CONFIG_PRINTK", NEED_ALWAYS, NULL, NULL, "a test" },
		{ NULL, NULL, NEED_ALWAYS, NULL, NULL, NULL },
	};
	static const char unset[] = "CONFIG_X=y\n";
	struct kernel_config cfg;
	struct module_closure c;
	char err[ERRMSG_LEN], want[2048];

	CHECK_EQ_INT(module_closure_build(moddir, missing, NULL, &c, NULL, err, sizeof(err)), -1);
	snprintf(want, sizeof(want),
		 "module printk (for a test) not found in %s nor built into the kernel: build the "
		 "kernel with CONFIG_PRINTK=m (no kernel config found to check why)",
		 moddir);
	CHECK_EQ_STR(err, want);
	CHECK_EQ_INT(c.count, 0);
	CHECK_EQ_INT(kernel_config_parse(&cfg, "u.config", unset, sizeof(unset) - 1), 0);
	CHECK_EQ_INT(module_closure_build(moddir, missing, &cfg, &c, NULL, err, sizeof(err)), -1);
	CHECK(strstr(err, "(u.config has it unset)") != NULL);
	kernel_config_free(&cfg);
	CHECK_EQ_INT(module_closure_build("/nonexistent/lib/modules/1", missing, NULL, &c, NULL,
					  err, sizeof(err)), -1);
	CHECK(strstr(err, "modules.dep not found") && strstr(err, "depmod"));
}

/* Compressed modules land in the image as the plain .ko they hold. */
static void test_decompressed_into_image(void)
{
	static const char *const files[] = { "kernel/virtio/virtio_ring.ko.zst",
					     "kernel/virtio/virtio_pci.ko.xz",
					     "kernel/virtio/virtio.ko", "kernel/virtio/virtio.ko.gz" };
	struct image_tree t = { 0 };
	char err[ERRMSG_LEN], cmd[2048];

	/* depmod here may not read .ko.gz, so the gzip module is made beside the tree's */
	snprintf(cmd, sizeof(cmd), "gzip -n -c %s/kernel/virtio/virtio.ko > %s/kernel/virtio/virtio.ko.gz",
		 moddir, moddir);
	CHECK_EQ_INT(system(cmd), 0);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char host[1024], plain_rel[512], image[1024], plain[2048];
		struct byte_buf want = { 0 };
		const struct image_entry *e;

		snprintf(host, sizeof(host), "%s/%s", moddir, files[i]);
		CHECK_EQ_INT(module_plain_name(files[i], plain_rel, sizeof(plain_rel)), 0);
		snprintf(image, sizeof(image), "/lib/modules/x%zu/%s", i, plain_rel);
		CHECK_EQ_INT(image_add_module(&t, image, host, err, sizeof(err)), 0);
		snprintf(plain, sizeof(plain), "%s/plain/%s", root, plain_rel);
		CHECK_EQ_INT(byte_buf_read_file(&want, plain, 1 << 24, err, sizeof(err)), 0);
		e = image_find(&t, image);
		CHECK(e && e->kind == ENTRY_FILE && e->size == want.len && e->part == PART_MODULES);
		/* .ko is copied from the host at write time; the others are decompressed now */
		CHECK(e && (i == 2 ? e->host_path != NULL
				   : e->data && !memcmp(e->data, want.data, want.len)));
		byte_buf_free(&want);
	}
	CHECK_EQ_INT(image_add_module(&t, "/lib/modules/x/y", "/etc/hostname", err, sizeof(err)),
		     -1);
	CHECK(strstr(err, "not a kernel module file") != NULL);
	image_tree_free(&t);
}

static void test_plain_name(void)
{
	char out[64];

	CHECK_EQ_INT(module_plain_name("kernel/a/b-c.ko.zst", out, sizeof(out)), 0);
	CHECK_EQ_STR(out, "kernel/a/b-c.ko");
	CHECK_EQ_INT(module_plain_name("x.ko.xz", out, sizeof(out)), 0);
	CHECK_EQ_STR(out, "x.ko");
	CHECK_EQ_INT(module_plain_name("x.ko", out, sizeof(out)), 0);
	CHECK_EQ_STR(out, "x.ko");
	CHECK_EQ_INT(module_plain_name("x.ko.bz2", out, sizeof(out)), -1);
	CHECK_EQ_INT(module_plain_name(".ko", out, sizeof(out)), -1);
	CHECK_EQ_INT(module_plain_name("long-name.ko", out, 5), -1);
}

int main(void)
{
	RUN_TEST(test_order_and_soft_dependencies);
	RUN_TEST(test_conditional_on_config);
	RUN_TEST(test_missing_module);
	RUN_TEST(test_decompressed_into_image);
	RUN_TEST(test_plain_name);
	CHECK_EXIT();
}
