#!/bin/sh
# Boot test: the whole quick matrix on 4 sparse 1 GiB disks under TCG
# (every filesystem; jbod, raid0, raid5 and the other md levels; dd and fio
# cells), then every record extracted from the serial log and checked for
# completeness and sane values (tests/lib/check-records), and the console's
# progress lines and summary table.
#
# BOOT_IMAGE=FILE boots that image instead of building one.
set -u
cd "$(dirname "$0")/../.."
. tests/lib/boot.sh
boot_work build/test-boot-quick
boot_image "iomatrix image builds"

cells=$(build/iomatrix plan quick --disks 4 --json | jq '.cells | length')
build/iomatrix qemu --release "$BOOT_RELEASE" --initrd "$initrd" --accel tcg --quiet --disks 4 --disk-size 1G \
	--append iomatrix.matrix=quick --serial-log "$work/serial.log" --timeout 1200 \
	>"$work/qemu.out" 2>&1
rc=$?
sed 's/^/# /' "$work/qemu.out"
log=$work/serial.log
check "quick: iomatrix qemu exits 0 (clean power-off)" [ "$rc" -eq 0 ]
check "quick: the plan and the runner agree on $cells cells" \
	has "$log" "^iomatrix: matrix quick: $cells cells, $cells selected (iomatrix.cells=all), $cells runs, scale 1, "
check "quick: a start line for every cell" [ "$(count "$log" '^iomatrix: cell [0-9]*/'"$cells"' .*: start, elapsed ')" -eq "$cells" ]
check "quick: an end line for every cell, with its headline and times" \
	[ "$(count "$log" '^iomatrix: cell [0-9]*/'"$cells"' .*: ok, \(read\|write\) [0-9.]* [KMG]iB/s.* (setup [0-9.]* s, workload [0-9.]* s, teardown [0-9.]* s), elapsed .*, ETA ')" -eq "$cells" ]
check "quick: summary line" has "$log" "^iomatrix: summary: matrix quick, $cells runs in .*: $cells ok, 0 failed, 0 timeout; 0 skipped; 0 crashed t="
check "quick: summary table, a row per cell" [ "$(count "$log" '^iomatrix: summary: *[0-9]* *1/1  ok ')" -eq "$cells" ]

extract_set "quick: iomatrix extract finds a complete result set" "$log" "$work/set"
check "quick: $cells records" [ "$(jq .records "$work/set/manifest.json")" -eq "$cells" ]
tests/lib/check-records "$work/set" "ok=$cells"
for fs in ext2 ext3 ext4 btrfs xfs; do
	check "quick: an ok record on $fs" \
		sh -c "jq -e 'select(.status == \"ok\" and .fs.type == \"$fs\")' $work/set/records/*.json | grep -q ."
done
for level in jbod raid0 raid5 linear raid1 raid10 raid6; do
	check "quick: an ok record on $level" \
		sh -c "jq -e 'select(.status == \"ok\" and .array.level == \"$level\")' $work/set/records/*.json | grep -q ."
done
for kind in dd fio; do
	check "quick: an ok $kind record" \
		sh -c "jq -e 'select(.status == \"ok\" and .workload.kind == \"$kind\")' $work/set/records/*.json | grep -q ."
done
check "quick: jbod spreads the dd writers over every disk" \
	sh -c "jq -se 'map(select(.cell.key == \"array=jbod fs=ext4 workload=dd\"))[0] | [.workload.dd.per_writer[].file | split(\"/\")[2]] | unique | length == 4' $work/set/records/*.json >/dev/null"
