#!/bin/sh
# Bad input to iomatrix image: one line saying what is missing and how to
# get it, a non-zero exit, and nothing (not even a temporary file) left.
set -u
cd "$(dirname "$0")/../.."
. tests/lib/tap.sh

iomatrix=build/iomatrix
rel=0.0.1-iomatrix-test
tree=$tmp/tree
tests/lib/fake-modules "$tree" "$rel" <tests/lib/appliance-modules.spec
printf 'CONFIG_RD_GZIP=y\n# CONFIG_RD_XZ is not set\n' >"$tmp/gzip-only.config"
out=$tmp/out
mkdir "$out"
nothing_left() { test -z "$(ls -A "$out")"; }
# fails_cleanly NAME PATTERN ARGS...: iomatrix image ARGS fails with PATTERN
# on one stderr line, and leaves nothing in $out.
fails_cleanly() {
	what=$1
	pattern=$2
	shift 2
	fails "$what" "$pattern" $iomatrix image "$@"
	check "$what: one line" test "$(wc -l <"$tmp/stderr")" -eq 1
	check "$what: nothing left" nothing_left
}

fails_cleanly "unknown kernel release" \
	"kernel release 0\.0\.0-none: /lib/modules/0\.0\.0-none not found: install linux-image-0\.0\.0-none" \
	--release 0.0.0-none -o "$out/a.cpio"
fails_cleanly "modules dir missing" "--modules-dir $tmp/nowhere: no such directory" \
	--modules-dir "$tmp/nowhere" -o "$out/a.cpio"
fails_cleanly "modules dir without lib/modules" "has no lib/modules: give the INSTALL_MOD_PATH" \
	--modules-dir "$out" -o "$out/a.cpio"
fails_cleanly "release missing from the tree" "kernel release 9\.9: .* not found: run 'make modules_install" \
	--modules-dir "$tree" --release 9.9 -o "$out/a.cpio"

# a needed module absent from the tree (and not built in)
rm "$tree/lib/modules/$rel/kernel/fs/xfs/xfs.ko.xz"
depmod -b "$tree" "$rel" 2>/dev/null
fails_cleanly "module absent" \
	"module xfs \(for xfs\) not found in .*$rel nor built into the kernel: build the kernel with CONFIG_XFS_FS=m" \
	--modules-dir "$tree" --compress none -o "$out/a.cpio"
rm "$tree/lib/modules/$rel/modules.dep"
fails_cleanly "tree without modules.dep" "modules.dep not found: run depmod" \
	--modules-dir "$tree" --compress none -o "$out/a.cpio"
tests/lib/fake-modules "$tree" "$rel" <tests/lib/appliance-modules.spec

# a tool not installed: a tool path that has every tool but mkfs.xfs
mkdir "$tmp/tools"
for t in busybox mdadm mke2fs mkfs.btrfs wipefs; do
	ln -s "$(PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v $t)" "$tmp/tools/$t"
done
IOMATRIX_TOOL_PATH=$tmp/tools
export IOMATRIX_TOOL_PATH
fails_cleanly "tool not installed" "mkfs\.xfs not found in $tmp/tools: install xfsprogs \(make deps\)" \
	--modules-dir "$tree" --compress none -o "$out/a.cpio"
ln -s "$(PATH=/usr/sbin:/sbin command -v mkfs.xfs)" "$tmp/tools/mkfs.xfs"
rm "$tmp/tools/wipefs"
$iomatrix image --quiet --modules-dir "$tree" --compress none -o "$out/ok.cpio" 2>"$tmp/err"
check "an optional tool missing is a note, not an error" sh -c "
	test -s '$out/ok.cpio' && grep -q 'note: wipefs not found .*optional.*util-linux' '$tmp/err'"
rm -f "$out/ok.cpio"
unset IOMATRIX_TOOL_PATH

fails_cleanly "runner missing" "runner $tmp/no-runner not found: run make" \
	--modules-dir "$tree" --runner "$tmp/no-runner" -o "$out/a.cpio"
fails_cleanly "unknown compression" "--compress lz4: unknown; choose zstd, xz, gzip or none" \
	--modules-dir "$tree" --compress lz4 -o "$out/a.cpio"
fails_cleanly "a compression the kernel cannot unpack" \
	"--compress xz: the kernel cannot unpack it \(CONFIG_RD_XZ is not set in $tmp/gzip-only.config\)" \
	--modules-dir "$tree" --kernel-config "$tmp/gzip-only.config" --compress xz -o "$out/a.cpio"
fails_cleanly "kernel config missing" "$tmp/no.config: No such file or directory" \
	--modules-dir "$tree" --kernel-config "$tmp/no.config" -o "$out/a.cpio"
# the list: a bad line is FILE:LINE and what is wrong, before any kernel is looked at
printf 'dir /tmp 1777\nnod /dev/sda 0600 b 8 0\n' >"$tmp/bad.list"
fails_cleanly "a bad line in the list" \
	"$tmp/bad.list:2: device type 'b': only character devices \(c\) are supported" \
	--list "$tmp/bad.list" --release 0.0.0-none -o "$out/a.cpio"
fails_cleanly "list missing" "$tmp/no.list: No such file or directory" \
	--list "$tmp/no.list" --modules-dir "$tree" -o "$out/a.cpio"
fails_cleanly "data dir missing" "--data-dir $tmp/no-data: not a directory" \
	--modules-dir "$tree" --data-dir "$tmp/no-data" -o "$out/a.cpio"
SOURCE_DATE_EPOCH=yesterday
export SOURCE_DATE_EPOCH
fails_cleanly "bad SOURCE_DATE_EPOCH" "SOURCE_DATE_EPOCH=yesterday: not seconds since 1970" \
	--modules-dir "$tree" -o "$out/a.cpio"
unset SOURCE_DATE_EPOCH
fails "unknown option: exit 2 and usage" "option --frobnicate is unknown" $iomatrix image --frobnicate
check "unknown option: exit status 2" sh -c "$iomatrix image --frobnicate 2>/dev/null; test \$? -eq 2"
check "--help prints the synopsis on stdout" sh -c "
	$iomatrix image --help | head -3 | tr -s ' ' >'$tmp/syn' &&
	printf '%s\n' 'iomatrix image [--release R] [--modules-dir DIR] [--runner PATH] [--data-dir DIR]' \
		' [--list FILE] [--compress zstd|xz|gzip|none] [--kernel-config FILE]' \
		' [-o FILE] [--quiet]' | cmp -s - '$tmp/syn'"

# no kernel config anywhere: said, and gzip (which nearly every kernel reads)
rm "$tree/lib/modules/$rel/build" 2>/dev/null
$iomatrix image --quiet --modules-dir "$tree" -o "$out/g.cpio.gz" 2>"$tmp/err"
check "no kernel config: a note, and gzip" sh -c "
	grep -q 'note: no kernel config found (.*/boot/config-$rel, .*/.config): using gzip' '$tmp/err' &&
	gzip -t '$out/g.cpio.gz'"
rm -f "$out/g.cpio.gz"

# unwritable output
fails_cleanly "output directory missing" "cannot create a file in $tmp/no-dir: No such file or directory" \
	--modules-dir "$tree" -o "$tmp/no-dir/a.cpio"
fails "output in /proc" "cannot create a file in /proc" \
	$iomatrix image --modules-dir "$tree" --compress none -o /proc/iomatrix-test.cpio
fails_cleanly "output is a directory" "$out is a directory: give a file name with -o" \
	--modules-dir "$tree" -o "$out"

# the disk fills while writing: an error, and the temporary file is gone
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
	fails "disk full while writing" "writing the image: No space left on device" unshare -m sh -c "
		mount -t tmpfs -o size=1m none '$out' &&
		$iomatrix image --modules-dir '$tree' --compress none -o '$out/a.cpio' ||
		{ s=\$?; ls -A '$out' >&2; exit \$s; }"
	check "disk full: nothing left" sh -c "! grep -q 'a.cpio' '$tmp/stderr'"
else
	echo "ok - disk full while writing # SKIP needs root for a private tmpfs"
fi

# killed while compressing: the temporary file goes with it
$iomatrix image --quiet --modules-dir "$tree" --compress xz -o "$out/k.cpio.xz" 2>/dev/null &
pid=$!
sleep 2
kill -TERM "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
check "killed: no temporary file left, and no partial image" sh -c "
	! ls '$out' | grep -q tmp- && { test ! -e '$out/k.cpio.xz' || xz -t '$out/k.cpio.xz'; }"
