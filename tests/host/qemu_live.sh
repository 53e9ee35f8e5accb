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
# until SIGCHLD). Counted, not timed: polls LINGER prints "STATUS POLLS", the
# exit status and the poll() calls of iomatrix qemu and the stand-in (strace).
# Measured here: 2 polls either way with the fix, 14,833 with 3 s of
# lingering without it (the relay spinning on the ended pipe).
polls() {
	FAKE_LINGER=$1 FAKE_CONSOLE=$tmp/console PATH="$tmp/bin:$PATH" strace -f -qq -e trace=poll \
		-o "$tmp/strace" build/iomatrix qemu --release "$BOOT_RELEASE" \
		--initrd "$tmp/initramfs.cpio" --no-pvh --accel tcg --serial-log "$tmp/linger.log" \
		--hide-kernel >/dev/null 2>&1
	echo "$? $(grep -c 'poll(' "$tmp/strace")"
}
base=$(polls "")
linger=$(polls 3)
echo "# exit status, poll() calls: $base without lingering, $linger with 3 s"
check "--hide-kernel, stdout closed 3 s before QEMU exits: exit 0, no busy loop" \
	sh -c '[ "${1% *}" = 0 ] && [ "${2% *}" = 0 ] && [ $(( ${2#* } - ${1#* } )) -lt 1000 ]' - \
	"$base" "$linger"
