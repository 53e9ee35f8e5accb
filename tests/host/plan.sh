#!/bin/sh
# iomatrix plan on every shipped matrix: text and JSON, cell counts, the
# skip reasons of a small machine, --cells, and one-line errors.
set -u
cd "$(dirname "$0")/../.."
plan=build/iomatrix
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
n=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
fail() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else fail "$1"; fi; }

# name cells runs
for spec in "quick 22 22" "seed000-ext4-dio-randrw 10 10" "seed001-uring-buffered-qd 32 32" \
	"seed002-writeback-dd 45 45" "seed003-btrfs-seqread 2 2" \
	"seed004-ext4-dioread-nolock 30 90"; do
	set -- $spec
	"$plan" plan "$1" >"$out/$1.txt" 2>"$out/$1.err"
	check "plan $1 exits 0" "[ $? -eq 0 ] && [ ! -s $out/$1.err ]"
	check "plan $1: $2 cells, all run" \
		"grep -q '^$2 of $2 cells selected, 0 skipped; $3 runs' $out/$1.txt"
	check "plan $1 states its estimate and model" \
		"grep -q '^estimated total: ' $out/$1.txt && grep -q '^model: ' $out/$1.txt"
	"$plan" plan "matrix/$1.matrix" --json >"$out/$1.json"
	check "plan $1 --json: cell_count $2, one entry per cell" \
		"grep -q '\"cell_count\" : $2,' $out/$1.json &&
		 [ \$(grep -c '\"index\" : ' $out/$1.json) -eq $2 ]"
done

"$plan" plan quick --disks 2 --disk-size 200m >"$out/small.txt"
check "two 200 MiB disks: raid5 skipped with its reason" \
	"grep -q 'array=raid5 fs=ext4 workload=dd *skipped: raid5 needs 3 disks, 2 given' $out/small.txt"
check "two 200 MiB disks: xfs on jbod skipped with its reason" \
	"grep -q 'array=jbod fs=xfs workload=dd *skipped: xfs needs 300 MiB per filesystem, a 200 MiB disk gives 200 MiB' $out/small.txt"

"$plan" plan quick --cells 'fs=ext4,array=raid5' >"$out/sel.txt"
check "--cells fs=ext4,array=raid5 selects one cell" \
	"grep -q '^1 of 22 cells selected' $out/sel.txt && grep -q '^   15  array=raid5 fs=ext4 workload=dd' $out/sel.txt"
"$plan" plan quick --cells 1-5,9 >"$out/sel2.txt"
check "--cells 1-5,9 selects six cells" "grep -q '^6 of 22 cells selected' $out/sel2.txt"

"$plan" plan seed002-writeback-dd --scale 1 >"$out/full.txt"
check "--scale 1 runs the study's 600 s cells" \
	"grep -q 'dd 1 writer bs=512 runtime=600s' $out/full.txt && grep -q 'scale 1$' $out/full.txt"

# errors: one line on stderr, exit 1 (2 for usage)
"$plan" plan no-such-matrix >/dev/null 2>"$out/e1"
check "unknown matrix name: exit 1, one line naming the ones there" \
	"[ $? -eq 1 ] && [ \$(wc -l <$out/e1) -eq 1 ] && grep -q 'no matrix no-such-matrix in .*(there: quick seed000' $out/e1"
"$plan" plan quick --cells fs=zfs >/dev/null 2>"$out/e2"
check "bad --cells: exit 1, one line" \
	"[ $? -eq 1 ] && [ \$(wc -l <$out/e2) -eq 1 ] && grep -q \"dimension fs has no value 'zfs'\" $out/e2"
printf '[dimensions]\nfs = ext4 zfs\n' >"$out/bad.matrix"
"$plan" plan "$out/bad.matrix" >/dev/null 2>"$out/e3"
check "bad matrix file: exit 1, file:line" \
	"[ $? -eq 1 ] && grep -q \"bad.matrix:2: dimension fs: unknown filesystem 'zfs'\" $out/e3"
"$plan" plan quick --disk-size 1q >/dev/null 2>"$out/e4"
check "bad --disk-size: exit 2" "[ $? -eq 2 ] && grep -q \"bad --disk-size '1q'\" $out/e4"
for v in 1.5 2k 0x10 '(1+1)'; do
	"$plan" plan quick --disks "$v" >/dev/null 2>"$out/e5"
	check "--disks $v, not a decimal integer: exit 2" \
		"[ $? -eq 2 ] && grep -qF \"iomatrix plan: bad --disks '$v' (0-\" $out/e5"
done
