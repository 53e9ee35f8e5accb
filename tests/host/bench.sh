#!/bin/sh
# make bench's program runs: a short round of the null engine (b1) and of psync on a
# loop device (e) against real fio, with idle CPUs held polling; every row has ratios.
# (The figures themselves are the bench's business, not a test's: no time is asserted.)
. "$(dirname "$0")/lib/common.sh"
need_root
B=$PWD/build/bench/bench
W=/dev/shm/iomatrix-host.$$.bench

"$B" --runner "$R" --bare build/bench/pread_loop --cases b1,e --rounds 1 --runtime 1 \
	--cpu none --work "$W" >"$T/out" 2>"$T/err"
rc=$?
check "bench b1,e: exit 0 (rc=$rc: $(tail -1 "$T/err"))" [ "$rc" = 0 ]
# Polling, or (without /dev/cpu_dma_latency) native with the reason on stderr.
if grep -q "cannot keep idle CPUs polling" "$T/err"; then
	check "bench says idle CPUs stayed native, and why: $(grep -m1 'cannot keep' "$T/err")" \
		grep -q "idle CPUs native" "$T/out"
else
	check "bench says idle CPUs were held polling" \
		grep -q "idle CPUs polling (cpu_dma_latency 0)" "$T/out"
fi
for c in b1 e; do
	# case, what..., ours IOPS, fio IOPS, IOPS x, ...: every ratio a positive number.
	row=$(grep "^$c " "$T/out")
	check "bench row $c has IOPS, CPU and RSS ratios: $(echo "$row" | tr -s ' ' | cut -c1-80)" \
		python3 -c '
import re, sys
nums = re.findall(r"\s(\d+\.\d+)(?=\s|$)", sys.argv[1])
sys.exit(not (len(nums) >= 3 and all(float(x) > 0 for x in nums)))' "$row"
done
check "bench leaves nothing behind in its work directory" [ ! -e "$W" ]
check "bench: no loop device left on its image" sh -c "! losetup -a | grep -q '$W'"

"$B" --idle sometimes >"$T/out" 2>"$T/err"
rc=$?
check "bench --idle sometimes: usage, exit 2 (rc=$rc)" sh -c "[ $rc = 2 ] && grep -q usage: '$T/err'"
