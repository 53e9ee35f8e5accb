#!/bin/sh
# Boot test: a hang the watchdog resets, then QEMU killed at a random
# moment; each time the next boot resumes the run, and the run completes.
#
# The resume matrix (tests/boot/data/matrix/resume.matrix: 4 short cells on
# md raid0 + ext4) with 2 repeats, records on a results disk.
#   1. `iomatrix qemu --boots 2 --watchdog`, iomatrix.watchdog=10 and
#      iomatrix.test_hang=3:setup: boot 1 runs cells 1 and 2, then PID 1
#      stops feeding the watchdog and sleeps as cell 3's setup starts (the
#      kernel runs on); the i6300esb resets the machine and boot 2 resumes.
#      A random delay after boot 2's matrix line (KILL_DELAY=SECONDS
#      chooses it), the test kills QEMU (SIGKILL): a machine that lost its
#      power, wherever it was.
#   2. `iomatrix qemu` again on the same disks and results disk: boot 3
#      resumes the run and finishes it.
# Checks: every run has one record; the hung run is `crashed` (stage setup,
# boot 1); the run the kill interrupted, if one was running, is `crashed`
# (boot 2); every record the results disk held right after the kill is in
# the final result set unchanged; one run id, seqs without a gap.
#
# BOOT_IMAGE=FILE boots that image (it must hold tests/boot/data).
set -u
cd "$(dirname "$0")/../.."
. tests/lib/boot.sh
boot_work build/test-boot-resume-hang-kill
# The final record of cell $1, repeat $2: jq expression $3 over it.
run() { jq -sr "map(select(.cell.index == $1 and .repeat == $2))[0] | $3" "$work"/final/records/*.json; }
boot_image "an image with the resume matrix builds" --data-dir tests/boot/data

# iomatrix qemu on the test's disks (the same files every time)
set -- --release "$BOOT_RELEASE" --initrd "$initrd" --accel tcg --quiet --disks 2 --disk-size 1G \
	--disk-dir "$work" --results-disk "$work/results.img" --timeout 300
matrix="iomatrix.matrix=resume iomatrix.repeats=2 quiet"

if [ -n "${KILL_DELAY:-}" ]; then
	delay=$KILL_DELAY
else
	ms=$(($(od -An -N2 -tu2 /dev/urandom) % 5800 + 200))
	delay=$((ms / 1000)).$(printf %03d $((ms % 1000)))
fi
echo "# QEMU is killed ${delay} s after boot 2's matrix line (KILL_DELAY=$delay repeats it)"

log=$work/serial.log
start=$(date +%s)
build/iomatrix qemu "$@" --serial-log "$log" --boots 2 --watchdog \
	--append "$matrix iomatrix.watchdog=10 iomatrix.test_hang=3:setup" >"$work/qemu1.out" 2>&1 &
launcher=$!
matrix_lines() { n=$(grep -c '^iomatrix: matrix resume: ' "$log" 2>/dev/null); echo "${n:-0}"; }
waited=0
while [ "$(matrix_lines)" -lt 2 ] && kill -0 "$launcher" 2>/dev/null && [ "$waited" -lt 3000 ]; do
	sleep 0.1
	waited=$((waited + 1))
done
sleep "$delay"
qemu=$(pgrep -P "$launcher" -f qemu-system)
check "kill: QEMU was running boot 2 when its time came" [ -n "$qemu" ]
if [ -n "$qemu" ]; then
	kill -KILL $qemu
else
	kill "$launcher" 2>/dev/null # it stops its QEMU
fi
wait "$launcher"
rc=$?
echo "# boots 1 and 2 took $(($(date +%s) - start)) s"
sed 's/^/# /' "$work/qemu1.out"

check "hang: boot 1 armed the watchdog" \
	has "$log" '^iomatrix: watchdog: /dev/watchdog armed, timeout 10 s, fed while the matrix makes progress'
check "hang: PID 1 hung in cell 3's setup" \
	has "$log" '^iomatrix: test: PID 1 hangs in cell \[#3\] setup (iomatrix.test_hang=3:setup): no more feeding'
check "hang: the watchdog reset the machine, the launcher booted again" \
	has "$work/qemu1.out" '^iomatrix qemu: boot 1: crash: the machine reset without powering off (the watchdog was armed: a hang?)'
run_id=$(sed -n 's/^iomatrix: results: .* a new results log for run \([0-9a-f]*\) .*/\1/p' "$log")
check "hang: boot 2 resumed the run" \
	has "$log" "^iomatrix: results: .*: resuming run $run_id on its boot 2: 2 records, last seq 2"
check "hang: boot 2 recorded the hung run crashed in its setup" \
	has "$log" '^iomatrix: cell \[#3 1/2\] case=after: crashed: the machine died during setup: scheduler (since .*) on boot 1 of the run; recorded on boot 2'
check "kill: the launcher says QEMU was killed (exit 1)" \
	sh -c "[ $rc -eq 1 ] && grep -q '^iomatrix qemu: boot 2: QEMU failed (signal 9)' $work/qemu1.out"

# What the disk held right after the kill.
build/iomatrix extract "$work/results.img" -o "$work/killed" >"$work/extract-killed.out" 2>&1
sed 's/^/# /' "$work/extract-killed.out"
killed=$(ls "$work"/killed/records 2>/dev/null | wc -l)
check "kill: the results disk is readable after the kill ($killed records)" [ "$killed" -ge 3 ]

# Where boot 2 was: its last complete progress line.
sed -n '/^iomatrix-qemu: boot 2 /,$p' "$log" >"$work/boot2.log"
[ -n "$(tail -c1 "$work/boot2.log")" ] && sed -i '$d' "$work/boot2.log"
last=$(grep '^iomatrix: cell [0-9]*/[0-9]* \[#[0-9]* [0-9]*/2\] ' "$work/boot2.log" | tail -n 1)
cell=$(echo "$last" | sed -n 's/^iomatrix: cell [0-9]*\/[0-9]* \[#\([0-9]*\) .*/\1/p')
repeat=$(echo "$last" | sed -n 's/^iomatrix: cell [0-9]*\/[0-9]* \[#[0-9]* \([0-9]*\)\/2\] .*/\1/p')
[ -n "$repeat" ] && repeat=$((repeat - 1))
case $last in
*": start, "*) where=running ;;
"") where=none ;;
*) where=ended ;;
esac
has "$work/boot2.log" '^iomatrix: summary: matrix resume' && where=finished
echo "# the kill found boot 2: $where${cell:+, cell $cell repeat $repeat}"

start=$(date +%s)
build/iomatrix qemu "$@" --serial-log "$work/serial3.log" --append "$matrix" \
	>"$work/qemu3.out" 2>&1
rc=$?
echo "# boot 3 took $(($(date +%s) - start)) s"
sed 's/^/# /' "$work/qemu3.out"
check "kill: boot 3 powers off cleanly" [ "$rc" -eq 0 ]
if [ "$where" = finished ]; then
	check "kill: boot 3 finds the run finished" \
		has "$work/serial3.log" "^iomatrix: results: .*: run $run_id finished (8 records"
else
	check "kill: boot 3 resumes the run" \
		has "$work/serial3.log" "^iomatrix: results: .*: resuming run $run_id on its boot 3: "
fi

extract_set "final: extract of the results disk: a complete result set" \
	"$work/results.img" "$work/final"
check "final: one record for each of the 8 runs" \
	[ "$(jq -sc 'map("\(.cell.index)/\(.repeat)") | sort' "$work"/final/records/*.json)" = \
		'["1/0","1/1","2/0","2/1","3/0","3/1","4/0","4/1"]' ]
check "final: one run id, seqs 1-8" \
	[ "$(jq -sc '[(map(.run_id) | unique), (map(.seq) | sort)]' "$work"/final/records/*.json)" = "[[\"$run_id\"],[1,2,3,4,5,6,7,8]]" ]
same=0
for f in "$work"/killed/records/*.json; do
	cmp -s "$f" "$work/final/records/${f##*/}" && same=$((same + 1))
done
check "kill: every record on the disk after the kill is in the final set unchanged ($same of $killed)" \
	[ "$same" -eq "$killed" ]
check "hang: the hung run is crashed in setup, on boot 1, recorded on boot 2" \
	[ "$(run 3 0 '[.status, .crash.stage, .crash.step, .crash.boot, .crash.recorded_boot] | join(" ")')" = "crashed setup scheduler 1 2" ]
crashed=$(jq -s 'map(select(.status == "crashed")) | length' "$work"/final/records/*.json)
case $where in
running)
	check "kill: the run QEMU was killed in (cell $cell repeat $repeat) is crashed, on boot 2, recorded on boot 3" \
		[ "$(run "$cell" "$repeat" '[.status, .crash.boot, .crash.recorded_boot] | join(" ")')" = "crashed 2 3" ]
	check "kill: no other run crashed" [ "$crashed" -eq 2 ]
	tests/lib/check-records "$work/final" ok=6 crashed=2
	;;
ended)
	# Killed between a run's end line and the next start: its record
	# either made it, or the boot died writing it (stage "record").
	check "kill: the run that had just ended (cell $cell repeat $repeat) is ok, or crashed writing its record" \
		[ "$(run "$cell" "$repeat" 'if .status == "crashed" then "\(.crash.stage) \(.crash.boot)" else .status end')" = ok -o \
		"$(run "$cell" "$repeat" 'if .status == "crashed" then "\(.crash.stage) \(.crash.boot)" else .status end')" = "record 2" ]
	tests/lib/check-records "$work/final"
	;;
*)
	check "kill: after the run finished, nothing else crashed" [ "$crashed" -eq 1 ]
	tests/lib/check-records "$work/final" ok=7 crashed=1
	;;
esac
