#!/bin/sh
# Every engine on a real file (ext4, O_DIRECT and buffered) and on a loop device
# with O_DIRECT: the IO happens, the counts add up, no error.
. "$(dirname "$0")/lib/common.sh"
need_root
LOOP=$(make_loop 64) || { notok "loop device"; exit 1; }
dd if=/dev/urandom of="$T/file" bs=1M count=32 status=none

for target in "$T/file" "$LOOP"; do
	for eng in psync sync libaio io_uring; do
		for direct in 1 0; do
			out=$T/out.json
			rm -f "$out"
			"$R" --name=e --filename="$target" --ioengine=$eng --iodepth=8 --direct=$direct \
				--rw=randread --bs=4k --size=16m --output-format=json --output="$out" 2>"$T/err"
			rc=$?
			got=$(json "$out" 'd["jobs"][0]["read"]["total_ios"], d["jobs"][0]["error"]' 2>/dev/null)
			check "$eng direct=$direct on ${target##*/}: every 4k block of 16 MiB read once (rc=$rc: $got)" \
				[ "$rc" = 0 -a "$got" = "(4096, 0)" ]
		done
	done
	# Writes, with verify: what was written reads back intact, every block once.
	for eng in psync libaio io_uring; do
		"$R" --name=w --filename="$target" --ioengine=$eng --iodepth=16 --direct=1 --rw=randwrite \
			--bs=4k --size=8m --verify=crc32c --output-format=json --output="$T/w.json" 2>"$T/err"
		got=$(json "$T/w.json" 'd["jobs"][0]["write"]["total_ios"], d["jobs"][0]["iomatrix"]["verify_blocks"], d["jobs"][0]["iomatrix"]["verify_errors"]')
		check "$eng randwrite+verify on ${target##*/}: 2048 blocks written once, all verified ($got)" \
			[ "$got" = "(2048, 2048, 0)" ]
	done
done

# io_uring's own options and libaio's userspace reap.
"$R" --name=u --filename="$LOOP" --ioengine=io_uring --iodepth=16 --direct=1 --rw=randread --bs=4k \
	--size=8m --fixedbufs --registerfiles --output-format=json --output="$T/u.json" 2>"$T/err"
check "io_uring fixedbufs+registerfiles: $(json "$T/u.json" 'd["jobs"][0]["read"]["total_ios"]') IOs" \
	[ "$(json "$T/u.json" 'd["jobs"][0]["read"]["total_ios"]')" = 2048 ]
"$R" --name=u --filename="$LOOP" --ioengine=io_uring --iodepth=8 --direct=1 --rw=randread --bs=4k \
	--size=8m --sqthread_poll --output-format=json --output="$T/s.json" 2>"$T/err"
check "io_uring sqthread_poll" [ "$(json "$T/s.json" 'd["jobs"][0]["read"]["total_ios"]')" = 2048 ]
"$R" --name=a --filename="$LOOP" --ioengine=libaio --iodepth=16 --direct=1 --rw=randread --bs=4k \
	--size=8m --userspace_reap --output-format=json --output="$T/a.json" 2>"$T/err"
check "libaio userspace_reap" [ "$(json "$T/a.json" 'd["jobs"][0]["read"]["total_ios"]')" = 2048 ]

# disk_util names the loop device under the job.
check "disk_util reports $(json "$T/a.json" 'd["disk_util"][0]["name"]')" \
	[ "$(json "$T/a.json" 'd["disk_util"][0]["name"]')" = "${LOOP#/dev/}" ]

# Depth distributions: an async engine at iodepth 16 keeps 16 in flight.
check "libaio iodepth_level at 16: $(json "$T/a.json" 'd["jobs"][0]["iodepth_level"]["16"]')%" \
	python3 -c "import sys; sys.exit(not float(sys.argv[1]) > 50)" "$(json "$T/a.json" 'd["jobs"][0]["iodepth_level"]["16"]')"

# Submissions and reaps as fio makes them: a commit every iodepth_batch_submit IOs (1 by
# default, 0: iodepth), one completion per reap (iodepth_batch_complete_max defaults
# to complete_min), and at the end all that is in flight in one reap. With these the
# submit and complete distributions of a sized job do not depend on timing, so they
# must be real fio's to the digit.
for eng in libaio io_uring; do
	for opt in "" --iodepth_batch_submit=4 --iodepth_batch_submit=0; do
		maps='d["jobs"][0]["iodepth_submit"], d["jobs"][0]["iodepth_complete"]'
		rm -f "$T/mo.json" "$T/mf.json"
		set -- --name=m --filename="$LOOP" --ioengine=$eng --iodepth=16 --direct=1 \
			--rw=randread --bs=4k --size=8m $opt --output-format=json
		"$R" "$@" --output="$T/mo.json" 2>"$T/err"
		fio "$@" --output="$T/mf.json" >/dev/null 2>&1
		ours=$(json "$T/mo.json" "$maps" 2>/dev/null)
		check "$eng iodepth=16 ${opt:-(defaults)}: submit/complete as fio's: $ours" \
			[ -n "$ours" -a "$ours" = "$(json "$T/mf.json" "$maps" 2>/dev/null)" ]
	done
done
