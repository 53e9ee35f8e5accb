/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the appliance says on the console. Every line starts with
 * CONSOLE_PREFIX, "iomatrix: " (lib/appliance_contract.h spells it and
 * the words the launcher looks for), so a host can grep a serial log for
 * them; the key lines of a boot (banner, modules loaded, disks listed, power-off) end with
 * " t=SECONDS", the time since the kernel started (from /proc/uptime, 10 ms steps), so
 * boot times can be measured from any captured log.
 */
#ifndef IOMATRIX_RUNNER_CONSOLE_H
#define IOMATRIX_RUNNER_CONSOLE_H

#include <stdbool.h>

/* Seconds since boot from /proc/uptime, or -1 when it cannot be read. */
double con_uptime(void);

/* One line: CONSOLE_PREFIX, the message, a newline. */
void con_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same, ending with " t=SECONDS" (time since boot). */
void con_say_t(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Only when iomatrix.debug is set. */
void con_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void con_set_debug(bool on);

#endif
