/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The strings the host and the appliance must spell alike: where the image
 * builder (initramfs/) puts what the runner reads, the console lines the
 * runner prints and the launcher (qemu/) reads a boot's end from, and the
 * serials of the disks the launcher makes for the runner to pick. Each is
 * spelled here once, so a change on one side cannot leave the other
 * looking for the old spelling. Only macros: both binaries include it.
 */
#ifndef IOMATRIX_LIB_APPLIANCE_CONTRACT_H
#define IOMATRIX_LIB_APPLIANCE_CONTRACT_H

/* --- files in the image (docs/image.md) ---------------------------------- */
#define IMAGE_ETC_DIR	 "/etc/iomatrix"
#define IMAGE_CONF_PATH	 IMAGE_ETC_DIR "/image.conf" /* key=value: release=, ... */
#define IMAGE_MATRIX_DIR IMAGE_ETC_DIR "/matrix"     /* the *.matrix files */
#define IMAGE_JOBS_DIR	 IMAGE_ETC_DIR "/jobs"	     /* the *.fio job files */

/* --- console lines (docs/appliance.md) ----------------------------------- */
/*
 * Every line the runner says starts with CONSOLE_PREFIX; the words after
 * it name the line. The launcher looks for prefix and word anywhere in a
 * line, since the kernel's output may come first on the same line.
 */
#define CONSOLE_PREFIX	  "iomatrix: "
#define CONSOLE_START	  "start:"     /* PID 1 runs: "start: PID 1 on Linux R ARCH t=S" */
#define CONSOLE_POWER_OFF "power-off"  /* the last line of every run: "power-off t=S" */
#define CONSOLE_FATAL	  "FATAL: "    /* a run stopped by an error: "FATAL: why" */
#define CONSOLE_WATCHDOG  "watchdog: " /* "watchdog: NAME armed, ..." when one is used */
#define CONSOLE_ARMED	  " armed"     /* ... in that line: the watchdog was armed */

/* --- disks ----------------------------------------------------------------- */
/* The launcher's scratch disks are SCRATCH_DISK_SERIAL0, 1, ...; the runner uses those by default. */
#define SCRATCH_DISK_SERIAL "iomatrix-disk"

#endif
