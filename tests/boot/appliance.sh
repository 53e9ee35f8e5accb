#!/bin/sh
# Boot test: the appliance image for the installed Debian kernel, booted under
# TCG. Checks what PID 1 says (banner, modules, disks, power-off) and what
# `iomatrix qemu` answers (exit status) for a clean run, a bad iomatrix.* key,
# emulated NVMe and a timeout. Limits are generous: TCG is slow and the
# machine is shared.
#
# BOOT_IMAGE=FILE boots that image instead of building one.
set -u
cd "$(dirname "$0")/../.."
work=build/test-boot
rm -rf "$work"
mkdir -p "$work"
limit=300
n=0
failed=0

ok() { n=$((n + 1)); echo "ok - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok - $1"; }
check() { # check DESCRIPTION COMMAND...
	what=$1
	shift
	if "$@"; then ok "$what"; else not_ok "$what"; fi
}
has() { grep -qs -- "$2" "$1"; }
count() { grep -c -- "$2" "$1"; }

. tests/lib/release.sh
release=$BOOT_RELEASE

if [ -n "${BOOT_IMAGE:-}" ]; then
	initrd=$BOOT_IMAGE
else
	if build/iomatrix image --release "$release" --compress zstd -o "$work/initramfs.cpio.zst" \
		--quiet \
		>"$work/image.out" 2>&1; then
		ok "iomatrix image builds the image for $release"
	else
		not_ok "iomatrix image builds the image for $release"
		sed 's/^/# /' "$work/image.out"
		exit 1
	fi
	initrd=$work/initramfs.cpio.zst
fi

boot() { # boot NAME [OPTIONS...]: exit status in $rc, console in $work/NAME.log
	name=$1
	shift
	build/iomatrix qemu --release "$release" --initrd "$initrd" --accel tcg --quiet \
		--serial-log "$work/$name.log" "$@" >"$work/$name.out" 2>&1
	rc=$?
	echo "# $name: exit $rc; $(tail -n 2 "$work/$name.out" | head -n 1)"
}

# A clean boot with three sparse virtio disks (PVH when the kernel has it),
# running one cell of quick (tests/boot/matrix_quick.sh runs all of it).
boot clean --disks 3 --disk-size 1G --append iomatrix.cells=1 --timeout $limit
log=$work/clean.log
check "clean boot: iomatrix qemu exits 0" [ "$rc" -eq 0 ]
check "banner names the kernel release" has "$log" "^iomatrix: start: PID 1 on Linux $release "
check "banner carries the time since boot" has "$log" '^iomatrix: start: .* t=[0-9.]*'
check "the kernel version string is shown" has "$log" '^iomatrix: kernel: Linux version '
check "modules loaded with none failed" has "$log" '^iomatrix: modules: [1-9][0-9]* loaded, .* 0 failed in '
check "no module load failed" [ "$(count "$log" 'load failed')" -eq 0 ]
for i in 0 1 2; do
	check "disk $i listed with its serial" \
		has "$log" "^iomatrix: disk vd[a-z]: 1.0 GiB (1073741824 bytes) virtio model=\"\" serial=\"iomatrix-disk$i\""
done
check "three disks found" has "$log" '^iomatrix: disks: 3 found t='
check "the cell ran" has "$log" '^iomatrix: cell 1/1 \[#1 1/1\] array=jbod fs=ext2 workload=dd: ok, write '
check "no FATAL line" [ "$(count "$log" 'FATAL')" -eq 0 ]
check "power-off line" has "$log" '^iomatrix: power-off t=[0-9.]*'
check "the kernel powered down" has "$log" 'reboot: Power down'
check "launcher says clean power-off" has "$work/clean.out" '^iomatrix qemu: clean power-off'

# A bad iomatrix.* key: one clear line, then a clean power-off (bzImage boot path).
boot badkey --no-pvh --append "iomatrix.bogus=1" --timeout $limit
log=$work/badkey.log
check "bad key: iomatrix qemu exits 5 (FATAL, then a clean power-off)" [ "$rc" -eq 5 ]
check "bad key: exactly one FATAL line" [ "$(count "$log" '^iomatrix: FATAL: ')" -eq 1 ]
check "bad key: the line names the key and the known ones" \
	has "$log" '^iomatrix: FATAL: kernel command line: unknown key iomatrix.bogus (known: iomatrix.matrix, '
check "bad key: no module loaded after it" [ "$(count "$log" '^iomatrix: modules:')" -eq 0 ]
check "bad key: power-off line" has "$log" '^iomatrix: power-off t='
check "bad key: the launcher repeats the FATAL line" has "$work/badkey.out" 'the appliance said: iomatrix: FATAL'

# A bad value, and iomatrix.debug: each module's load is shown.
boot badvalue --append "iomatrix.debug iomatrix.wipe=maybe" --timeout $limit
log=$work/badvalue.log
check "bad value: one FATAL line naming it" \
	has "$log" '^iomatrix: FATAL: kernel command line: iomatrix.wipe=maybe: not a boolean'
check "bad value: FATAL and a clean power-off: exit 5" [ "$rc" -eq 5 ]

# Emulated NVMe: serials come from the controller, the model too.
boot nvme --nvme --disks 2 --disk-size 256M --append "iomatrix.debug iomatrix.cells=1" \
	--timeout $limit
log=$work/nvme.log
check "nvme: iomatrix qemu exits 0" [ "$rc" -eq 0 ]
for i in 0 1; do
	check "nvme: disk $i listed with serial and model" \
		has "$log" "^iomatrix: disk nvme[0-9]n1: 256.0 MiB (268435456 bytes) nvme model=\"QEMU NVMe Ctrl\" serial=\"iomatrix-disk$i\""
done
check "debug: each module's load time shown" has "$log" '^iomatrix: module nvme: loaded in [0-9.]* s'
check "nvme: the cell ran on both disks" \
	has "$log" '^iomatrix: cell 1/1 \[#1 1/1\] array=jbod fs=ext2 workload=dd: ok, write '
check "debug: each step's command shown" has "$log" '^iomatrix: mkfs: mke2fs -t ext2 -F .* /dev/nvme1n1'

# iomatrix.shell: a busybox sh on the console, then the power-off when it exits.
# The console is live (not --quiet), fed from a FIFO once the shell is there.
mkfifo "$work/shell.in"
build/iomatrix qemu --release "$release" --initrd "$initrd" --accel tcg --timeout $limit \
	--serial-log "$work/shell.log" --append iomatrix.shell <"$work/shell.in" \
	>"$work/shell.out" 2>&1 &
qemu_pid=$!
exec 3>"$work/shell.in"
for _ in $(seq $limit); do
	# the prompt, not just our line: ash asks the terminal for the cursor
	# position first and would take what we type for the answer
	has "$work/shell.log" '^/ # ' && break
	sleep 1
done
sleep 1
printf 'echo SHELL-SAYS-$((6 * 7))\nexit\n' >&3
wait $qemu_pid
rc=$?
exec 3>&-
log=$work/shell.log
check "shell: the appliance says the shell is there" has "$log" '^iomatrix: shell: iomatrix.shell is set'
check "shell: a command ran in it" has "$log" '^SHELL-SAYS-42'
check "shell: power-off after it exits" has "$log" '^iomatrix: power-off t='
check "shell: iomatrix qemu exits 0" [ "$rc" -eq 0 ]

# The wall-clock limit: exit 4 and the launcher says so.
boot timeout --disks 1 --timeout 1
check "timeout: iomatrix qemu exits 4" [ "$rc" -eq 4 ]
check "timeout: says QEMU was killed" has "$work/timeout.out" '^iomatrix qemu: timeout after 1 s, QEMU killed'
check "timeout: temporary disks removed" [ -z "$(ls -d build/qemu/disks-* 2>/dev/null)" ]

[ "$failed" -eq 0 ]
