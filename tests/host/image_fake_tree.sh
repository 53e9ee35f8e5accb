#!/bin/sh
# The image for a kernel's own 'make modules_install' tree (--modules-dir):
# compressed modules come out plain, the config under the tree decides the
# compression and ext2, soft dependencies load first, data files come along.
set -u
cd "$(dirname "$0")/../.."
. tests/lib/tap.sh

iomatrix=$(pwd)/build/iomatrix
rel=0.0.1-iomatrix-test
tree=$tmp/tree
tests/lib/fake-modules "$tree" "$rel" <tests/lib/appliance-modules.spec
# as modules_install leaves it: lib/modules/R/build points at the build tree
mkdir -p "$tmp/kbuild"
printf 'CONFIG_RD_GZIP=y\nCONFIG_RD_XZ=y\n# CONFIG_RD_ZSTD is not set\nCONFIG_EXT2_FS=m\n# CONFIG_EXT3_FS is not set\nCONFIG_EXT4_USE_FOR_EXT2=y\n' \
	>"$tmp/kbuild/.config"
ln -s "$tmp/kbuild" "$tree/lib/modules/$rel/build"
mkdir -p "$tmp/proj/matrix" "$tmp/proj/configs/jobs"
echo '[quick]' >"$tmp/proj/matrix/quick.matrix"
echo '[job]' >"$tmp/proj/configs/jobs/randread.fio"
echo 'not a job' >"$tmp/proj/configs/jobs/README"

# no --release (the tree holds one), no -o: the default name beside the binary
out=build/image/initramfs-$rel.cpio.xz
rm -f "$out"
$iomatrix image --modules-dir "$tree" --data-dir "$tmp/proj" >"$tmp/report" 2>"$tmp/notes"
check "builds from a modules_install tree, xz as its config allows, default name" test -s "$out"
mv "$out" "$tmp/img.cpio.xz"
sed 's/^/# /' "$tmp/report" "$tmp/notes"
check "config found through lib/modules/R/build" grep -q "config $tmp/tree/lib/modules/$rel/build/.config" "$tmp/report"
check "ext3 served by ext4 is said" grep -q 'ext3: mounted by ext4' "$tmp/report"
check "a built-in module is named as such" grep -q 'built into the kernel: loop$' "$tmp/report"
check "a missing optional module is a note" grep -q 'note: module i6300esb not in .*optional' "$tmp/notes"

xz -dc "$tmp/img.cpio.xz" >"$tmp/img.cpio"
x=$tmp/x
mkdir "$x"
(cd "$x" && cpio -idm --quiet --no-absolute-filenames -f 'dev/*' <"$tmp/img.cpio")
grep -v '^#' "$x/lib/modules/$rel/modules.load" >"$tmp/load"
check "compressed modules are in the image as the plain .ko" sh -c "
	n=0
	while read -r name path params; do
		rel_path=\${path#/lib/modules/$rel/}
		cmp -s '$x'\$path '$tree/plain/'\$rel_path || { echo \"# differs: \$path\"; exit 1; }
		n=\$((n + 1))
	done <'$tmp/load'
	test \$n -eq 30"
check "ext2 is a module here, so it is in" grep -q '^ext2 ' "$tmp/load"
pos() { grep -n "^$1 " "$tmp/load" | cut -d: -f1; }
check "soft dependencies before, from every modules.softdep line" sh -c "
	test $(pos blake2b_generic) -lt $(pos btrfs) && test $(pos xxhash_generic) -lt $(pos btrfs) &&
	test $(pos crc32c_generic) -lt $(pos libcrc32c) && test $(pos libcrc32c) -lt $(pos xfs)"
check "matrix and job files go to /etc/iomatrix" sh -c "
	test -f '$x/etc/iomatrix/matrix/quick.matrix' && test -f '$x/etc/iomatrix/jobs/randread.fio' &&
	test ! -e '$x/etc/iomatrix/jobs/README'"
check "image.conf says xz and the module count" sh -c "
	grep -qx compress=xz '$x/etc/iomatrix/image.conf' &&
	grep -qx modules=30 '$x/etc/iomatrix/image.conf'"

# a list of one's own (--list): just what it names, a file beside it, options for a module
mkdir "$tmp/mylist"
echo 'hello' >"$tmp/mylist/motd"
cat >"$tmp/mylist/my.list" <<'EOF'
# a small appliance
dir	/srv/x	0700	# before its parent: still its own mode, and the parent's
dir	/srv	0750
dir	/tmp	1777
nod	/dev/null	0666 c 1 3
tool	/bin/busybox	busybox-static	"a shell"
slink	/bin/sh	busybox
slink	/bin/mdadm	../sbin/mdadm	# to a tool not in the list: kept, as layout
tool	/sbin/wipefs	util-linux	"wiping"	optional
slink	/bin/wipefs	../sbin/./wipefs	# to a tool left out: left out
file	/etc/motd	motd	0600
module	md	raid0	CONFIG_MD_RAID0	"md RAID0"
options	md-mod	start_dirty_degraded=1
EOF
mkdir "$tmp/mytools"	# busybox, but no wipefs
ln -s "$(PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v busybox)" "$tmp/mytools/busybox"
IOMATRIX_TOOL_PATH=$tmp/mytools $iomatrix image --quiet --list "$tmp/mylist/my.list" \
	--modules-dir "$tree" --data-dir "$tmp/mylist" --compress none -o "$tmp/my.cpio" 2>"$tmp/notes"
cpio -t --quiet <"$tmp/my.cpio" | sort >"$tmp/my.t"
sed 's/^/# /' "$tmp/notes"
check "--list: the optional tool left out is a note" grep -q 'note: wipefs not found .*optional, for wiping' "$tmp/notes"
check "--list: the image holds what the list names, and no more" sh -c "
	grep -v '^lib' '$tmp/my.t' | tr '\n' ' ' | grep -qx 'bin bin/busybox bin/mdadm bin/sh dev dev/null etc etc/iomatrix etc/iomatrix/image.conf etc/motd init srv srv/x tmp '"
mkdir "$tmp/myx"
(cd "$tmp/myx" && cpio -idm --quiet --no-absolute-filenames -f 'dev/*' <"$tmp/my.cpio")
check "--list: the file beside the list, and the modes the list gives" sh -c "
	grep -qx hello '$tmp/myx/etc/motd' && test \$(stat -c %a '$tmp/myx/etc/motd') = 600 &&
	test \$(stat -c %a '$tmp/myx/tmp') = 1777 && test \$(stat -c %a '$tmp/myx/srv') = 750 &&
	test \$(stat -c %a '$tmp/myx/srv/x') = 700"
check "--list: a module with its dependency, and the options for it" sh -c "
	grep -v '^#' '$tmp/myx/lib/modules/$rel/modules.load' | cut -d' ' -f1,3 | tr '\n' ' ' |
		grep -qx 'md_mod start_dirty_degraded=1 raid0 '"

# a second release in the tree: the choice must be said
mkdir -p "$tree/lib/modules/0.0.2-other"
fails "two releases in the tree need --release" "holds 2 releases .*--release" \
	$iomatrix image --modules-dir "$tree" -o "$tmp/two.cpio"
check "... and nothing was written" test ! -e "$tmp/two.cpio"
check "--release picks one of them" $iomatrix image --quiet --modules-dir "$tree" \
	--release "$rel" --compress none -o "$tmp/one.cpio" 2>/dev/null
