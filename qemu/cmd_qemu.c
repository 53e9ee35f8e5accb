// SPDX-License-Identifier: GPL-2.0
/*
 * iomatrix qemu: boot a kernel with the appliance image in QEMU, with disks
 * for it, the serial console shown live and captured, a wall-clock limit,
 * and an exit status that says how the boot ended (see qemu_cmd.more).
 */
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/appliance_contract.h"
#include "lib/cli.h"
#include "lib/dirs.h"
#include "lib/errmsg.h"
#include "qemu/commands.h"
#include "qemu/qemu_disks.h"
#include "qemu/qemu_kernel.h"
#include "qemu/qemu_log.h"
#include "qemu/qemu_results.h"
#include "qemu/qemu_run.h"

#define MAX_QEMU_ARGS  64
#define MAX_BOOTS      100
#define ERR_LEN	       8192
#define MAX_SERIAL_LOG (1u << 30) /* as the kernel reader's limit: no log of ours is near */

struct qemu_opts {
	const char *kernel, *release, *initrd;
	int pvh; /* -1: when the kernel supports it */
	int disks;
	uint64_t disk_size;
	const char *disk[QD_MAX];
	int ndisk;
	const char *disk_dir;
	bool nvme;
	uint64_t memory;
	int smp;
	const char *append;
	int timeout;
	const char *serial_log;
	const char *results_serial;
	const char *results_disk;
	int boots;
	bool watchdog;
	bool quiet;
	bool hide_kernel;
	const char *qemu_arg[MAX_QEMU_ARGS];
	int nqemu_arg;
	int accel;
	bool dry_run;
};

/* In the order of the --accel choices; auto: KVM when usable, else TCG. */
static const char *const accel_names[] = {"auto", "kvm", "tcg", NULL};

#define O(f) offsetof(struct qemu_opts, f)

static const struct cli_opt options[] = {
	{ .name = "kernel", .kind = CLI_STRING, .offset = O(kernel), .arg = "BZIMAGE",
	  .help = "the kernel to boot (default: /boot/vmlinuz-R)" },
	{ .name = "release", .kind = CLI_STRING, .offset = O(release), .arg = "R",
	  .help = "an installed kernel release (default: the newest)" },
	{ .name = "initrd", .kind = CLI_STRING, .offset = O(initrd), .arg = "FILE",
	  .help = "the image (default: the newest WORK/image/initramfs-R.cpio*)" },
	{ .name = "pvh", .kind = CLI_SET, .offset = O(pvh),
	  .help = "PVH direct boot, or fail (default: when the kernel has it)", .value = 1 },
	{ .name = "no-pvh", .kind = CLI_SET, .offset = O(pvh),
	  .help = "boot the bzImage through the firmware", .value = 0 },
	{ .name = "disks", .kind = CLI_INT, .offset = O(disks), .max = QD_MAX, .arg = "N",
	  .help = "create N sparse disks (serials iomatrix-disk0...)" },
	{ .name = "disk-size", .kind = CLI_SIZE, .offset = O(disk_size), .min = 4096, .arg = "SIZE",
	  .help = "their size, e.g. 1G (default 1G)" },
	{ .name = "disk", .kind = CLI_LIST, .offset = O(disk), .max = QD_MAX, .arg = "PATH",
	  .help = "pass a file or block device through (repeatable)", .count_offset = O(ndisk) },
	{ .name = "disk-dir", .kind = CLI_STRING, .offset = O(disk_dir), .arg = "DIR",
	  .help = "keep the created disks in DIR (default: a temporary dir, removed)" },
	{ .name = "nvme", .kind = CLI_FLAG, .offset = O(nvme),
	  .help = "emulated NVMe disks instead of virtio-blk" },
	{ .name = "memory", .kind = CLI_SIZE, .offset = O(memory), .min = 64 << 20, .arg = "SIZE",
	  .help = "guest memory (default 2G)" },
	{ .name = "smp", .kind = CLI_INT, .offset = O(smp), .min = 1, .max = 256, .arg = "N",
	  .help = "guest CPUs (default 2)" },
	{ .name = "append", .kind = CLI_STRING, .offset = O(append), .arg = "ARGS",
	  .help = "more kernel command line, e.g. iomatrix.debug" },
	{ .name = "timeout", .kind = CLI_INT, .offset = O(timeout), .max = 1000000,
	  .arg = "SECONDS",
	  .help = "kill QEMU after this wall time (default 600)" },
	{ .name = "serial-log", .kind = CLI_STRING, .offset = O(serial_log), .arg = "FILE",
	  .help = "the console log (default WORK/qemu/serial-TIME.log)" },
	{ .name = "results-serial", .kind = CLI_STRING, .offset = O(results_serial), .arg = "FILE",
	  .help = "records on a serial port of their own (ttyS1), captured to FILE" },
	{ .name = "results-disk", .kind = CLI_STRING, .offset = O(results_disk), .arg = "FILE",
	  .help = "a results log on a disk of its own (FILE, made 64 MiB sparse when missing); "
		  "a later boot or run on it resumes the matrix" },
	{ .name = "boots", .kind = CLI_INT, .offset = O(boots), .min = 1, .max = MAX_BOOTS,
	  .arg = "N",
	  .help = "boot again after a crash, panic or watchdog reset, on the same disks, up to "
		  "N boots (default 1)" },
	{ .name = "watchdog", .kind = CLI_FLAG, .offset = O(watchdog),
	  .help = "an i6300esb watchdog that resets the guest (always with --boots > 1)" },
	{ .name = "quiet", .kind = CLI_FLAG, .offset = O(quiet),
	  .help = "do not show the console live (not with --hide-kernel)" },
	{ .name = "hide-kernel", .kind = CLI_FLAG, .offset = O(hide_kernel),
	  .help = "show the console live without the kernel's messages (but panics and oopses); "
		  "the serial log keeps them" },
	{ .name = "qemu-arg", .kind = CLI_LIST, .offset = O(qemu_arg), .max = MAX_QEMU_ARGS,
	  .arg = "ARG",
	  .help = "one more QEMU argument (repeatable)", .count_offset = O(nqemu_arg) },
	{ .name = "accel", .kind = CLI_CHOICE, .offset = O(accel), .choices = accel_names,
	  .arg = "A",
	  .help = "accelerator (default auto: KVM when usable)" },
	{ .name = "dry-run", .kind = CLI_FLAG, .offset = O(dry_run),
	  .help = "print the QEMU command line and exit" },
};

static const struct cli_cmd qemu_cmd = {
	.name = "qemu",
	.synopsis = "",
	.about = "Boots a kernel with the appliance image in QEMU: the console is shown live\n"
		 "and captured, and the exit status says how the boot ended.",
	.more = "With the console live, Ctrl-A x quits QEMU; iomatrix.shell on --append gives a\n"
		"busybox shell in the guest instead of powering off.\n\n"
		"WORK, where `iomatrix image` writes images and the vmlinux of a PVH boot is\n"
		"cached, is $" DIRS_WORK_ENV ", else\n  " DIRS_WORK_DEFAULT ".\n\n"
		"exit status:\n"
		"  0  clean power-off: QEMU exited by itself and the runner's power-off line is in "
		"the log\n"
		"  1  launcher or QEMU error (missing kernel, image or QEMU; QEMU failed)\n"
		"  2  usage error\n"
		"  3  kernel panic or crash: a panic in the log, or QEMU exited without the "
		"power-off line\n"
		"  4  timeout: QEMU was killed after --timeout seconds\n"
		"  5  the appliance reported FATAL (an \"" CONSOLE_PREFIX CONSOLE_FATAL "...\" line: a bad\n"
		"     setting, a matrix that does not exist, ...) and powered off\n",
	.opts = options,
	.nopts = sizeof(options) / sizeof(options[0]),
};

/* 0 to go on, 1 when --help was printed, -1 on a usage error (reported). */
static int parse_args(int argc, char **argv, struct qemu_opts *o)
{
	size_t npos;
	int r;

	memset(o, 0, sizeof(*o));
	o->pvh = -1;
	o->disk_size = 1ULL << 30;
	o->memory = 2ULL << 30;
	o->smp = 2;
	o->timeout = 600;
	o->boots = 1;
	r = cli_parse(&qemu_cmd, argc, argv, o, NULL, &npos);
	if (r)
		return r;
	if (o->kernel && o->release) {
		fprintf(stderr, "iomatrix qemu: give --kernel or --release, not both\n");
		return -1;
	}
	/* two ways to show the console (README: [--quiet | --hide-kernel]) */
	if (o->quiet && o->hide_kernel) {
		fprintf(stderr, "iomatrix qemu: give --quiet or --hide-kernel, not both\n");
		return -1;
	}
	if (o->disks + o->ndisk > QD_MAX) {
		fprintf(stderr, "iomatrix qemu: at most %d disks in all (--disks and --disk)\n",
			QD_MAX);
		return -1;
	}
	return 0;
}

/* Everything one boot needs, worked out from the options. */
struct boot {
	struct iomatrix_dirs dirs;
	/* Short of PATH_MAX by the longest name put in them: a path made from them fits. */
	char image_dir[PATH_MAX - 256]; /* WORK/image: where `iomatrix image` writes */
	char qemu_dir[PATH_MAX - 256];	/* WORK/qemu: the vmlinux cache, logs, disks */
	char release[128];
	char bzimage[4096];
	char kernel[4096]; /* what -kernel gets: the bzImage or the cached vmlinux */
	char initrd[4096];
	char serial_log[4096];
	char disk_dir[4096];
	bool temp_disk_dir;
	bool pvh;
	const char *accel;
	struct qemu_disk disks[QD_MAX];
	int ndisks;
	struct qemu_results results;
	char append[8192]; /* what -append gets */
};

static int find_kernel(const struct qemu_opts *o, struct boot *b, char *err, size_t errlen)
{
	if (o->kernel) {
		struct byte_buf data = { 0 };
		struct qk_bzimage bz;

		snprintf(b->bzimage, sizeof(b->bzimage), "%s", o->kernel);
		if (qk_read_kernel(o->kernel, &data, err, errlen))
			return -1;
		if (qk_parse_bzimage(data.data, data.len, &bz, err, errlen) && !bz.release[0]) {
			byte_buf_free(&data);
			return -1;
		}
		byte_buf_free(&data);
		snprintf(b->release, sizeof(b->release), "%s", bz.release);
		return 0;
	}
	if (o->release)
		snprintf(b->release, sizeof(b->release), "%s", o->release);
	else if (qk_newest_release("/lib/modules", "/boot", b->release, sizeof(b->release), err,
				   errlen))
		return -1;
	snprintf(b->bzimage, sizeof(b->bzimage), "/boot/vmlinuz-%s", b->release);
	if (access(b->bzimage, R_OK)) {
		snprintf(err, errlen, "cannot read %s: %s%s", b->bzimage, strerror(errno),
			 errno == ENOENT ? " (install the kernel package, or give --kernel)"
					 : " (Debian installs it mode 0600: run as root)");
		return -1;
	}
	return 0;
}

static int find_initrd(const struct qemu_opts *o, struct boot *b, char *err, size_t errlen)
{
	char pattern[PATH_MAX + 192];
	time_t newest = 0;
	glob_t g;

	if (o->initrd) {
		if (access(o->initrd, R_OK)) {
			snprintf(err, errlen, "--initrd %s: %s", o->initrd, strerror(errno));
			return -1;
		}
		snprintf(b->initrd, sizeof(b->initrd), "%s", o->initrd);
		return 0;
	}
	snprintf(pattern, sizeof(pattern), "%s/initramfs-%s.cpio*", b->image_dir, b->release);
	b->initrd[0] = '\0';
	if (glob(pattern, 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++) {
			struct stat st;

			if (stat(g.gl_pathv[i], &st) == 0 && st.st_mtime >= newest) {
				newest = st.st_mtime;
				snprintf(b->initrd, sizeof(b->initrd), "%s", g.gl_pathv[i]);
			}
		}
		globfree(&g);
	}
	if (!b->initrd[0]) {
		errmsg(err, errlen,
		       "no image for %s in %s/: run `%s image --release %s` (or give --initrd)",
		       b->release, b->image_dir, b->dirs.exe, b->release);
		return -1;
	}
	return 0;
}

static int choose_boot_path(const struct qemu_opts *o, struct boot *b, char *err, size_t errlen)
{
	char why[QK_ERR_LEN] = "";
	int ret;

	snprintf(b->kernel, sizeof(b->kernel), "%s", b->bzimage);
	if (o->pvh == 0)
		return 0;
	ret = qk_pvh_vmlinux(b->bzimage, b->qemu_dir, b->kernel, sizeof(b->kernel), why, sizeof(why));
	if (ret < 0) {
		snprintf(err, errlen, "%s", why);
		return -1;
	}
	if (ret == 0) {
		snprintf(b->kernel, sizeof(b->kernel), "%s", b->bzimage);
		if (o->pvh == 1) {
			snprintf(err, errlen, "--pvh: %s", why);
			return -1;
		}
		if (!o->quiet)
			fprintf(stderr, "iomatrix qemu: booting the bzImage, not PVH: %s\n", why);
		return 0;
	}
	b->pvh = true;
	return 0;
}

static int make_disks(const struct qemu_opts *o, struct boot *b, char *err, size_t errlen)
{
	if (o->disks > 0) {
		if (o->disk_dir) {
			snprintf(b->disk_dir, sizeof(b->disk_dir), "%s", o->disk_dir);
			if (mkdir(b->disk_dir, 0755) && errno != EEXIST) {
				snprintf(err, errlen, "--disk-dir %s: %s", o->disk_dir,
					 strerror(errno));
				return -1;
			}
		} else {
			snprintf(b->disk_dir, sizeof(b->disk_dir), "%s/disks-XXXXXX", b->qemu_dir);
			if (!mkdtemp(b->disk_dir)) {
				snprintf(err, errlen, "cannot create %s: %s", b->disk_dir,
					 strerror(errno));
				b->disk_dir[0] = '\0';
				return -1;
			}
			b->temp_disk_dir = true;
		}
		if (qd_create(b->disk_dir, o->disks, o->disk_size, b->temp_disk_dir, b->disks, err,
			      errlen))
			return -1;
		b->ndisks = o->disks;
	}
	for (int i = 0; i < o->ndisk; i++) {
		if (qd_passthrough("--disk", o->disk[i], i, &b->disks[b->ndisks], err, errlen))
			return -1;
		b->ndisks++;
	}
	return 0;
}

static void remove_temp_disks(struct boot *b)
{
	if (!b->temp_disk_dir)
		return;
	for (int i = 0; i < b->ndisks; i++)
		if (b->disks[i].created)
			unlink(b->disks[i].path);
	rmdir(b->disk_dir);
}

static int open_serial_log(const struct qemu_opts *o, struct boot *b, char *err, size_t errlen)
{
	char stamp[32];
	time_t t = time(NULL);
	FILE *f;

	if (o->serial_log) {
		snprintf(b->serial_log, sizeof(b->serial_log), "%s", o->serial_log);
	} else {
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&t));
		snprintf(b->serial_log, sizeof(b->serial_log), "%s/serial-%s-%d.log", b->qemu_dir,
			 stamp, (int)getpid());
	}
	/* Created (and emptied) here, so a failed QEMU start still leaves a log to read. */
	f = fopen(b->serial_log, "w");
	if (!f) {
		snprintf(err, errlen, "cannot create %s: %s", b->serial_log, strerror(errno));
		return -1;
	}
	fclose(f);
	return 0;
}

/* Boot n of the launch: from the second on, the captures are appended to. */
static void build_argv(const struct qemu_opts *o, const struct boot *b, const char *qemu, int n,
		       struct qemu_argv *a)
{
	bool kvm = !strcmp(b->accel, "kvm");
	const char *again = n > 1 ? ",append=on" : "";

	qa_add(a, "%s", qemu);
	qa_add(a, "-accel");
	qa_add(a, "%s", b->accel);
	qa_add(a, "-cpu");
	/* Not "max" under TCG: the kernel would pick AVX2/SSE4.2 paths TCG runs slowly. */
	qa_add(a, kvm ? "host" : "qemu64,+rdrand");
	qa_add(a, "-smp");
	qa_add(a, "%d", o->smp);
	qa_add(a, "-m");
	qa_add(a, "%lluM", (unsigned long long)(o->memory >> 20));
	qa_add(a, "-nodefaults");
	qa_add(a, "-no-user-config");
	qa_add(a, "-display");
	qa_add(a, "none");
	/*
	 * A panic (panic=-1), a reboot and a watchdog reset all end QEMU: the
	 * launcher sees each boot end and starts the next itself (--boots).
	 */
	qa_add(a, "-no-reboot");
	qa_add(a, "-chardev");
	if (o->quiet) {
		qa_add(a, "file,id=console,path=%s%s", b->serial_log, again);
	} else {
		/* stdio and the log at once; mux'ed with the monitor so Ctrl-A x quits. */
		qa_add(a, "stdio,id=console,mux=on,signal=off,logfile=%s%s", b->serial_log,
		       n > 1 ? ",logappend=on" : "");
		qa_add(a, "-mon");
		qa_add(a, "chardev=console,mode=readline");
	}
	qa_add(a, "-serial");
	qa_add(a, "chardev:console");
	if (b->results.serial[0]) {
		/* the second port: the guest's ttyS1 */
		qa_add(a, "-chardev");
		qa_add(a, "file,id=results,path=%s%s", b->results.serial, again);
		qa_add(a, "-serial");
		qa_add(a, "chardev:results");
	}
	qa_add(a, "-device");
	qa_add(a, "virtio-rng-pci");
	for (int i = 0; i < b->ndisks; i++) {
		const struct qemu_disk *d = &b->disks[i];

		qa_add(a, "-drive");
		qa_add(a, "file=%s,format=raw,if=none,id=disk%d,cache=%s,aio=threads", d->path, i,
		       d->block_device ? "none" : "writeback");
		qa_add(a, "-device");
		qa_add(a, "%s,drive=disk%d,serial=%s", o->nvme ? "nvme" : "virtio-blk-pci", i,
		       d->serial);
	}
	if (b->results.disk[0]) {
		qa_add(a, "-drive");
		qa_add(a, "file=%s,format=raw,if=none,id=results,cache=%s,aio=threads",
		       b->results.disk, b->results.disk_block ? "none" : "writeback");
		qa_add(a, "-device");
		qa_add(a, "virtio-blk-pci,drive=results,serial=" QR_DISK_SERIAL);
	}
	if (o->watchdog || o->boots > 1) {
		qa_add(a, "-device");
		qa_add(a, "i6300esb");
		qa_add(a, "-action");
		qa_add(a, "watchdog=reset");
	}
	qa_add(a, "-kernel");
	qa_add(a, "%s", b->kernel);
	qa_add(a, "-initrd");
	qa_add(a, "%s", b->initrd);
	qa_add(a, "-append");
	qa_add(a, "%s", b->append);
	for (int i = 0; i < o->nqemu_arg; i++)
		qa_add(a, "%s", o->qemu_arg[i]);
}

/* One line a shell can run again: arguments with blanks are single-quoted. */
static void print_command(FILE *f, const struct qemu_argv *a)
{
	for (size_t i = 0; i < a->n; i++)
		fprintf(f, strpbrk(a->v[i], " \t") ? "%s'%s'" : "%s%s", i ? " " : "", a->v[i]);
	fputc('\n', f);
}

/* How one boot ended, from its part of the serial log (from offset on). */
static enum qemu_exit report(const struct boot *b, const struct qemu_run_result *r, int timeout,
			     long offset, const char *prefix, char *ended, size_t elen)
{
	struct byte_buf log = { 0 };
	struct qemu_log_facts f;
	char err[ERR_LEN];
	enum qemu_exit code;

	if (byte_buf_read_file(&log, b->serial_log, MAX_SERIAL_LOG, err, sizeof(err)))
		fprintf(stderr, "iomatrix qemu: %s\n", err);
	if (offset < 0 || (size_t)offset > log.len)
		offset = 0;
	qemu_log_scan((const char *)log.data + offset, log.len - (size_t)offset, &f);
	byte_buf_free(&log);
	code = qemu_log_exit_status(&f, r->status, r->timed_out);
	if (f.fatal[0])
		fprintf(stderr, "iomatrix qemu: %sthe appliance said: %s\n", prefix, f.fatal);
	if (f.oops)
		fprintf(stderr, "iomatrix qemu: %sthe kernel complained: %s\n", prefix,
			f.first_oops);
	switch (code) {
	case QEMU_EXIT_CLEAN:
		snprintf(ended, elen, "clean power-off");
		fprintf(stderr,
			"iomatrix qemu: %sclean power-off; PID 1 at %.2f s, power-off at %.2f s "
			"(guest uptime), %.1f s wall, %s, %s\n",
			prefix, f.t_start, f.t_power_off, r->seconds, b->pvh ? "PVH" : "bzImage",
			b->accel);
		break;
	case QEMU_EXIT_TIMEOUT:
		snprintf(ended, elen, "timeout");
		fprintf(stderr, "iomatrix qemu: %stimeout after %d s, QEMU killed\n", prefix,
			timeout);
		break;
	case QEMU_EXIT_FATAL:
		snprintf(ended, elen, "FATAL");
		fprintf(stderr, "iomatrix qemu: %sthe appliance stopped on a FATAL error%s\n",
			prefix, f.powered_off ? " and powered off" : "");
		break;
	case QEMU_EXIT_CRASH:
		snprintf(ended, elen, "crash: %s",
			 f.panicked	    ? f.panic
			 : !f.started	    ? "QEMU exited before PID 1 started"
			 : f.watchdog_armed ? "the machine reset without powering off (the "
					      "watchdog was armed: a hang?)"
					    : "QEMU exited without the runner's power-off line");
		fprintf(stderr, "iomatrix qemu: %s%s\n", prefix, ended);
		break;
	default:
		if (r->interrupted) {
			snprintf(ended, elen, "interrupted");
			fprintf(stderr, "iomatrix qemu: %sinterrupted, QEMU stopped\n", prefix);
		} else {
			snprintf(ended, elen, "QEMU failed (%s %d)",
				 WIFEXITED(r->status) ? "exit status" : "signal",
				 WIFEXITED(r->status) ? WEXITSTATUS(r->status)
						      : WTERMSIG(r->status));
			fprintf(stderr, "iomatrix qemu: %s%s\n", prefix, ended);
		}
		break;
	}
	return code;
}

static int prepare(const struct qemu_opts *o, struct boot *b, char *qemu, size_t qlen, char *err,
		   size_t errlen)
{
	char why[256];

	if (!qemu_find_program(QEMU_BINARY, qemu, qlen)) {
		snprintf(err, errlen,
			 QEMU_BINARY " not found: install the Debian package "
				     "qemu-system-x86 (make deps)");
		return -1;
	}
	/* From this program's path, not the current directory (lib/dirs.h). */
	if (iomatrix_dirs(&b->dirs, err, errlen))
		return -1;
	if ((size_t)snprintf(b->image_dir, sizeof(b->image_dir), "%s/image", b->dirs.work) >=
		    sizeof(b->image_dir) ||
	    (size_t)snprintf(b->qemu_dir, sizeof(b->qemu_dir), "%s/qemu", b->dirs.work) >=
		    sizeof(b->qemu_dir))
		return errmsg(err, errlen, "work directory %s: path too long", b->dirs.work);
	if (dirs_make(b->qemu_dir, err, errlen))
		return -1;
	b->accel = o->accel ? accel_names[o->accel]
			    : (qemu_kvm_usable(why, sizeof(why)) ? "kvm" : "tcg");
	if (!strcmp(accel_names[o->accel], "kvm") && !qemu_kvm_usable(why, sizeof(why))) {
		snprintf(err, errlen, "--accel kvm: %s", why);
		return -1;
	}
	if (find_kernel(o, b, err, errlen) || find_initrd(o, b, err, errlen) ||
	    choose_boot_path(o, b, err, errlen) || make_disks(o, b, err, errlen) ||
	    qr_prepare(o->results_disk, o->results_serial, o->dry_run, &b->results, err, errlen))
		return -1;
	{
		char words[256];

		qr_cmdline(&b->results, o->append, words, sizeof(words));
		snprintf(b->append, sizeof(b->append), "console=ttyS0 panic=-1%s%s%s", words,
			 o->append ? " " : "", o->append ? o->append : "");
	}
	if (o->dry_run && o->serial_log)
		snprintf(b->serial_log, sizeof(b->serial_log), "%s", o->serial_log);
	else if (o->dry_run)
		snprintf(b->serial_log, sizeof(b->serial_log), "%s/serial-TIME.log", b->qemu_dir);
	else if (open_serial_log(o, b, err, errlen))
		return -1;
	return 0;
}

/* Bytes in the file now: where the next boot's part of a log starts. */
static long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : (long)st.st_size;
}

/* A line between two boots in the serial log, so a reader sees where each starts. */
static void mark_boot(const char *path, int n, int max, const char *ended)
{
	FILE *f = fopen(path, "a");

	if (!f) {
		fprintf(stderr, "iomatrix qemu: %s: %s\n", path, strerror(errno));
		return;
	}
	fprintf(f, "\niomatrix-qemu: boot %d of at most %d (boot %d ended: %s)\n", n, max, n - 1,
		ended);
	fclose(f);
}

/* Boots until one ends other than by a crash, or --boots ran out. */
static int boot_loop(const struct qemu_opts *o, struct boot *b, const char *qemu)
{
	char err[ERR_LEN], ended[512] = "", prefix[32] = "";
	double started = 0;
	int code = QEMU_EXIT_ERROR, n;

	for (n = 1; n <= o->boots; n++) {
		struct qemu_argv a = {0};
		struct qemu_run_result r;
		double left = o->timeout > 0 ? o->timeout - started : 0;
		long offset;

		/* Before the boot's marker: a boot that never starts gets none. */
		if (o->timeout > 0 && left <= 0) {
			fprintf(stderr, "iomatrix qemu: timeout after %d s, before boot %d\n",
				o->timeout, n);
			code = QEMU_EXIT_TIMEOUT;
			n--; /* boots that ran */
			break;
		}
		if (o->boots > 1)
			snprintf(prefix, sizeof(prefix), "boot %d: ", n);
		if (n > 1) {
			mark_boot(b->serial_log, n, o->boots, ended);
			if (!o->quiet)
				fprintf(stderr, "iomatrix qemu: boot %d of at most %d\n", n,
					o->boots);
		}
		offset = file_size(b->serial_log);
		build_argv(o, b, qemu, n, &a);
		if (qemu_run(a.v, left,
			     o->quiet	      ? QEMU_LIVE_NONE
			     : o->hide_kernel ? QEMU_LIVE_NO_KERNEL
					      : QEMU_LIVE_ALL,
			     &r, err, sizeof(err))) {
			fprintf(stderr, "iomatrix qemu: %s\n", err);
			qa_free(&a);
			code = QEMU_EXIT_ERROR;
			break;
		}
		qa_free(&a);
		started += r.seconds;
		code = report(b, &r, (int)o->timeout, offset, prefix, ended, sizeof(ended));
		if (code != QEMU_EXIT_CRASH)
			break;
	}
	if (n > o->boots)
		n = o->boots;
	if (o->boots > 1)
		fprintf(stderr, "iomatrix qemu: %d boot%s ran (at most %d); the last: %s\n", n,
			n == 1 ? "" : "s", o->boots, ended);
	fprintf(stderr, "iomatrix qemu: serial log: %s\n", b->serial_log);
	if (b->results.serial[0])
		fprintf(stderr, "iomatrix qemu: results serial log: %s\n", b->results.serial);
	if (b->results.disk[0])
		fprintf(stderr, "iomatrix qemu: results disk: %s\n", b->results.disk);
	return code;
}

int cmd_qemu(int argc, char **argv)
{
	static struct boot b;
	struct qemu_opts o;
	struct qemu_argv a = {0};
	char err[ERR_LEN], qemu[4096];
	int code;

	code = parse_args(argc, argv, &o);
	if (code) {
		if (code < 0)
			fprintf(stderr, "iomatrix qemu: --help lists the options\n");
		return code < 0 ? QEMU_EXIT_USAGE : 0;
	}
	memset(&b, 0, sizeof(b));
	if (prepare(&o, &b, qemu, sizeof(qemu), err, sizeof(err))) {
		fprintf(stderr, "iomatrix qemu: %s\n", err);
		remove_temp_disks(&b);
		return QEMU_EXIT_ERROR;
	}
	if (o.dry_run) {
		build_argv(&o, &b, qemu, 1, &a);
		print_command(stdout, &a);
		remove_temp_disks(&b);
		qa_free(&a);
		return 0;
	}
	if (!o.quiet)
		fprintf(stderr, "iomatrix qemu: booting %s (%s, %s) with %s, %d disk(s); log %s\n",
			b.kernel, b.release, b.pvh ? "PVH" : "bzImage", b.initrd, b.ndisks,
			b.serial_log);
	if (o.boots > 1 && !b.results.disk[0])
		fprintf(stderr, "iomatrix qemu: --boots without --results-disk: each boot starts "
				"the matrix again\n");
	code = boot_loop(&o, &b, qemu);
	remove_temp_disks(&b);
	return code;
}
