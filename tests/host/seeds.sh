#!/bin/sh
# Every seed's job runs: seed 004's three job files verbatim (configs/jobs/, with
# bs/numjobs from the study's dimensions and a smaller size/runtime given by --set),
# seed 001's and seed 003's command lines with fio replaced by iomatrix-runner and
# smaller sizes (a copy with smaller numbers, as the issue allows).
. "$(dirname "$0")/lib/common.sh"
JOBS=$PWD/configs/jobs
cd "$T" || exit 1

# Seed 004: run from the directory holding ./testfile, as the study did.
for f in dio_read dio_randrw dio_rw; do
	for dims in "4k 1" "1M 8"; do
		set -- $dims
		"$R" --set bs=$1 --set numjobs=$2 --set size=32m --set runtime=1 \
			--output-format=json --output="$T/$f.json" "$JOBS/$f.fio" 2>"$T/err"
		rc=$?
		got=$(json "$T/$f.json" '(len(d["jobs"]), d["jobs"][0]["jobname"], d["jobs"][0]["iomatrix"]["jobs"], d["jobs"][0]["error"], d["jobs"][0]["read"]["io_bytes"] > 0, d["global options"]["ioengine"])')
		want_engine=$(sed -n 's/^ioengine=//p' "$JOBS/$f.fio")
		check "seed 004 $f.fio bs=$1 numjobs=$2: $got" \
			[ "$rc" = 0 -a "$got" = "(1, 'fio-run', $2, 0, True, '$want_engine')" ]
	done
done
# randrw and rw also write: both directions show up in the one group report.
check "seed 004 dio_rw: reads and writes" \
	[ "$(json "$T/dio_rw.json" 'd["jobs"][0]["write"]["io_bytes"] > 0 and d["jobs"][0]["read"]["io_bytes"] > 0')" = True ]

# Seed 001 (fio_test.sh): "$1" is the queue depth; size 4G -> 64M, runtime 10s -> 1s.
for qd in 1 32; do
	"$R" -filename="$T/fio_read_test.txt" \
		-buffered=1 \
		-iodepth $qd \
		-rw=randread \
		-ioengine=io_uring \
		-randseed=89 \
		-runtime=1s \
		-norandommap \
		-direct=0 \
		-bs=4k \
		-size=64M \
		-name=rand_read_4k >"$T/001.txt" 2>"$T/err"
	rc=$?
	check "seed 001 at QD $qd: a normal report with IOPS (rc=$rc)" \
		grep -q "^  read: IOPS=.*BW=" "$T/001.txt"
	check "seed 001 at QD $qd: io_uring at iodepth=$qd in the header" \
		grep -q "^rand_read_4k: (g=0): rw=randread, bs=(R) 4096B-4096B.*ioengine=io_uring, iodepth=$qd$" "$T/001.txt"
done

# Seed 003: --name is a path prefix; size 1G -> 64M, still --loop 10.
"$R" --name="$T/seqread" --rw=read --direct=0 --ioengine=sync --bs=4k \
	--numjobs=1 --size=64M --runtime=600 --group_reporting --loop 10 >"$T/003.txt" 2>"$T/err"
rc=$?
check "seed 003: 10 loops of 64 MiB read, reported as fio does (rc=$rc)" \
	grep -q "issued rwts: total=163840,0,0,0" "$T/003.txt"
check "seed 003: the file fio would name ($T/seqread.0.0)" [ -s "$T/seqread.0.0" ]
for line in "clat percentiles" "lat (" "cpu          :" "IO depths    :" \
	"submit    :" "complete  :" "Run status group 0 (all jobs):" "   READ: bw="; do
	check "seed 003 report has '$line'" grep -qF "$line" "$T/003.txt"
done
# bw/iops are sampled every 500 ms, as fio does: a shorter run has no samples (fio's too).
run_ms=$(sed -n 's/.*run=\([0-9]*\)-.*/\1/p' "$T/003.txt")
if [ "${run_ms:-0}" -ge 600 ]; then
	check "seed 003 report has bw and iops samples (ran ${run_ms} ms)" \
		sh -c "grep -qF 'bw (' '$T/003.txt' && grep -qF 'iops        :' '$T/003.txt'"
fi
