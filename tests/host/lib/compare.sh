# Shared by the compare host tests (sourced, not run: tests/run runs only
# tests/host/*.sh): the tools, a scratch directory, and counting flagged cells
# in CSV output. $0 is the test that sources it, in tests/host/.
set -u
cd "$(dirname "$0")/../.."
GEN=build/gen-resultset
IOM=build/iomatrix
[ -x "$GEN" ] && [ -x "$IOM" ] || { echo "not ok - build/iomatrix and build/gen-resultset exist (run make)"; exit 1; }
# The tests write thousands of small records: in memory they take a fifth of the time.
scratch=/tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && scratch=/dev/shm
WORK=$(mktemp -d "$scratch/iomatrix-compare-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# compare_csv OUT ARGS...: iomatrix compare to CSV; exit status 0 or 1 is a result, not an error.
compare_csv() {
	out=$1
	shift
	"$IOM" compare "$@" --format csv -o "$out"
	rc=$?
	[ $rc -le 1 ] || { echo "not ok - iomatrix compare $* exited $rc"; return 1; }
}

# flagged_cells CSV: the keys of cells whose verdict is better or worse, one a line.
flagged_cells() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["cell_verdict"] == "worse" || $col["cell_verdict"] == "better" { print $col["key"] }' "$1" |
		sort -u
}

# cells CSV: how many distinct cells the CSV has rows for.
cells() {
	awk -F, 'NR > 1 { print $3 }' "$1" | sort -u | wc -l
}
