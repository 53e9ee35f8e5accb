#!/bin/sh
# iomatrix report RESULT_SET: one run, a summary per cell; --full adds each
# record's fio-like report; JSON parses and HTML is well-formed.
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
if grep -Eq "^  read: IOPS=[0-9.]+k?, BW=" "$WORK/full.txt" && grep -q "clat percentiles" "$WORK/full.txt" &&
	grep -Eq "^     \| +1.00th=\[" "$WORK/full.txt" && [ "$(grep -c '^repeat ' "$WORK/full.txt")" -eq 3 ]; then
	echo "ok - report --full: fio-like blocks for the 3 repeats of one cell"
else
	echo "not ok - report --full"
	sed 's/^/# /' "$WORK/full.txt" | head -30
fi
"$IOM" report "$WORK/s2" --full --where workload=10dd,array=raid5,fs=xfs >"$WORK/dd.txt"
grep -Eq "^dd: 10 writers x 100.0 MiB, bs 1.000 MiB: 1000 MiB in [0-9.]+ s" "$WORK/dd.txt" &&
	echo "ok - report --full: a dd record" || { echo "not ok - report --full of dd"; sed 's/^/# /' "$WORK/dd.txt"; }

"$IOM" report "$WORK/s0" --format json -o "$WORK/r.json" &&
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert len(d['cells']) == 10" "$WORK/r.json" &&
	echo "ok - report --format json parses, 10 cells" || echo "not ok - report --format json"
"$IOM" report "$WORK/s0" --format html --full -o "$WORK/r.html" && xmllint --noout "$WORK/r.html" &&
	echo "ok - report --format html is well-formed" || echo "not ok - report --format html"
"$IOM" report "$WORK/s0" --format markdown | grep -q '^| cell | metric | mean |' &&
	echo "ok - report --format markdown is a table" || echo "not ok - report --format markdown"
