#!/bin/sh
# Bad input: one clear line on stderr naming the option and where it was set,
# a non-zero exit, and no output file left behind.
. "$(dirname "$0")/lib/common.sh"

# expect_fail "what" "pattern in stderr" runner-args...
expect_fail() {
	what=$1
	pattern=$2
	shift 2
	rm -f "$T/out.json"
	"$R" "$@" --output-format=json --output="$T/out.json" >"$T/stdout" 2>"$T/err"
	rc=$?
	lines=$(grep -c '' "$T/err")
	leftovers=$(ls "$T" | grep -c 'out.json')
	if [ "$rc" != 0 ] && [ "$lines" = 1 ] && grep -q -- "$pattern" "$T/err" && [ "$leftovers" = 0 ]; then
		ok "$what: $(cat "$T/err")"
	else
		notok "$what (rc=$rc, $lines lines, $leftovers output files): $(cat "$T/err")"
	fi
}

printf '[global]\nioengine=psync\nsize=1m\n[job]\nrw=read\nfrobnicate=1\n' >"$T/unknown.fio"
expect_fail "unknown option" "unknown.fio:6: unknown option 'frobnicate'" "$T/unknown.fio"
printf '[job]\nsize=1m\nbs=4q\n' >"$T/badval.fio"
expect_fail "bad value" "badval.fio:3: option 'bs': bad value '4q'" "$T/badval.fio"
expect_fail "bad value on the command line" "command line: option 'iodepth': bad value 'deep'" \
	--name=x --size=1m --iodepth=deep
expect_fail "missing job file" "$T/nope.fio: No such file or directory" "$T/nope.fio"
printf '[job]\nfilename=%s/missing.dat\nrw=read\n' "$T" >"$T/missing.fio"
expect_fail "missing file" "missing.fio:2: job 'job': $T/missing.dat: No such file or directory" \
	"$T/missing.fio"
printf '[job]\ntime_based=1\nsize=1m\n' >"$T/tb.fio"
expect_fail "time_based without runtime" "tb.fio:2: job 'job': time_based needs a runtime" "$T/tb.fio"

if [ "$(id -u)" = 0 ]; then
	LOOP=$(make_loop 16)
	printf '[job]\nfilename=%s\nrw=read\nsize=1g\n' "$LOOP" >"$T/big.fio"
	expect_fail "size beyond the device" "big.fio:4: job 'job': $LOOP: offset 0 + size 1073741824 is beyond the device's 16777216 bytes" \
		"$T/big.fio"
fi

# io_uring refused by the kernel: io_uring_setup fails with EPERM under a seccomp filter.
if cc -O2 -o "$T/no_io_uring" "$LIB/no_io_uring.c" 2>"$T/cc.err"; then
	printf '[job]\nfilename=%s/u.dat\nrw=read\nsize=1m\nioengine=io_uring\n' "$T" >"$T/uring.fio"
	rm -f "$T/out.json"
	"$T/no_io_uring" "$R" "$T/uring.fio" --output-format=json --output="$T/out.json" 2>"$T/err"
	rc=$?
	if [ "$rc" != 0 ] && [ "$(grep -c '' "$T/err")" = 1 ] && [ ! -e "$T/out.json" ] &&
		grep -q "uring.fio:5: job 'job': ioengine=io_uring: io_uring_queue_init: Operation not permitted (io_uring disabled?" "$T/err"; then
		ok "io_uring refused: $(cat "$T/err")"
	else
		notok "io_uring refused (rc=$rc): $(cat "$T/err")"
	fi
else
	notok "building the seccomp helper: $(cat "$T/cc.err")"
fi

# An engine's own option with another engine, and an unsupported output format.
expect_fail "engine option with another engine" "job 'x': option 'hipri' belongs to ioengine=io_uring" \
	--name=x --size=1m --ioengine=libaio --hipri
rm -f "$T/out.json"
"$R" --name=x --size=1m --ioengine=null --output-format=terse 2>"$T/err"
check "unknown output format is refused: $(cat "$T/err")" grep -q "'terse' is not one of" "$T/err"

# A psync job with iodepth > 1: the note goes to stderr, the JSON file stays valid
# (fio 3.33 writes that note into the JSON file).
printf '[global]\nioengine=psync\niodepth=16\nnumjobs=2\nthread\nsize=1m\nfilename=%s/n.dat\n[n]\n' "$T" >"$T/note.fio"
"$R" "$T/note.fio" --output-format=json --output="$T/note.json" 2>"$T/err"
check "psync iodepth>1: note on stderr" grep -q "queue depth will be capped at 1" "$T/err"
check "psync iodepth>1: the output file is valid JSON" sh -c "python3 -m json.tool '$T/note.json' >/dev/null"
