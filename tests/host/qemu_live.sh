#!/bin/sh
# iomatrix qemu --hide-kernel, with a stand-in QEMU that writes a console to
# its stdout and to the chardev's logfile as QEMU does: the live console
# leaves out the kernel's timestamped lines (but a WARNING), the serial log
# keeps every byte, and without the option the live console is all of it.
set -u
cd "$(dirname "$0")/../.."
. tests/lib/tap.sh
. tests/lib/release.sh

mkdir "$tmp/bin"
cat >"$tmp/bin/qemu-system-x86_64" <<'EOS'
#!/bin/sh
for a; do
	case $a in *,logfile=*) log=${a#*,logfile=}; log=${log%%,*} ;; esac
done
tee "$log" <"$FAKE_CONSOLE"
# FAKE_LINGER=SECONDS: its stdout closed, QEMU goes on that long before it exits
if [ -n "${FAKE_LINGER:-}" ]; then
	exec >&-
	sleep "$FAKE_LINGER"
fi
EOS
chmod +x "$tmp/bin/qemu-system-x86_64"
printf '[    0.000000] Linux version test\r\n' >"$tmp/console"
printf 'iomatrix: start: PID 1 on Linux test t=1.00\r\n' >>"$tmp/console"
printf '[    1.500000] EXT4-fs (vda): mounted filesystem\r\n' >>"$tmp/console"
printf 'iomatrix: cell 1/1: start, ETA 1 s\r\n' >>"$tmp/console"
printf '[    2.000000] WARNING: CPU: 0 PID: 1 at fs/x.c:1\r\n' >>"$tmp/console"
printf 'iomatrix: power-off t=2.50\r\n' >>"$tmp/console"
printf '[    2.600000] reboot: Power down\r\n' >>"$tmp/console"
printf 'iomatrix: start: PID 1 on Linux test t=1.00\r\n' >"$tmp/want"
printf 'iomatrix: cell 1/1: start, ETA 1 s\r\n' >>"$tmp/want"
printf '[    2.000000] WARNING: CPU: 0 PID: 1 at fs/x.c:1\r\n' >>"$tmp/want"
printf 'iomatrix: power-off t=2.50\r\n' >>"$tmp/want"
printf 'x' >"$tmp/initramfs.cpio"

# live NAME [OPTIONS...]: the stand-in booted; $rc, $tmp/NAME.out (stdout), $tmp/NAME.log
live() {
	name=$1
	shift
	FAKE_CONSOLE=$tmp/console PATH="$tmp/bin:$PATH" build/iomatrix qemu \
		--release "$BOOT_RELEASE" --initrd "$tmp/initramfs.cpio" --no-pvh --accel tcg \
		--serial-log "$tmp/$name.log" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	rc=$?
	sed 's/^/# /' "$tmp/$name.err"
}

live hidden --hide-kernel
check "--hide-kernel: exit 0 (clean power-off)" [ "$rc" -eq 0 ]
check "--hide-kernel: the runner's lines and the WARNING, no other kernel line" \
	cmp -s "$tmp/hidden.out" "$tmp/want"
check "--hide-kernel: the serial log holds every byte" cmp -s "$tmp/hidden.log" "$tmp/console"
live all
check "without it: exit 0" [ "$rc" -eq 0 ]
check "without it: the live console is all of it" cmp -s "$tmp/all.out" "$tmp/console"

# The pipe's end before QEMU exits: the relay stops polling it (no busy loop
# until SIGCHLD). cpu LINGER: "STATUS SECONDS", the CPU time of iomatrix qemu
# and the stand-in; 3 s of lingering may cost no more than 1 s over none.
cpu() {
	FAKE_LINGER=$1 FAKE_CONSOLE=$tmp/console PATH="$tmp/bin:$PATH" python3 -c '
import resource, subprocess, sys
rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(rc, round(r.ru_utime + r.ru_stime, 2))' build/iomatrix qemu --release "$BOOT_RELEASE" \
		--initrd "$tmp/initramfs.cpio" --no-pvh --accel tcg --serial-log "$tmp/linger.log" \
		--hide-kernel
}
base=$(cpu "")
linger=$(cpu 3)
echo "# exit status, CPU seconds: $base without lingering, $linger with 3 s"
check "--hide-kernel, stdout closed 3 s before QEMU exits: exit 0, no busy loop" \
	python3 -c 'import sys
(b0, b), (l0, l) = (a.split() for a in sys.argv[1:])
sys.exit(not (b0 == l0 == "0" and float(l) - float(b) < 1))' "$base" "$linger"
