#!/bin/sh
# The formats and options of iomatrix compare: text for email (ASCII, at most
# 100 columns), Markdown, CSV and JSON that parse, the seed layouts, sorting,
# filtering, --versus, several NEW sets, and the exit status. The sets are
# one boot each with noise only per repeat: --unit repeat, so changes flag.
. "$(dirname "$0")/lib/compare.sh"

ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; }

"$GEN" "$WORK/a" --seed 1 --cv 3
"$GEN" "$WORK/b" --seed 2 --cv 3 --change -12 --change-every 20 --injected "$WORK/inj"

# text: ASCII only; table lines within 100 columns (head lines that list keys may be longer)
"$IOM" compare --unit repeat "$WORK/a" "$WORK/b" >"$WORK/out.txt"
rc=$?
[ $rc -eq 1 ] && ok "exit status 1 when a cell got worse" || notok "exit status $rc when a cell got worse"
if LC_ALL=C grep -q '[^ -~]' "$WORK/out.txt"; then notok "text is ASCII"; else ok "text is ASCII"; fi
long=$(grep -v '^\(base\|new \|missing\|failed\|warning\|matrices\)' "$WORK/out.txt" | awk 'length($0) > 100' | wc -l)
[ "$long" -eq 0 ] && ok "text lines fit 100 columns" || notok "$long text lines longer than 100 columns"

# markdown: a table
"$IOM" compare --unit repeat "$WORK/a" "$WORK/b" --format markdown >"$WORK/out.md"
rows=$(grep -c '^| ' "$WORK/out.md")
grep -q '^|---|' "$WORK/out.md" && [ "$rows" -gt 200 ] && ok "markdown table with $rows rows" ||
	notok "markdown table ($rows rows)"

# CSV and JSON parse and agree
compare_csv "$WORK/out.csv" --unit repeat "$WORK/a" "$WORK/b" || exit 1
"$IOM" compare --unit repeat "$WORK/a" "$WORK/b" --format json -o "$WORK/out.json"
python3 - "$WORK/out.csv" "$WORK/out.json" <<'PY' && ok "CSV and JSON parse and have the same rows" || notok "CSV and JSON"
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1])))
assert all(len(r) == len(rows[0]) for r in rows), "ragged CSV"
dup = {n for n in rows[0] if rows[0].count(n) > 1}
assert not dup, "CSV column names twice: %s" % dup
doc = json.load(open(sys.argv[2]))
c = doc["comparisons"][0]
assert len(c["rows"]) == len(rows) - 1, (len(c["rows"]), len(rows))
assert c["verdict"]["worse"] > 0 and c["notes"][0]["kind"] == "verdict"
assert doc["method"]["test"] == "moderated-t-on-logs"
PY

# --only-significant keeps flagged rows; --sort change orders by |change|
compare_csv "$WORK/sig.csv" --unit repeat "$WORK/a" "$WORK/b" --only-significant --sort change || exit 1
python3 - "$WORK/sig.csv" <<'PY' && ok "--only-significant --sort change" || notok "--only-significant --sort change"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows and all(r["verdict"] in ("worse", "better") for r in rows)
ch = [abs(float(r["change_pct"])) for r in rows]
assert ch == sorted(ch, reverse=True)
PY

# --where and --metric
compare_csv "$WORK/w.csv" --unit repeat "$WORK/a" "$WORK/b" --where fs=xfs,fs=btrfs,array=raid5 --metric dd_bw,read_iops || exit 1
python3 - "$WORK/w.csv" <<'PY' && ok "--where and --metric select cells and metrics" || notok "--where, --metric"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows
assert {r["fs"] for r in rows} == {"xfs", "btrfs"} and {r["array"] for r in rows} == {"raid5"}
assert {r["metric"] for r in rows} == {"dd_bw", "read_iops"}
PY
"$IOM" compare --unit repeat "$WORK/a" "$WORK/b" --metric read_bww >"$WORK/err.txt" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "read_bww: unknown metric" "$WORK/err.txt" && ok "an unknown metric is named" ||
	notok "unknown metric: exit $rc: $(cat "$WORK/err.txt")"
"$IOM" compare --unit repeat "$WORK/a" "$WORK/b" --alpha 2 >"$WORK/err.txt" 2>&1
[ $? -eq 2 ] && grep -q -- "--alpha 2: not a number from" "$WORK/err.txt" && ok "--alpha out of range is refused" ||
	notok "--alpha 2: $(cat "$WORK/err.txt")"

# seed 000: before/after blocks
"$GEN" "$WORK/s0a" --profile seed000 --seed 1 --kernel 5.2.0
"$GEN" "$WORK/s0b" --profile seed000 --seed 2 --kernel 5.2.0-revert --change 50 --change-where ioengine=psync
"$IOM" compare --unit repeat "$WORK/s0a" "$WORK/s0b" --layout seed000 >"$WORK/s0.txt"
if grep -q '^ioengine=psync bs=4k:$' "$WORK/s0.txt" &&
	grep -Eq '^5\.2\.0 +\| READ +[0-9]+KB/s, +[0-9]+, +[0-9.]+us \| WRITE +[0-9]+KB/s' "$WORK/s0.txt" &&
	grep -Eq '^change +\| READ +\+[0-9.]+%\*' "$WORK/s0.txt"; then
	ok "seed000 layout: before/after lines per cell"
else
	notok "seed000 layout"; sed 's/^/# /' "$WORK/s0.txt" | head -20
fi

# seed 002: a line per cell
"$GEN" "$WORK/s2a" --profile seed002 --seed 1
"$GEN" "$WORK/s2b" --profile seed002 --seed 2
"$IOM" compare --unit repeat "$WORK/s2a" "$WORK/s2b" >"$WORK/s2.txt"
lines=$(grep -Ec '^ *(raid5|raid0|jbod) +(ext[234]|btrfs|xfs) +[0-9]+dd +[-+][0-9.]+%' "$WORK/s2.txt")
[ "$lines" -eq 45 ] && ok "seed002 layout (auto for dd): 45 cell lines" || notok "seed002 layout: $lines lines"

# seed 001: a curve along iodepth per readahead, a column per kernel (three kernels)
"$GEN" "$WORK/s1a" --profile seed001 --seed 1 --kernel off
"$GEN" "$WORK/s1b" --profile seed001 --seed 2 --kernel on --change 20 --change-where readahead=64
"$GEN" "$WORK/s1c" --profile seed001 --seed 3 --kernel on2
"$IOM" compare --unit repeat "$WORK/s1a" "$WORK/s1b" "$WORK/s1c" --layout curve --metric read_iops >"$WORK/s1.txt"
if [ "$(grep -c '^verdict:' "$WORK/s1.txt")" -eq 2 ] &&
	grep -q '^readahead=64: read_iops (k IO/s)$' "$WORK/s1.txt" &&
	grep -Eq '^iodepth +off +on +on2 +change 1 +change 2$' "$WORK/s1.txt" &&
	[ "$(grep -c '^ *[0-9]\+ .*%' "$WORK/s1.txt")" -eq 32 ]; then
	ok "curve layout: iodepth per readahead, three kernels, two verdicts"
else
	notok "curve layout"; sed 's/^/# /' "$WORK/s1.txt" | head -30
fi

# seed 004: one run, one option against the other, averaged over 3 runs
"$GEN" "$WORK/s4" --profile seed004 --seed 4 --repeats 3 --truth-ignores mount
"$IOM" compare "$WORK/s4" --versus mount=default,dioread_nolock --layout curve --x threads >"$WORK/s4.txt"
if grep -q '^verdict: 0 cells better, 0 worse, 18 unchanged, 0 not comparable$' "$WORK/s4.txt" &&
	grep -Eq '^threads +mount=default +mount=dioread_nolock +change$' "$WORK/s4.txt"; then
	ok "--versus: one option against the other in one run (A/A): nothing flagged"
else
	notok "--versus A/A"; sed 's/^/# /' "$WORK/s4.txt" | head -20
fi
"$GEN" "$WORK/s4c" --profile seed004 --seed 4 --repeats 3 --truth-ignores mount --cv 2 \
	--change 30 --change-where mount=dioread_nolock
"$IOM" compare "$WORK/s4c" --versus mount=default,dioread_nolock >"$WORK/s4c.txt"
head -n 1 "$WORK/s4c.txt" | grep -q '^verdict: 18 cells better, 0 worse' &&
	ok "--versus: a 30 % better option is flagged in every cell" || notok "--versus +30 %: $(head -n 1 "$WORK/s4c.txt")"
