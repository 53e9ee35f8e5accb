#!/bin/sh
# iomatrix report RESULT_SET: one run, a summary per cell; --full adds each
# record's report as the runner printed it; JSON parses and HTML is well-formed.
# (Real output files: tests/host/report_file.sh.)
. "$(dirname "$0")/lib/compare.sh"

"$GEN" "$WORK/s0" --profile seed000 --seed 1 --kernel 5.2.0 --repeats 3 --fail-cells 1
"$GEN" "$WORK/s2" --profile seed002 --seed 1 --repeats 2

"$IOM" report "$WORK/s0" >"$WORK/out.txt"
rc=$?
if [ $rc -eq 0 ] && grep -q "^report 5.2.0: kernel 5.2.0, matrix seed000-dio, 10 cells" "$WORK/out.txt" &&
	grep -q "^manifest: 27 ok, 3 failed, 0 timeout, 0 skipped, 0 crashed, 0 missing" "$WORK/out.txt" &&
	grep -Eq "^  read_iops +[0-9.]+k +[0-9.]+% +3 " "$WORK/out.txt" &&
	grep -q "3 failed: mkfs.xfs: /dev/md0: exit status 1 (synthetic failure)$" "$WORK/out.txt"; then
	echo "ok - report: head, manifest counts, a metric row, a failed cell with its error"
else
	echo "not ok - report (exit $rc)"
	sed 's/^/# /' "$WORK/out.txt" | head -20
fi

"$IOM" report "$WORK/s0" --full --where ioengine=libaio,bs=4k >"$WORK/full.txt"
# The cell key as a heading, then per repeat a status line and report_normal's text.
if grep -qx "=== fs=ext4 workload=randrw ioengine=libaio bs=4k" "$WORK/full.txt" &&
	[ "$(grep -c '^repeat [0-2] (seq [0-9]*): ok$' "$WORK/full.txt")" -eq 3 ] &&
	[ "$(grep -c '^randrw-4k: (g=0): rw=randrw, bs=(R) 4096B-4096B, .*ioengine=libaio, iodepth=1$' "$WORK/full.txt")" -eq 3 ] &&
	[ "$(grep -c '^randrw-4k: (groupid=0, jobs=1): err= 0: pid=0: ' "$WORK/full.txt")" -eq 3 ] &&
	grep -Eq "^  read: IOPS=[0-9.]+k?, BW=" "$WORK/full.txt" && grep -q "^    clat percentiles (usec):" "$WORK/full.txt" &&
	grep -Eq "^     \| +1.00th=\[" "$WORK/full.txt" && grep -q "^Run status group 0 (all jobs):" "$WORK/full.txt"; then
	echo "ok - report --full: the cell key, then fio's normal report for each of its 3 repeats"
else
	echo "not ok - report --full"
	sed 's/^/# /' "$WORK/full.txt" | head -30
fi
# One record's block is exactly what iomatrix report prints for that record's file.
rec=$(grep -l '"key" : "fs=ext4 workload=randrw ioengine=libaio bs=4k"' "$WORK"/s0/records/*.json | head -1)
"$IOM" report "$rec" >"$WORK/one.txt"
seq=$(head -1 "$WORK/one.txt" | sed -E 's/^repeat [0-9]+ \(seq ([0-9]+)\).*/\1/')
# its block: from its status line to the next record's (or cell's), less the blank line between
awk -v s="$seq" '/^repeat |^=== / { on = ($0 ~ "^repeat .*\\(seq " s "\\)") } on' "$WORK/full.txt" |
	sed '${/^$/d}' >"$WORK/one-in-full.txt"
if [ -s "$WORK/one.txt" ] && cmp -s "$WORK/one.txt" "$WORK/one-in-full.txt"; then
	echo "ok - report RECORD.json prints that record's block of --full"
else
	echo "not ok - report RECORD.json"
	diff "$WORK/one.txt" "$WORK/one-in-full.txt" | head -10 | sed 's/^/# /'
fi
"$IOM" report "$WORK/s2" --full --where workload=10dd,array=raid5,fs=xfs >"$WORK/dd.txt"
grep -Eq "^dd: writers=10, bs=1024KiB, size=100MiB each" "$WORK/dd.txt" &&
	grep -Eq "^  WRITE: bw=[0-9.]+MiB/s \([0-9.]+MB/s\), io=1000MiB \(1049MB\), run=[0-9]+msec" "$WORK/dd.txt" &&
	[ "$(grep -c '^  writer   [0-9]: /mnt/t0/dd.[0-9]: io=100MiB' "$WORK/dd.txt")" -eq 20 ] &&
	echo "ok - report --full: a dd record, dd's report" || { echo "not ok - report --full of dd"; sed 's/^/# /' "$WORK/dd.txt" | head -30; }
"$IOM" report "$WORK/s0" --full --where ioengine=psync,bs=512k >"$WORK/failed.txt"
grep -q "^repeat [0-9] (seq [0-9]*): failed: mkfs.xfs: /dev/md0: exit status 1 (synthetic failure)$" "$WORK/failed.txt" &&
	echo "ok - report --full: a failed record is its status line" || { echo "not ok - report --full of a failed record"; sed 's/^/# /' "$WORK/failed.txt" | head -20; }

"$IOM" report "$WORK/s0" --format json -o "$WORK/r.json" &&
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert len(d['cells']) == 10" "$WORK/r.json" &&
	echo "ok - report --format json parses, 10 cells" || echo "not ok - report --format json"
"$IOM" report "$WORK/s0" --format html --full -o "$WORK/r.html" && xmllint --noout "$WORK/r.html" &&
	echo "ok - report --format html is well-formed" || echo "not ok - report --format html"
"$IOM" report "$WORK/s0" --format markdown | grep -q '^| cell | metric | mean |' &&
	echo "ok - report --format markdown is a table" || echo "not ok - report --format markdown"
