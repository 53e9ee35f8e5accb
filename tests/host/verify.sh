#!/bin/sh
# verify=crc32c: a written file verifies; one flipped byte is caught, named, and fails the run.
. "$(dirname "$0")/lib/common.sh"
F=$T/v.dat
"$R" --name=w --filename="$F" --rw=write --bs=4k --size=4m --verify=crc32c --do_verify=0 \
	--output-format=json --output="$T/w.json" 2>"$T/err"
check "write with verify headers" [ $? = 0 ]
"$R" --name=r --filename="$F" --rw=randread --bs=4k --size=4m --verify=crc32c \
	--output-format=json --output="$T/r.json" 2>"$T/err"
check "clean data verifies: $(json "$T/r.json" 'd["jobs"][0]["iomatrix"]["verify_blocks"]') blocks" \
	[ $? = 0 -a "$(json "$T/r.json" 'd["jobs"][0]["iomatrix"]["verify_blocks"]')" = 1024 ]

# Flip one byte inside block 100.
printf '\377' | dd of="$F" bs=1 seek=$((100 * 4096 + 777)) conv=notrunc status=none
"$R" --name=r --filename="$F" --rw=read --bs=4k --size=4m --verify=crc32c \
	--output-format=json --output="$T/bad.json" 2>"$T/err"
rc=$?
check "corruption fails the run (rc=$rc)" [ "$rc" != 0 ]
check "the report is still written, valid JSON, error EILSEQ" \
	[ "$(json "$T/bad.json" 'd["jobs"][0]["error"], d["jobs"][0]["iomatrix"]["verify_errors"]')" = "(84, 1)" ]
check "stderr names the offset and the cause: $(cat "$T/err")" \
	grep -q "offset 409600 of $F: crc32c .*corrupted data" "$T/err"

# verify_fatal stops at the first bad block.
"$R" --name=r --filename="$F" --rw=read --bs=4k --size=4m --verify=crc32c --verify_fatal=1 \
	--output-format=json --output="$T/fatal.json" 2>"$T/err"
check "verify_fatal stops early: $(json "$T/fatal.json" 'd["jobs"][0]["iomatrix"]["verify_blocks"]') blocks read" \
	[ "$(json "$T/fatal.json" 'd["jobs"][0]["iomatrix"]["verify_blocks"]')" = 101 ]
