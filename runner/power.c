// SPDX-License-Identifier: GPL-2.0
/* The end of a run: the debug shell, md arrays, sync, power-off. */
#include <stdarg.h>
#include <stdio.h>
#include <sys/reboot.h>
#include <unistd.h>

#include "lib/appliance_contract.h"
#include "runner/console.h"
#include "runner/setup/md_registry.h"
#include "runner/power.h"
#include "runner/spawn.h"
#include "runner/watchdog.h"

static bool shell_on;

void power_set_shell(bool on)
{
	shell_on = on;
}

static void run_shell(void)
{
	const char *const argv[] = {"/bin/sh", NULL};
	const struct spawn_opts opts = {-1, -1, -1, true};
	char how[64];
	int status;
	int ret;

	con_say("shell: iomatrix.shell is set: busybox sh on the console; exit it to power off");
	ret = run_child(argv, SPAWN_NO_TIMEOUT, &opts, &status);
	if (ret)
		con_say("shell: cannot run /bin/sh: %s", spawn_strerror(ret));
	else
		con_say("shell: exited (%s)", spawn_status_str(status, how, sizeof(how)));
}

void power_off(void)
{
	/* Before the shell too: a person at the prompt feeds no watchdog. */
	watchdog_disarm();
	if (shell_on)
		run_shell();
	md_registry_stop_all(POWER_MD_STOP_TIMEOUT);
	reap_all();
	sync();
	con_say_t(CONSOLE_POWER_OFF);
	reboot(RB_POWER_OFF);
	/* Only without CAP_SYS_BOOT; PID 1 still must not return. */
	con_say(CONSOLE_FATAL "reboot(RB_POWER_OFF) failed; halting here");
	for (;;) {
		sleep(60);
		reap_all();
	}
}

void fatal(const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	con_say(CONSOLE_FATAL "%s", msg);
	power_off();
}
