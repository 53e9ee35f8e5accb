#!/bin/sh
# What cannot be compared is said in one clear line each: cells missing on a
# side, failed cells, matrices that differ; one repeat says "cannot judge".
# Where a verdict line is checked, the one-boot sets take --unit repeat.
. "$(dirname "$0")/lib/compare.sh"

# expect_one FILE PATTERN WHAT: exactly one line of FILE matches PATTERN.
expect_one() {
	n=$(grep -c -- "$2" "$1")
	if [ "$n" -eq 1 ]; then
		echo "ok - $3: $(grep -- "$2" "$1" | cut -c1-140)"
	else
		echo "not ok - $3: $n lines match '$2'"
		sed 's/^/# /' "$1" | head -n 12
	fi
}

"$GEN" "$WORK/base" --profile seed002 --seed 1

"$GEN" "$WORK/missing" --profile seed002 --seed 2 --drop-cells 2
"$IOM" compare --unit repeat "$WORK/base" "$WORK/missing" >"$WORK/out.txt"
expect_one "$WORK/out.txt" "^missing in new missing: 2 of 45 cells of the base have no record there: " "cells missing in new"
expect_one "$WORK/out.txt" "^verdict: .*, 2 not comparable (2 missing)$" "missing cells counted as not comparable"
"$IOM" compare --unit repeat "$WORK/missing" "$WORK/base" >"$WORK/out.txt"
expect_one "$WORK/out.txt" "^missing in base missing: 2 of 45 cells of the new have no record there: " "cells missing in base"

"$GEN" "$WORK/other" --profile seed002 --seed 2 --matrix seed002-b --add-dim disks=12
"$IOM" compare "$WORK/base" "$WORK/other" >"$WORK/out.txt"
expect_one "$WORK/out.txt" '^matrices differ: base is "seed002-dd" (45 cells), new is "seed002-b" (45 cells); dimension "disks" only in new$' \
	"mismatched matrices"
expect_one "$WORK/out.txt" "^missing in new other: 45 of 45 cells" "mismatched keys are missing cells, in one line"

"$GEN" "$WORK/skip" --profile seed002 --seed 2 --skip fs=btrfs --matrix seed002-nobtrfs
"$IOM" compare "$WORK/base" "$WORK/skip" >"$WORK/out.txt"
expect_one "$WORK/out.txt" '^matrices differ: base is "seed002-dd" (45 cells), new is "seed002-nobtrfs" (36 cells)$' \
	"a smaller matrix"

"$GEN" "$WORK/failed" --profile seed002 --seed 2 --fail-cells 1
"$IOM" compare "$WORK/base" "$WORK/failed" >"$WORK/out.txt"
expect_one "$WORK/out.txt" "^failed: 1 cell without an ok record: .* (new: failed: mkfs.xfs: /dev/md0: exit status 1 (synthetic failure))$" \
	"a failed cell, with its error"

"$GEN" "$WORK/one" --profile seed002 --seed 2 --repeats 1
"$IOM" compare --unit repeat "$WORK/base" "$WORK/one" >"$WORK/out.txt"
expect_one "$WORK/out.txt" "^verdict: 0 cells better, 0 worse, 0 unchanged, 45 not comparable (45 n=1: cannot judge)$" \
	"n=1 is not judged"
compare_csv "$WORK/out.csv" --unit repeat "$WORK/base" "$WORK/one" || exit 1
n=$(grep -c ",n=1: cannot judge,n=1: cannot judge," "$WORK/out.csv")
if [ "$n" -eq 45 ] && ! grep -Eq "  (WORSE|better)( o)?$" "$WORK/out.txt"; then
	echo "ok - every n=1 row says 'n=1: cannot judge', none is flagged"
else
	echo "not ok - n=1 rows: $n say cannot judge"
fi
expect_one "$WORK/out.txt" "^repeats per cell: base 5, new 1 (a cell with 1 repeat cannot be judged)$" "the repeats line"

# An unreadable record is named, and the rest still compares.
cp -r "$WORK/base" "$WORK/damaged"
printf '{"iomatrix_record":1,"cell":' >"$WORK/damaged/records/000003.json"
"$IOM" compare "$WORK/base" "$WORK/damaged" >"$WORK/out.txt"
expect_one "$WORK/out.txt" "^new: records/000003.json: not JSON (cut off at byte" "a damaged record named"

# Not a result set: one line naming the place, exit status 2.
"$IOM" compare "$WORK/base" "$WORK/nowhere" >"$WORK/out.txt" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "nowhere/manifest.json: No such file or directory" "$WORK/out.txt"; then
	echo "ok - a missing result set is named: $(cat "$WORK/out.txt")"
else
	echo "not ok - a missing result set: exit $rc: $(cat "$WORK/out.txt")"
fi
