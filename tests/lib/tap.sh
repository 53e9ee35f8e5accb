# Helpers for shell tests: each check prints one "ok - NAME" or "not ok - NAME"
# line, which tests/run counts. Source it; it sets $tmp (removed at exit).

tmp=$(mktemp -d /tmp/iomatrix-test-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# check NAME COMMAND...: ok when COMMAND succeeds.
check() {
	t_name=$1
	shift
	if "$@"; then
		echo "ok - $t_name"
	else
		echo "not ok - $t_name"
	fi
}

# fails NAME PATTERN COMMAND...: ok when COMMAND exits non-zero and its
# stderr holds PATTERN (a grep -E pattern); the output is in $tmp/stdout
# and $tmp/stderr.
fails() {
	t_name=$1
	t_pattern=$2
	shift 2
	if "$@" >"$tmp/stdout" 2>"$tmp/stderr"; then
		echo "not ok - $t_name (exit 0)"
	elif ! grep -qE -- "$t_pattern" "$tmp/stderr"; then
		echo "not ok - $t_name (stderr: $(head -c 300 "$tmp/stderr"))"
	else
		echo "ok - $t_name"
	fi
}
