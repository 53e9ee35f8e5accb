#!/bin/sh
# Boot the installed Debian kernel with an image whose /init loads every
# module of modules.load in order (busybox insmod): all load, or fail only
# with ENODEV (CPU-specific soft dependencies on QEMU's CPU); disks, md
# personalities and the filesystems show up.
set -u
cd "$(dirname "$0")/../.."
. tests/lib/tap.sh
. tests/lib/release.sh

build/iomatrix image --release "$BOOT_RELEASE" --quiet --runner tests/lib/load-modules-init -o "$tmp/img.cpio.zst" \
	2>"$tmp/notes"
check "image with a module-loading /init builds" test -s "$tmp/img.cpio.zst"
release=$(zstd -dcq "$tmp/img.cpio.zst" | cpio -i --quiet --to-stdout etc/iomatrix/image.conf |
	sed -n 's/^release=//p')
n=$(zstd -dcq "$tmp/img.cpio.zst" |
	cpio -i --quiet --to-stdout "lib/modules/$release/modules.load" | grep -vc '^#')
truncate -s 64M "$tmp/disk"
# TCG always: a /dev/kvm that is there is not always one that works
timeout 300 qemu-system-x86_64 -machine accel=tcg -m 1024 -smp 2 -nographic -no-reboot \
	-kernel "/boot/vmlinuz-$release" -initrd "$tmp/img.cpio.zst" \
	-append "console=ttyS0 panic=-1 quiet" \
	-drive "file=$tmp/disk,if=virtio,format=raw" -device virtio-rng-pci \
	>"$tmp/serial" 2>&1
rc=$?
sed -n 's/^\(INSMOD-FAIL\|LOADED\|BLOCK\|MD\|FS\)/# &/p' "$tmp/serial"
check "QEMU powered off by itself (exit $rc)" test $rc -eq 0
check "all $n modules were tried" grep -q "^LOADED $n\b" "$tmp/serial"
check "every failure is ENODEV (no such device for this CPU)" sh -c "
	! grep '^INSMOD-FAIL' '$tmp/serial' | grep -v 'No such device'"
check "the virtio disk is there" grep -q '^BLOCK .*vda' "$tmp/serial"
check "md has its personalities" sh -c "
	grep '^MD' '$tmp/serial' | grep -q 'raid0' && grep '^MD' '$tmp/serial' | grep -q 'raid5'"
check "ext4, xfs, btrfs are registered" sh -c "
	grep '^FS' '$tmp/serial' | grep -q ext4 && grep '^FS' '$tmp/serial' | grep -q xfs &&
	grep '^FS' '$tmp/serial' | grep -q btrfs"
