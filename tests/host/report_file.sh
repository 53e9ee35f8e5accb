#!/bin/sh
# iomatrix report FILE on real output files. One run of iomatrix-runner (and of
# Debian's fio 3.33) with --output-format=json,normal writes both reports of the
# same run: the JSON, loaded back by iomatrix report, must print the normal text.
# For iomatrix-runner byte for byte; for fio, all but what fio's JSON does not
# hold (its pids; see docs/compare.md).
. "$(dirname "$0")/lib/common.sh"
IOM=$PWD/build/iomatrix
cd "$T" || exit 1

# same WHAT WANT GOT: ok when the files are equal, else the first differences.
same() {
	if cmp -s "$2" "$3"; then
		ok "$1"
	else
		notok "$1"
		diff "$2" "$3" | head -20 | sed 's/^/# /'
	fi
}

# same_but_last_digit WHAT WANT GOT: as same, but a number with decimals may be
# one unit off in its last digit (integers must be equal).
same_but_last_digit() {
	if python3 - "$2" "$3" <<'PY'; then ok "$1"; else notok "$1"; diff "$2" "$3" | head -20 | sed 's/^/# /'; fi
import re, sys
num = re.compile(r"\d+(?:\.\d+)?")
want, got = (open(f).read().splitlines() for f in sys.argv[1:3])
def close(a, b):
    pa, pb = num.split(a), num.split(b)
    na, nb = num.findall(a), num.findall(b)
    if pa != pb or len(na) != len(nb):
        return False
    for x, y in zip(na, nb):
        if x == y:
            continue
        d = len(x.split(".")[1]) if "." in x else 0
        if d == 0 or d != (len(y.split(".")[1]) if "." in y else 0) or abs(float(x) - float(y)) > 1.5 * 10**-d:
            return False
    return True
sys.exit(0 if len(want) == len(got) and all(close(a, b) for a, b in zip(want, got)) else 1)
PY
}

# split FILE: FILE.text = what surrounds the JSON (fio's header lines before it,
# the normal report after it), FILE.json = the JSON alone.
split() {
	python3 - "$1" <<'PY'
import json, sys
s = open(sys.argv[1]).read()
i = 0 if s.startswith("{") else s.index("\n{") + 1
obj, n = json.JSONDecoder().raw_decode(s[i:])
json.dump(obj, open(sys.argv[1] + ".json", "w"))
# the JSON's closing line ends with a newline that belongs to it
open(sys.argv[1] + ".text", "w").write(s[:i] + s[i + n + 1:])
PY
}

# A job file: clones reported together and apart, two groups, libaio, fsync
# latencies with lat percentiles, a description, kb_base=1000, a bssplit.
cat >jobs.fio <<EOF
[global]
directory=$T
size=2m
[mix]
rw=randrw
numjobs=2
group_reporting
[sync]
description=writes with an fsync every 8
rw=write
fsync=8
lat_percentiles=1
[clones]
rw=randread
kb_base=1000
bsrange=4k-16k
numjobs=2
[aio]
new_group
rw=randread
ioengine=libaio
iodepth=8
bssplit=4k/50:8k/50
EOF

"$R" jobs.fio --output-format=json+,normal --output=ours.out 2>ours.err
split ours.out
"$IOM" report ours.out >ours.report 2>&1
same "iomatrix-runner's JSON prints its own normal report, byte for byte" ours.out.text ours.report
"$IOM" report ours.out.json >ours.json.report 2>&1
same "the bare JSON file prints the same" ours.out.text ours.json.report

if command -v fio >/dev/null; then
	fio jobs.fio >/dev/null 2>&1 # lay the files out first: fio logs that into the output file
	fio jobs.fio --output-format=json,normal --output=fio.out >/dev/null 2>fio.err
	split fio.out
	"$IOM" report fio.out >fio.report 2>&1
	# fio's pids are not in its JSON; its job lines' time is when it printed them.
	mask() { sed -E 's/: pid=[0-9]+: .*/: pid=N: TIME/' "$1"; }
	mask fio.out.text >fio.want
	mask fio.report >fio.got
	# fio's JSON rounds means to 6 decimals of ns, so a mean that fio's text
	# rounds from 2603.87499.. reads back as 2603.875 and prints 2603.88:
	# numbers may differ by one unit in their last digit, nothing else.
	same_but_last_digit "fio 3.33's JSON prints fio's own text (pids and times masked)" \
		fio.want fio.got
	a=$(grep -c 'IOPS=' fio.got)
	check "fio: every direction's IOPS/BW line is there ($a)" [ "$a" -eq 6 ]
else
	notok "fio is not installed (make deps)"
fi

"$R" dd --writers 2 --bs 64k --size 1m --directory "$T" --output-format json >dd.json 2>dd.err
"$IOM" report dd.json >dd.got 2>&1
check "a dd result prints dd's report" grep -q '^dd: writers=2, bs=64.0KiB, size=1024KiB each' dd.got

printf 'not JSON\n' >bad.json
"$IOM" report bad.json >bad.out 2>&1
rc=$?
check "a file that is no output says so (exit $rc)" \
	grep -q "^iomatrix report: bad.json: no JSON object" bad.out
"$IOM" report ours.out --format json >fmt.out 2>&1
check "--format is for result sets only" grep -q "apply to result sets only" fmt.out
