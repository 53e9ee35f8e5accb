#!/bin/sh
# iomatrix extract on generated serial logs and results logs: the manifest's
# counts, damaged/lost lists, merging, exit status, --force and --run-id.
# Inputs come from build/test-helpers/results_gen (tests/helpers/results_gen.c),
# which writes through the product's own writers.
set -u
cd "$(dirname "$0")/../.."
iomatrix=build/iomatrix
gen=build/test-helpers/results_gen
work=$(mktemp -d /tmp/iomatrix-extract-XXXXXX)
loopdev=
trap '[ -n "$loopdev" ] && losetup -d "$loopdev"; rm -rf "$work"' EXIT

n=0
check() { # check NAME COMMAND...: one TAP line
	name=$1
	shift
	n=$((n + 1))
	if "$@" >"$work/check.out" 2>&1; then
		echo "ok - $name"
	else
		echo "not ok - $name"
		sed 's/^/# /' "$work/check.out"
	fi
}

# extract EXPECTED_STATUS ARGS...: runs iomatrix extract, keeps its output
extract() {
	want=$1
	shift
	"$iomatrix" extract "$@" >"$work/extract.out" 2>&1
	got=$?
	if [ "$got" -ne "$want" ]; then
		echo "exit status $got, expected $want"
		cat "$work/extract.out"
		return 1
	fi
}

# manifest DIR JQ_EXPR EXPECTED
manifest() {
	v=$(jq -c "$2" "$1/manifest.json")
	[ "$v" = "$3" ] || { echo "$2 = $v, expected $3"; return 1; }
}

[ -x "$iomatrix" ] && [ -x "$gen" ] || { echo "not ok - build first (make check)"; exit 1; }
command -v jq >/dev/null || { echo "not ok - jq missing (make deps)"; exit 1; }

# A run of 40 records: 20 cells x 2 repeats, statuses of every kind.
common="--cells 20 --size 1000-30000 --status 3=crashed --status 4=timeout --status 5=skipped --status 6=failed"
$gen serial "$work/clean.log" 40 $common --noise || exit 1
truncate -s 0 "$work/clean.img"
$gen log "$work/clean.img" 40 $common || exit 1

both_complete() {
	extract 0 "$work/clean.log" "$work/clean.img" -o "$work/set1" &&
		manifest "$work/set1" '.records' 40 &&
		manifest "$work/set1" '.counts' \
			'{"ok":36,"failed":1,"timeout":1,"skipped":1,"crashed":1,"missing":0}' &&
		manifest "$work/set1" '[.damaged,.lost,.invalid,.disagree,.missing_cells]' \
			'[[],[],[],[],[]]' &&
		manifest "$work/set1" '[.run_id,.matrix,.kernel.release,.cells,.repeats]' \
			'["5f0c9a1e7d2b4c38","quick","6.1.0-57-amd64",20,2]' &&
		manifest "$work/set1" '.sources|map(.intact)' '[40,40]' &&
		[ "$(ls "$work/set1/records" | wc -l)" -eq 40 ] &&
		[ -f "$work/set1/records/000040.json" ] &&
		jq -e '.seq == 17' "$work/set1/records/000017.json" >/dev/null
}
check "serial log with kernel noise + results log: complete, 40 records" both_complete

same_records() {
	extract 0 "$work/clean.log" -o "$work/set-serial" &&
		extract 0 "$work/clean.img" -o "$work/set-log" &&
		diff -r "$work/set-serial/records" "$work/set-log/records"
}
check "serial log and results log give byte-identical records" same_records

# Serial log: record 7 damaged, 12 never written, the end cut inside record 40.
$gen serial "$work/bad.log" 40 $common --noise --damage 7 --skip 12 --cut || exit 1
damaged_serial() {
	extract 1 "$work/bad.log" -o "$work/set2" &&
		manifest "$work/set2" '.damaged' '[7,40]' &&
		manifest "$work/set2" '.lost' '[12]' &&
		manifest "$work/set2" '.records' 37 &&
		manifest "$work/set2" '.counts.missing' 3 &&
		manifest "$work/set2" '.missing_cells' \
			'[{"index":7,"repeat":0},{"index":12,"repeat":0},{"index":20,"repeat":1}]' &&
		grep -q 'damaged (seq): 7, 40' "$work/extract.out" &&
		grep -q 'INCOMPLETE' "$work/extract.out"
}
check "damaged serial log: damaged [7,40], lost [12], exit 1" damaged_serial

check "--accept-incomplete: exit 0" extract 0 "$work/bad.log" -o "$work/set3" --accept-incomplete

merged_recovers() {
	extract 0 "$work/bad.log" "$work/clean.img" -o "$work/set4" &&
		manifest "$work/set4" '[.records,.damaged,.lost,.counts.missing]' '[40,[],[],0]'
}
check "damaged serial log + intact results log: complete" merged_recovers

# Results log with record 5 damaged on the medium.
truncate -s 0 "$work/bad.img"
$gen log "$work/bad.img" 40 $common --damage 5 || exit 1
damaged_log() {
	extract 1 "$work/bad.img" -o "$work/set5" && manifest "$work/set5" '.damaged' '[5]' &&
		extract 0 "$work/bad.img" "$work/clean.log" -o "$work/set6"
}
check "damaged results log: damaged [5]; with the serial log: complete" damaged_log

existing_output() {
	extract 2 "$work/clean.log" -o "$work/set1" && grep -q 'exists' "$work/extract.out" &&
		extract 0 "$work/clean.log" -o "$work/set1" --force &&
		mkdir "$work/notaset" && touch "$work/notaset/precious" &&
		extract 2 "$work/clean.log" -o "$work/notaset" --force &&
		[ -f "$work/notaset/precious" ] &&
		[ -z "$(ls -d "$work"/set1.tmp-* 2>/dev/null)" ]
}
check "existing RESULT_SET: refused, --force replaces only a result set" existing_output

# short flags grouped, as getopt_long took them: -fq, -fqo DIR, -qfoDIR
grouped_flags() {
	extract 0 "$work/clean.log" -fq -o "$work/set1" && [ ! -s "$work/extract.out" ] &&
		extract 0 "$work/clean.log" -fqo "$work/set1" && [ ! -s "$work/extract.out" ] &&
		extract 0 "$work/clean.log" -qfo"$work/set1" && [ ! -s "$work/extract.out" ] &&
		extract 0 "$work/clean.log" -qh && grep -q 'Exit status' "$work/extract.out"
}
check "grouped short flags: -fq, -fqo DIR, -qfoDIR, -qh" grouped_flags

$gen serial "$work/other.log" 10 --run-id other-run --cells 10 --size 1000-2000 || exit 1
several_runs() {
	extract 2 "$work/other.log" "$work/clean.img" -o "$work/set7" &&
		grep -q 'choose one with --run-id' "$work/extract.out" &&
		grep -q 'other-run (10 records)' "$work/extract.out" &&
		extract 0 "$work/other.log" "$work/clean.img" -o "$work/set7" --run-id other-run &&
		manifest "$work/set7" '[.run_id,.records]' '["other-run",10]'
}
check "two runs in the input: refused, --run-id picks one" several_runs

$gen serial "$work/differs.log" 40 --cells 20 --size 1000-30000 --seed 9 || exit 1
disagreement() {
	extract 1 "$work/clean.img" "$work/differs.log" -o "$work/set8" &&
		manifest "$work/set8" '.disagree|length' 40 &&
		grep -q 'sources disagree' "$work/extract.out" &&
		cmp "$work/set8/records/000001.json" "$work/set1/records/000001.json"
}
check "inputs that disagree: reported, the first input's copy kept" disagreement

printf 'just a console log\n[ 1.0] nothing here\n' >"$work/empty.log"
no_records() {
	extract 2 "$work/empty.log" -o "$work/set9" && [ ! -e "$work/set9" ] &&
		grep -q 'no valid record' "$work/extract.out"
}
check "no records: exit 2, nothing written" no_records
check "unreadable input: exit 2" extract 2 "$work/nonexistent" -o "$work/set10"
check "usage errors: exit 2" extract 2 "$work/clean.log"
check "--help documents the exit status" sh -c "$iomatrix extract --help | grep -q 'Exit status'"

# A results log on a block device (O_DIRECT, the device's block size).
on_loop_device() {
	$gen log "$loopdev" 40 $common &&
		extract 0 "$loopdev" -o "$work/set11" &&
		diff -r "$work/set11/records" "$work/set-log/records" &&
		manifest "$work/set11" '.sources[0].kind' '"results log"'
}
truncate -s 64M "$work/loop.img"
if [ "$(id -u)" = 0 ] && loopdev=$(losetup --find --show "$work/loop.img" 2>/dev/null); then
	check "results log on a loop device: same records" on_loop_device
else
	loopdev=
	echo "ok - results log on a loop device # SKIP needs root and a free loop device"
fi
