#!/bin/sh
# The dd workload: 100 writers over two directories, timed to the end of the sync;
# JSON as docs/records.md says; bad input refused with one line.
. "$(dirname "$0")/lib/common.sh"
mkdir -p "$T/a" "$T/b"
"$R" dd --writers 100 --bs 64k --size 256k --directory "$T/a:$T/b" --output-format json \
	--output "$T/dd.json" 2>"$T/err"
rc=$?
check "100 writers (rc=$rc): $(cat "$T/err")" [ "$rc" = 0 ]
check "all bytes written: $(json "$T/dd.json" 'd["io_bytes"]')" \
	[ "$(json "$T/dd.json" 'd["io_bytes"]')" = $((100 * 262144)) ]
check "writers spread round-robin over the directories" \
	[ "$(json "$T/dd.json" '[w["file"].rsplit("/", 2)[1] for w in d["per_writer"][:4]]')" = "['a', 'b', 'a', 'b']" ]
check "one filesystem, one sync" [ "$(json "$T/dd.json" 'd["filesystems_synced"]')" = 1 ]
check "elapsed = writes + sync" \
	[ "$(json "$T/dd.json" 'd["elapsed_ns"] == d["write_ns"] + d["sync_ns"] and d["bw_bytes"] == int(d["io_bytes"] * 1e9 / d["elapsed_ns"]) or abs(d["bw_bytes"] - d["io_bytes"] * 1e9 / d["elapsed_ns"]) < 2')" = True ]
check "the keys of docs/records.md" \
	[ "$(json "$T/dd.json" 'all(k in d for k in ("writers","bs","size_per_writer","runtime_ms","io_bytes","elapsed_ns","write_ns","sync_ns","bw_bytes","bw","per_writer"))')" = True ]
check "files removed afterwards" [ -z "$(find "$T/a" "$T/b" -type f)" ]

"$R" dd --writers 2 --bs 1M --runtime 300ms --directory "$T/a" --keep-files >"$T/dd.txt" 2>"$T/err"
check "time-bound writers, normal report" grep -q "^  WRITE: bw=.*run=" "$T/dd.txt"
check "--keep-files keeps them" [ -s "$T/a/dd.0" -a -s "$T/a/dd.1" ]

# a time may start with its point, as lib/units reads it
rm -f "$T/a"/dd.*
"$R" dd --writers 1 --bs 64k --runtime .2s --directory "$T/a" --output-format json \
	--output "$T/dot.json" 2>"$T/err"
rc=$?
check "--runtime .2s taken (rc=$rc): $(cat "$T/err")" [ "$rc" = 0 ]
check "--runtime .2s is 200 ms" [ "$(json "$T/dot.json" 'd["runtime_ms"]')" = 200 ]

for bad in "--writers 0 --bs 4k --size 1m --directory $T/a" \
	"--writers 2 --bs 4k --directory $T/a" \
	"--writers 2 --bs 4k --size 1m --runtime 1 --directory $T/a" \
	"--writers 2 --bs 4q --size 1m --directory $T/a" \
	"--writers 2 --bs 4k --size 1m --directory $T/missing" \
	"--writers 2 --bs 4k --size 1m --directory $T/a --frob"; do
	rm -f "$T/bad.json"
	# shellcheck disable=SC2086
	"$R" dd $bad --output "$T/bad.json" 2>"$T/err"
	rc=$?
	check "refused: dd $bad -> $(cat "$T/err")" \
		[ "$rc" != 0 -a "$(grep -c '' "$T/err")" = 1 -a ! -e "$T/bad.json" ]
done
