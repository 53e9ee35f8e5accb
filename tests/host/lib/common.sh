# Shared by the host tests: sh tests/host/X.sh prints "ok - ..." / "not ok - ...".
set -u
cd "$(dirname "$0")/../.."
R=$PWD/build/iomatrix-runner
LIB=$PWD/tests/host/lib
T=$(mktemp -d /tmp/iomatrix-host.XXXXXX)
LOOPS=
cleanup() {
	for l in $LOOPS; do losetup -d "$l" 2>/dev/null; done
	rm -rf "$T" /dev/shm/iomatrix-host.$$.*
}
trap cleanup EXIT

ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; }
check() { # check "what" command...
	what=$1
	shift
	if "$@"; then ok "$what"; else notok "$what"; fi
}

# json FILE EXPR: evaluate a Python expression on the parsed JSON (as d).
json() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# A loop device over a fully written (never sparse) file in /dev/shm, direct IO on.
make_loop() { # make_loop MiB -> prints the device
	img=/dev/shm/iomatrix-host.$$.$1.$(date +%N)
	dd if=/dev/urandom of="$img" bs=1M count="$1" status=none || return 1
	dev=$(losetup -f --show --direct-io=on "$img") || return 1
	LOOPS="$LOOPS $dev"
	echo "$dev"
}

need_root() {
	if [ "$(id -u)" != 0 ]; then
		echo "ok - skipped: needs root # SKIP"
		exit 0
	fi
}
