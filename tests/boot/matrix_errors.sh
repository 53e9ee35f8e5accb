#!/bin/sh
# Boot test: what goes wrong, and how the appliance says so.
#   - iomatrix.matrix= naming no matrix, a bad iomatrix.scale= and a bad
#     iomatrix.cells=: one clear FATAL line each, a clean power-off, and
#     `iomatrix qemu` exits 5;
#   - a matrix made to fail (tests/boot/data/matrix/failures.matrix, in an
#     image built with that data directory): a cell whose mkfs fails is
#     recorded failed with the step, the command, its exit status and its
#     output; a workload past the cell's time limit is killed and recorded
#     timeout; the next cell runs and is ok.
#
# BOOT_IMAGE=FILE boots that image for the first three (the fourth always
# builds its own).
set -u
cd "$(dirname "$0")/../.."
. tests/lib/boot.sh
boot_work build/test-boot-errors
boot_image "iomatrix image builds"

boot() { # boot NAME IMAGE APPEND: exit status in $rc, serial log $work/NAME.log
	build/iomatrix qemu --release "$BOOT_RELEASE" --initrd "$2" --accel tcg --quiet --disks 2 --disk-size 1G \
		--append "$3" --serial-log "$work/$1.log" --timeout 600 >"$work/$1.out" 2>&1
	rc=$?
	sed 's/^/# /' "$work/$1.out"
}
fatal_once() { # fatal_once NAME PATTERN: exactly one FATAL line, and it matches
	[ "$(count "$work/$1.log" '^iomatrix: FATAL: ')" -eq 1 ] &&
		has "$work/$1.log" "^iomatrix: FATAL: $2"
}

boot nomatrix "$initrd" iomatrix.matrix=nosuch
check "unknown matrix: exit 5" [ "$rc" -eq 5 ]
check "unknown matrix: one FATAL line listing the matrices there are" \
	fatal_once nomatrix "iomatrix.matrix=nosuch: .*quick.*seed002-writeback-dd"
check "unknown matrix: no cell ran" [ "$(count "$work/nomatrix.log" '^iomatrix: cell ')" -eq 0 ]
check "unknown matrix: power-off" has "$work/nomatrix.log" '^iomatrix: power-off t='
check "unknown matrix: the launcher says FATAL" has "$work/nomatrix.out" 'appliance stopped on a FATAL error'

boot badscale "$initrd" iomatrix.scale=2
check "bad scale: exit 5" [ "$rc" -eq 5 ]
check "bad scale: one FATAL line naming the value and the rule" \
	fatal_once badscale 'kernel command line: iomatrix.scale=2: not a scale (default, or a number above 0 and at most 1)'
check "bad scale: power-off" has "$work/badscale.log" '^iomatrix: power-off t='

boot badcells "$initrd" iomatrix.cells=fs=zfs
check "bad cells: exit 5" [ "$rc" -eq 5 ]
check "bad cells: one FATAL line naming it" fatal_once badcells 'iomatrix.cells=fs=zfs: .*zfs'

build/iomatrix image --release "$BOOT_RELEASE" --compress zstd --data-dir tests/boot/data -o "$work/failures.cpio.zst" \
	--quiet
check "an image with the failures matrix builds" test -s "$work/failures.cpio.zst"
boot failures "$work/failures.cpio.zst" iomatrix.matrix=failures
log=$work/failures.log
check "failures: exit 0: a cell's failure is no FATAL" [ "$rc" -eq 0 ]
check "failures: the mkfs failure on the console" \
	has "$log" '^iomatrix: cell 1/3 \[#1 1/1\] case=badmkfs: failed, mkfs: mke2fs -t ext4 -F .*-O nosuchfeature /dev/md[0-9]*: exit 1: '
check "failures: the timeout on the console" \
	has "$log" '^iomatrix: cell 2/3 \[#2 1/1\] case=hang: timeout, workload: iomatrix-runner --name=slow .*: timed out after '
check "failures: the good cell after them ran" \
	has "$log" '^iomatrix: cell 3/3 \[#3 1/1\] case=good: ok, write '
check "failures: summary" has "$log" '^iomatrix: summary: matrix failures, 3 runs in .*: 1 ok, 1 failed, 1 timeout; 0 skipped'

build/iomatrix extract "$log" -o "$work/set" >"$work/extract.out" 2>&1
check "failures: extract finds all 3 records" [ "$(jq .records "$work/set/manifest.json")" -eq 3 ]
tests/lib/check-records "$work/set" ok=1 failed=1 timeout=1
rec() { jq -r "$2" "$work/set/records/00000$1.json"; }
check "failed record: step, command, status and output" \
	[ "$(rec 1 '[.error_detail.step, .error_detail.status] | join(" ")')" = "mkfs exit 1" ]
check "failed record: the command as run" \
	sh -c "jq -r .error_detail.command $work/set/records/000001.json | grep -q '^mke2fs -t ext4 -F -E lazy_itable_init=0,lazy_journal_init=0 -O nosuchfeature /dev/md'"
check "failed record: mke2fs's own words" \
	sh -c "jq -r .error_detail.output $work/set/records/000001.json | grep -q 'Invalid filesystem option set: nosuchfeature'"
check "failed record: setup and teardown were timed, no workload" \
	[ "$(rec 1 '[.times.setup_s > 0, .times.teardown_s > 0, .times.workload_s == null, .workload.dd == null] | all')" = true ]
check "timeout record: the workload step, killed" \
	[ "$(rec 2 '[.status, .error_detail.step] | join(" ")')" = "timeout workload" ]
check "timeout record: killed within the time limit" \
	[ "$(rec 2 '.times.setup_s + .times.workload_s < .settings.time_limit_s + 5')" = true ]
check "timeout record: counters still taken" [ "$(rec 2 '.vmstat_delta | length > 0')" = true ]
check "ok record after them" [ "$(rec 3 '.status')" = ok ]
