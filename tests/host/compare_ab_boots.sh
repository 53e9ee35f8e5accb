#!/bin/sh
# qemu/ab-boots without QEMU: a stand-in host command (IOMATRIX) records the
# boots it is asked for. The sides alternate (base-1 new-1 base-2 ...), each
# side gets its own arguments, the matrix and repeats go on the kernel
# command line, and a failed boot stops the rest with one line naming it.
. "$(dirname "$0")/lib/compare.sh"

ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; }

# The stand-in: `qemu ... --serial-log FILE` writes its arguments to FILE and
# appends the boot's name to $WORK/order; it fails the boot named $FAIL.
# `extract LOG -o DIR` makes DIR.
fake=$WORK/fake-iomatrix
cat >"$fake" <<'EOF'
#!/bin/sh
cmd=$1
shift
case $cmd in
qemu)
	log=
	prev=
	for a in "$@"; do [ "$prev" = --serial-log ] && log=$a; prev=$a; done
	name=$(basename "$log" .log)
	echo "$name" >>"$FAKE_WORK/order"
	echo "$*" >"$log"
	[ "$name" != "${FAIL:-}" ] || { echo "iomatrix qemu: kernel panic"; exit 3; }
	echo "iomatrix qemu: clean power-off" ;;
extract)
	mkdir -p "$3" && cp "$1" "$3/args" ;;
esac
EOF
chmod +x "$fake"
export FAKE_WORK="$WORK"

# Relative OUT is the caller's, not the tree's.
(cd "$WORK" && IOMATRIX="$fake" "$OLDPWD/qemu/ab-boots" ab --rounds 3 --matrix quick --repeats 2 \
	--base-args "--kernel A.bz" --new-args "--kernel B.bz") >"$WORK/out.txt" 2>&1
rc=$?
order=$(tr '\n' ' ' <"$WORK/order")
[ $rc -eq 0 ] && [ "$order" = "base-1 new-1 base-2 new-2 base-3 new-3 " ] &&
	ok "3 rounds: $order" || notok "3 rounds: exit $rc, order '$order': $(cat "$WORK/out.txt")"
if [ -d "$WORK/ab/base-3" ] && [ -d "$WORK/ab/new-3" ] &&
	grep -q -- '--kernel A.bz --append iomatrix.matrix=quick iomatrix.repeats=2 ' "$WORK/ab/base-2.log" &&
	grep -q -- '--kernel B.bz --append' "$WORK/ab/new-2.log" && ! grep -q -- 'B.bz' "$WORK/ab/base-1.log"; then
	ok "each side its own arguments, the matrix and repeats appended, a result set per boot"
else
	notok "arguments: $(cat "$WORK/ab/base-2.log" "$WORK/ab/new-2.log")"
fi

rm -f "$WORK/order"
FAIL=new-2 IOMATRIX="$fake" qemu/ab-boots "$WORK/f" --rounds 3 >"$WORK/out.txt" 2>&1
rc=$?
order=$(tr '\n' ' ' <"$WORK/order")
if [ $rc -eq 1 ] && [ "$order" = "base-1 new-1 base-2 new-2 " ] &&
	grep -q "^ab-boots: boot new-2: iomatrix qemu exited 3: iomatrix qemu: kernel panic$" "$WORK/out.txt"; then
	ok "a failed boot stops the rest and is named"
else
	notok "failed boot: exit $rc, order '$order': $(cat "$WORK/out.txt")"
fi

IOMATRIX="$fake" qemu/ab-boots "$WORK/z" --rounds 0 >"$WORK/out.txt" 2>&1
[ $? -eq 2 ] && grep -q "rounds 0: not a count" "$WORK/out.txt" && ok "--rounds 0 is refused" ||
	notok "--rounds 0: $(cat "$WORK/out.txt")"
