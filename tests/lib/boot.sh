# Shared by the boot tests that boot the real image (tests/boot/matrix_*.sh,
# resume_*.sh): tap.sh's checks, grep helpers, the work directory and the
# image, and the kernel release ($BOOT_RELEASE) that every image is built for
# and every boot boots. Source it from the top of the tree.
. tests/lib/tap.sh
. tests/lib/release.sh

# has FILE PATTERN / count FILE PATTERN: grep -- PATTERN in FILE.
has() { grep -qs -- "$2" "$1"; }
count() { grep -c -- "$2" "$1"; }

# boot_work DIR: a fresh work directory; sets $work.
boot_work() {
	work=$1
	rm -rf "$work"
	mkdir -p "$work"
}

# boot_image WHAT [IMAGE ARGS...]: sets $initrd to $BOOT_IMAGE when given
# (built for $BOOT_RELEASE: set both), else to an image for $BOOT_RELEASE
# built into $work with IMAGE ARGS (a check named WHAT). Every test builds
# its own by default, so it never boots a stale one.
boot_image() {
	command -v jq >/dev/null || { echo "not ok - jq missing (make deps)"; exit 1; }
	if [ -n "${BOOT_IMAGE:-}" ]; then
		initrd=$BOOT_IMAGE
		return
	fi
	t_what=$1
	shift
	initrd=$work/initramfs.cpio.zst
	check "$t_what" build/iomatrix image --release "$BOOT_RELEASE" --compress zstd "$@" -o "$initrd" --quiet
}

# extract_set WHAT SOURCE DIR: iomatrix extract SOURCE (a log or a results disk
# image) into DIR, its output shown as comments, a check WHAT that it exits 0
# (a complete result set).
extract_set() {
	build/iomatrix extract "$2" -o "$3" >"$3.extract" 2>&1
	t_rc=$?
	sed 's/^/# /' "$3.extract"
	check "$1" [ "$t_rc" -eq 0 ]
}
