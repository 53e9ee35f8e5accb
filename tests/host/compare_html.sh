#!/bin/sh
# The HTML report: self-contained (no scripts, nothing fetched), well-formed,
# with the three kinds of chart as valid SVG, and rendered by headless
# Chromium (Debian's chromium) into a screenshot that shows them. One boot
# a side with noise only per repeat: --unit repeat, so the change is flagged.
. "$(dirname "$0")/lib/compare.sh"

"$GEN" "$WORK/off" --profile seed001 --seed 1 --kernel rasync-off --cv 3
"$GEN" "$WORK/on" --profile seed001 --seed 2 --kernel rasync-on --cv 3 --change 20 --change-where readahead=64
"$IOM" compare --unit repeat "$WORK/off" "$WORK/on" --format html --metric read_iops,read_clat_p99 \
	--where readahead=64,readahead=256 -o "$WORK/report.html"
rc=$?
[ $rc -le 1 ] && echo "ok - iomatrix compare --format html" || echo "not ok - iomatrix compare --format html: exit $rc"

if command -v xmllint >/dev/null && xmllint --noout "$WORK/report.html" 2>"$WORK/xmllint.txt"; then
	echo "ok - the report is well-formed (xmllint)"
else
	echo "not ok - xmllint: $(head -c 300 "$WORK/xmllint.txt") (libxml2-utils installed?)"
fi

what="SVG charts parse: bars, curves, latency percentiles; no scripts, nothing fetched"
python3 - "$WORK/report.html" <<'PY' && echo "ok - $what" || echo "not ok - $what"
import re, sys
import xml.etree.ElementTree as ET
text = open(sys.argv[1], encoding="utf-8").read()
assert "<script" not in text.lower(), "a script"
refs = re.findall(r'(?:href|src)\s*=\s*"([^"]*)"', text)
assert not refs, f"external references: {refs[:3]}"
svgs = re.findall(r"<svg\b.*?</svg>", text, re.S)
kinds = {"bars": 0, "curve": 0, "pctl": 0}
for s in svgs:
    root = ET.fromstring(s)          # each chart parses on its own
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    title = root.find("{http://www.w3.org/2000/svg}title").text
    marks = len(root.findall(".//{http://www.w3.org/2000/svg}rect")) + \
        len(root.findall(".//{http://www.w3.org/2000/svg}circle"))
    assert marks > 4, f"an empty chart: {title}"
    if "= 100 %" in title:
        kinds["bars"] += 1
    elif "against iodepth" in title:
        kinds["curve"] += 1
    elif "clat percentiles" in title:
        kinds["pctl"] += 1
print("# charts:", kinds)
assert kinds["bars"] == 2 and kinds["curve"] == 4 and kinds["pctl"] >= 1, kinds
PY

if ! command -v chromium >/dev/null; then
	echo "not ok - chromium is installed (Debian package chromium; make deps)"
	exit 0
fi
mkdir -p "$WORK/profile"
timeout 180 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$WORK/profile" --hide-scrollbars --window-size=1100,3000 \
	--screenshot="$WORK/shot.png" "file://$WORK/report.html" >"$WORK/chromium.log" 2>&1
if [ -s "$WORK/shot.png" ]; then
	echo "ok - headless chromium took a screenshot"
else
	echo "not ok - headless chromium took no screenshot: $(tail -n 3 "$WORK/chromium.log")"
	exit 0
fi
# Base and new series colours, and the green of "better", must be on the page in quantity.
set -- $(python3 tests/host/lib/png_stats.py "$WORK/shot.png" '#4e79a7' '#f28e2b' '#2e7d32')
if [ "$1" -eq 1100 ] && [ "$3" -gt 200 ] && [ "$4" -gt 2000 ] && [ "$5" -gt 2000 ] && [ "$6" -gt 100 ]; then
	echo "ok - the screenshot shows the charts: $3 colours, $4 base, $5 new, $6 'better' pixels"
else
	echo "not ok - the screenshot: ${1}x$2, $3 colours, $4 base, $5 new, $6 'better' pixels"
fi
if [ -n "${KEEP_SCREENSHOT:-}" ]; then
	cp "$WORK/shot.png" "$KEEP_SCREENSHOT" && cp "$WORK/report.html" "${KEEP_SCREENSHOT%.png}.html"
fi
