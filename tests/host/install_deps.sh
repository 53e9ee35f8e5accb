#!/bin/sh
# tools/install-deps (make deps, and the first step of every make) as a user
# who is not root: with a package missing it says on one line which and how
# to install them, exit 1, installing nothing; with all there it is a one-line
# no-op that needs no root.
set -u
cd "$(dirname "$0")/../.."
. tests/lib/tap.sh

# As root, drop to nobody for each run; as anyone else, run as that user.
as_user() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		"$@"
	fi
}
chmod 755 "$tmp" # mktemp -d makes it 0700: nobody must read the lists in it

# deps [LIST]: tools/install-deps [LIST] as the user; $rc, $tmp/stdout, $tmp/stderr.
deps() {
	as_user tools/install-deps "$@" >"$tmp/stdout" 2>"$tmp/stderr"
	rc=$?
	sed 's/^/# /' "$tmp/stdout" "$tmp/stderr"
}
lines() { wc -l <"$1"; }

# dpkg is always installed; the second name is in no archive.
printf '# a comment\ndpkg iomatrix-no-such-package\n' >"$tmp/missing.list"
deps "$tmp/missing.list"
check "a package missing, not root: exit 1" [ "$rc" -eq 1 ]
check "a package missing: one line on stderr" [ "$(lines "$tmp/stderr")" -eq 1 ]
check "a package missing: nothing on stdout" [ ! -s "$tmp/stdout" ]
check "a package missing: names it and no other" \
	grep -q '^deps: missing: iomatrix-no-such-package; ' "$tmp/stderr"
check "a package missing: says how to install" \
	grep -q 'as root: make deps (or apt-get install iomatrix-no-such-package)' "$tmp/stderr"

printf 'dpkg\n' >"$tmp/present.list"
deps "$tmp/present.list"
check "all installed, not root: exit 0" [ "$rc" -eq 0 ]
check "all installed: one line" [ "$(lines "$tmp/stdout")" -eq 1 ]
check "all installed: nothing on stderr" [ ! -s "$tmp/stderr" ]
check "all installed: says so" grep -qx 'deps: all 1 packages installed' "$tmp/stdout"

# The project's own list: make check ran make deps before this test.
deps
check "the project's list, not root: a no-op, exit 0" [ "$rc" -eq 0 ]
check "the project's list: one line" grep -q '^deps: all [0-9]* packages installed$' "$tmp/stdout"
