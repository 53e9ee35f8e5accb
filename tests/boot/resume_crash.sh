#!/bin/sh
# Boot test: a kernel crash in the middle of a cell, and the run finished on
# the next boot; the results disk and the results serial port agreeing.
#
# The resume matrix (tests/boot/data/matrix/resume.matrix: 4 short cells on
# md raid0 + ext4) with 2 repeats, records on a results disk
# (`iomatrix qemu --results-disk`, created blank: the appliance initialises
# it) and on a serial port of their own (`--results-serial`).
# iomatrix.test_crash=2 panics the kernel through /proc/sysrq-trigger a
# second into the workload of cell 2's first run; panic=1 and --boots 3
# boot it again. Checks:
#   - boot 1 panics, boot 2 resumes the same run and powers off cleanly;
#   - `iomatrix extract` of the disk: every run has a record, the run boot 1
#     died in is `crashed` with the stage it died in, the boot it died on and
#     the boot that recorded it; the record boot 1 finished is there as
#     written; seqs go on across the boots;
#   - the order of the runs: every cell's first repeat, then every cell's
#     second (seq order);
#   - the serial port's records are the disk's, record for record.
#
# BOOT_IMAGE=FILE boots that image (it must hold tests/boot/data).
set -u
cd "$(dirname "$0")/../.."
. tests/lib/boot.sh
boot_work build/test-boot-resume-crash
rec() { jq -r "$2" "$work/disk/records/$(printf %06d "$1").json"; }
boot_image "an image with the resume matrix builds" --data-dir tests/boot/data

log=$work/serial.log
start=$(date +%s)
build/iomatrix qemu --release "$BOOT_RELEASE" --initrd "$initrd" --accel tcg --quiet --disks 2 --disk-size 1G \
	--results-disk "$work/results.img" --results-serial "$work/results.log" --boots 3 \
	--append "iomatrix.matrix=resume iomatrix.repeats=2 iomatrix.test_crash=2 panic=1 quiet" \
	--serial-log "$log" --timeout 600 >"$work/qemu.out" 2>&1
rc=$?
echo "# the boots took $(($(date +%s) - start)) s"
sed 's/^/# /' "$work/qemu.out"

check "crash: iomatrix qemu exits 0 (the last boot powered off)" [ "$rc" -eq 0 ]
check "crash: boot 1 armed the test switch" \
	has "$log" '^iomatrix: test: iomatrix.test_crash=2 armed: cell \[#2\] workload, TEST ONLY'
check "crash: boot 1 crashed the kernel in cell 2's workload" \
	has "$log" '^iomatrix: test: crashing the kernel in cell \[#2\] workload (sysrq c'
check "crash: the kernel panicked" has "$log" 'Kernel panic - not syncing: sysrq triggered crash'
check "crash: the launcher saw the panic and booted again" \
	has "$work/qemu.out" '^iomatrix qemu: boot 1: crash: Kernel panic - not syncing: sysrq triggered crash'
check "crash: 2 boots" has "$work/qemu.out" '^iomatrix qemu: 2 boots ran (at most 3); the last: clean power-off'
run_id=$(sed -n 's/^iomatrix: results: .* a new results log for run \([0-9a-f]*\) .*/\1/p' "$log")
check "crash: boot 1 made a results log on the blank disk" [ -n "$run_id" ]
check "crash: boot 2 resumes that run" \
	has "$log" "^iomatrix: results: disk:serial=iomatrix-results is /dev/vd[a-z]*: resuming run $run_id on its boot 2: 1 records, last seq 1[^0-9]*$"
check "crash: boot 2 does not crash again (test switches act on boot 1 only)" \
	has "$log" '^iomatrix: test: iomatrix.test_crash=2: not on boot 2 of the run (only the first)'
check "crash: boot 2 wipes the run's own leftovers from the disks" \
	[ "$(count "$log" "^iomatrix: disk vd[ab]: wiping this run's leftovers from an earlier boot")" -eq 2 ]
check "crash: boot 2 counts 6 runs left" \
	has "$log" '^iomatrix: matrix resume: 4 cells, 4 selected (iomatrix.cells=all), 6 runs, '
check "crash: boot 2 records the crashed run first" \
	has "$log" '^iomatrix: cell \[#2 1/2\] case=crash: crashed: the machine died during workload (since .*) on boot 1 of the run; recorded on boot 2[^0-9]*$'
check "crash: boot 2's progress counts i/6" [ "$(count "$log" '^iomatrix: cell [1-6]/6 \[#[1-4] [12]/2\] .*: ok, ')" -eq 6 ]
check "crash: boot 2's summary" \
	has "$log" '^iomatrix: summary: matrix resume, 6 runs in .*: 6 ok, 0 failed, 0 timeout; 0 skipped; 1 crashed; 1 recorded on earlier boots t='

extract_set "crash: extract of the results disk: a complete result set" \
	"$work/results.img" "$work/disk"
check "crash: 8 records, none missing" \
	[ "$(jq '[.records, .counts.missing] | join(" ")' "$work/disk/manifest.json")" = '"8 0"' ]
tests/lib/check-records "$work/disk" ok=7 crashed=1
check "crash: one run id, seqs 1-8" \
	[ "$(jq -sc '[(map(.run_id) | unique), (map(.seq) | sort)]' "$work"/disk/records/*.json)" = "[[\"$run_id\"],[1,2,3,4,5,6,7,8]]" ]
check "crash: runs in seq order: every cell's repeat 0, then every cell's repeat 1" \
	[ "$(jq -sr 'sort_by(.seq) | map("\(.cell.index)/\(.repeat)") | join(" ")' "$work"/disk/records/*.json)" = \
		"1/0 2/0 3/0 4/0 1/1 2/1 3/1 4/1" ]
check "crash: the record boot 1 finished is boot 1's" [ "$(rec 1 '[.boot, .status, .cell.index] | join(" ")')" = "1 ok 1" ]
check "crash: seq 2 is the crashed run, with the stage it died in" \
	[ "$(rec 2 '[.status, .cell.index, .repeat, .crash.stage, .crash.boot, .crash.recorded_boot, .boot] | join(" ")')" = "crashed 2 0 workload 1 2 2" ]
check "crash: the crashed run's error" \
	[ "$(rec 2 '.error | test("^crashed: the machine died during workload \\(since 20[0-9-]*T[0-9:]*Z\\) on boot 1 of the run; recorded on boot 2$")')" = true ]
check "crash: the other records are boot 2's" \
	[ "$(jq -sc 'map(select(.seq > 1) | .boot) | unique' "$work"/disk/records/*.json)" = "[2]" ]

extract_set "agreement: extract of the results serial port: a complete result set" \
	"$work/results.log" "$work/serial"
check "agreement: no damaged line on the serial port" \
	has "$work/serial.extract" 'serial log .*: 8 intact, 0 damaged'
same=0
for f in "$work"/disk/records/*.json; do
	cmp -s "$f" "$work/serial/records/${f##*/}" && same=$((same + 1))
done
nserial=$(ls "$work"/serial/records | wc -l)
check "agreement: the serial port and the disk hold the same records, byte for byte ($same of 8, $nserial on the port)" \
	[ "$same" -eq 8 -a "$nserial" -eq 8 ]
check "agreement: the records never reached the console" [ "$(count "$log" '^@IOMX1 ')" -eq 0 ]
