#!/bin/sh
# iomatrix qemu without booting: usage errors, missing inputs, the QEMU command
# line it would run (--dry-run), and refusing a host disk that is mounted.
set -u
cd "$(dirname "$0")/../.."
work=build/test-host-qemu
rm -rf "$work"
mkdir -p "$work"
failed=0

check() { # check DESCRIPTION COMMAND...
	what=$1
	shift
	if "$@"; then echo "ok - $what"; else echo "not ok - $what"; failed=$((failed + 1)); fi
}
run() { # run OPTIONS...: exit status in $rc, output in $work/out
	build/iomatrix qemu "$@" >"$work/out" 2>&1
	rc=$?
	sed 's/^/# /' "$work/out" | head -n 5
}
says() { grep -q -- "$1" "$work/out"; }

run --bogus
check "unknown option: exit 2" [ "$rc" -eq 2 ]
check "unknown option: named" says 'unknown option --bogus'
run --disks many
check "bad number: exit 2" [ "$rc" -eq 2 ]
check "bad number: says why" says '--disks many: not a number'
run --memory 2X
check "bad size: exit 2" [ "$rc" -eq 2 ]
run --kernel a --release b
check "--kernel with --release: exit 2" [ "$rc" -eq 2 ]
run --quiet --hide-kernel --dry-run
check "--quiet with --hide-kernel: exit 2" [ "$rc" -eq 2 ]
check "--quiet with --hide-kernel: one line names both" \
	[ "$(grep -c -- '--quiet.*--hide-kernel' "$work/out")" -eq 1 ]
run --hide-kernel --quiet --dry-run
check "--hide-kernel with --quiet: exit 2" [ "$rc" -eq 2 ]
run --help
check "--help: exit 0" [ "$rc" -eq 0 ]
check "--help: documents the exit statuses" says '4  timeout'
check "--help: documents exit 5 (FATAL)" says '5  the appliance reported FATAL'

run --release 0.0.0-none --dry-run
check "missing kernel release: exit 1" [ "$rc" -eq 1 ]
check "missing kernel release: names the file" says 'cannot read /boot/vmlinuz-0.0.0-none'

# A fake bzImage and image: only the command line is checked.
printf 'x' >"$work/initramfs.cpio"
run --kernel /nonexistent/bzImage --initrd "$work/initramfs.cpio" --dry-run
check "missing --kernel file: exit 1" [ "$rc" -eq 1 ]
check "missing --kernel file: named" says 'cannot open /nonexistent/bzImage'

# The boot tests' one choice of release (empty when there is none: said below).
release=$(sh -c '. tests/lib/release.sh >/dev/null && echo "$BOOT_RELEASE"')
if [ -n "$release" ]; then
	run --release "$release" --initrd "$work/none.cpio" --dry-run
	check "missing --initrd: exit 1" [ "$rc" -eq 1 ]
	check "missing --initrd: named" says "--initrd $work/none.cpio"
	run --release "$release" --initrd "$work/initramfs.cpio" --disks 2 --disk-size 64M \
		--no-pvh --accel tcg --append iomatrix.debug --qemu-arg=-S --dry-run
	check "dry run: exit 0" [ "$rc" -eq 0 ]
	check "dry run: qemu64 with rdrand, not max" says '-cpu qemu64,+rdrand '
	check "dry run: virtio-rng" says '-device virtio-rng-pci '
	check "dry run: serials" says 'virtio-blk-pci,drive=disk1,serial=iomatrix-disk1'
	check "dry run: no reboot, console on ttyS0, panic reboots" \
		says "-no-reboot .*-append 'console=ttyS0 panic=-1 iomatrix.debug' -S$"
	check "dry run: the bzImage with --no-pvh" says "-kernel /boot/vmlinuz-$release "
	check "dry run: temporary disks removed" [ -z "$(ls -d build/qemu/disks-* 2>/dev/null)" ]
	run --release "$release" --initrd "$work/initramfs.cpio" --nvme --disks 1 \
		--disk-dir "$work/disks" --no-pvh --dry-run
	check "dry run: nvme" says '-device nvme,drive=disk0,serial=iomatrix-disk0'
	check "--disk-dir keeps the disk" [ -f "$work/disks/disk0.img" ]
else
	echo "not ok - no installed kernel to build a command line for: make deps"
	failed=$((failed + 1))
fi

# A mounted loop device must be refused (needs root and loop devices).
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null && command -v mkfs.ext4 >/dev/null; then
	truncate -s 64M "$work/host.img"
	mkfs.ext4 -q -F "$work/host.img"
	mkdir -p "$work/mnt"
	if loop=$(losetup --find --show "$work/host.img" 2>/dev/null) &&
		mount "$loop" "$work/mnt" 2>/dev/null; then
		run --release "${release:-x}" --initrd "$work/initramfs.cpio" --disk "$loop" --dry-run
		check "mounted host disk refused: exit 1" [ "$rc" -eq 1 ]
		check "mounted host disk refused: says where" says "is mounted on the host at .*$work/mnt"
		run --release "${release:-x}" --initrd "$work/initramfs.cpio" --disk "$work/host.img" \
			--dry-run
		check "file behind a loop device refused" says 'backs /dev/loop'
		# The results disk is a disk passed through like any other.
		run --release "${release:-x}" --initrd "$work/initramfs.cpio" --results-disk "$loop" \
			--dry-run
		check "mounted host disk refused as --results-disk: exit 1" [ "$rc" -eq 1 ]
		check "mounted host disk refused as --results-disk: says where" \
			says "^iomatrix qemu: --results-disk $loop refused: .*is mounted on the host"
		umount "$work/mnt"
		run --release "${release:-x}" --initrd "$work/initramfs.cpio" --disk "$loop" \
			--no-pvh --dry-run
		check "unmounted block device passed through with cache=none" \
			says "file=$loop,format=raw,if=none,id=disk0,cache=none"
		losetup -d "$loop"
	else
		echo "# no loop device here: mounted-disk refusal not checked"
		[ -n "${loop:-}" ] && losetup -d "$loop"
	fi
fi
[ "$failed" -eq 0 ]
