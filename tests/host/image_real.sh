#!/bin/sh
# The image for the installed Debian kernel: what is in it, its size, the
# tools running from it with only its libraries, the module load order, and
# byte-identical rebuilds.
set -u
cd "$(dirname "$0")/../.."
. tests/lib/tap.sh

iomatrix=build/iomatrix
a=$tmp/a.cpio.zst
$iomatrix image -o "$a" >"$tmp/report" 2>"$tmp/notes"
check "image builds for the installed kernel" test -s "$a"
sed 's/^/# /' "$tmp/report" "$tmp/notes"
release=$(sed -n 's/^  kernel \([^ ,]*\),.*/\1/p' "$tmp/report")
check "report names the kernel, zstd and every part" sh -c "
	test -n '$release' && grep -q 'zstd -19' '$tmp/report' &&
	for p in runner tools libraries modules data layout total; do
		grep -q \"^  \$p \" '$tmp/report' || exit 1; done"
size=$(stat -c %s "$a")
check "image is at most 8 MiB ($size bytes)" test "$size" -le $((8 * 1024 * 1024))

zstd -dcq "$a" >"$tmp/a.cpio"
cpio -itv --quiet <"$tmp/a.cpio" >"$tmp/list"
check "layout: /init, busybox and sh" sh -c "
	grep -qE '^-rwxr-xr-x .* init$' '$tmp/list' &&
	grep -qE ' bin/busybox$' '$tmp/list' && grep -qE ' bin/sh -> busybox$' '$tmp/list'"
check "layout: tools and links" sh -c "
	for t in mdadm mke2fs mkfs.xfs mkfs.btrfs wipefs; do
		grep -qE \"^-rwxr-xr-x .* sbin/\$t\$\" '$tmp/list' || exit 1; done
	for l in ext2 ext3 ext4; do
		grep -qE \"sbin/mkfs.\$l -> mke2fs\$\" '$tmp/list' || exit 1; done
	grep -qE ' etc/mke2fs.conf$' '$tmp/list'"
check "layout: device nodes written in the archive" sh -c "
	grep -qE '^crw------- .* 5, *1 .* dev/console$' '$tmp/list' &&
	grep -qE '^crw-rw-rw- .* 1, *3 .* dev/null$' '$tmp/list'"
check "layout: empty directories" sh -c "
	for d in proc sys dev run mnt etc/iomatrix; do
		grep -qE \"^d.* \$d\$\" '$tmp/list' || exit 1; done
	grep -qE '^drwxrwxrwt .* tmp$' '$tmp/list' &&
	grep -qE ' etc/mtab -> /proc/self/mounts$' '$tmp/list'"
check "owners root, mtime 0, no hard links" sh -c "
	! grep -vE '^[-dlc][rwxsStT-]{9} +[12] root +root .* Jan  1  1970 ' '$tmp/list'"

x=$tmp/x
mkdir "$x"
(cd "$x" && cpio -idm --quiet --no-absolute-filenames -f 'dev/*' <"$tmp/a.cpio")
conf=$x/etc/iomatrix/image.conf
check "image.conf holds the contract's keys" sh -c "
	grep -qx 'release=$release' '$conf' && grep -qx 'compress=zstd' '$conf' &&
	grep -qxE 'modules=[0-9]+' '$conf' && grep -qx 'built_by=iomatrix image' '$conf'"

load=$x/lib/modules/$release/modules.load
grep -v '^#' "$load" >"$tmp/load"
n=$(sed -n 's/^modules=//p' "$conf")
check "modules.load lists modules=$n modules, each once" sh -c "
	test \$(wc -l <'$tmp/load') -eq $n &&
	test \$(cut -d' ' -f1 '$tmp/load' | sort -u | wc -l) -eq $n"
check "every listed module is a plain ELF .ko in the image" sh -c "
	while read -r name path params; do
		case \$path in /lib/modules/$release/*.ko) ;; *) exit 1 ;; esac
		test \"\$(head -c4 '$x'\$path | od -An -c | tr -d ' ')\" = '177ELF' || exit 1
	done <'$tmp/load'"
check "the appliance's modules and soft dependencies are listed" sh -c "
	for m in virtio_pci virtio_blk md_mod raid0 raid1 raid10 raid456 linear ext4 xfs \
		btrfs crc32c_generic xxhash_generic blake2b_generic; do
		grep -q \"^\$m \" '$tmp/load' || { echo \"# missing \$m\"; exit 1; }; done"
# Each module's dependencies, as the kernel's own modules.dep lists them, come first.
moddep=/lib/modules/$release/modules.dep
cat >"$tmp/order.awk" <<'AWK'
function base(p) { sub(/.*\//, "", p); sub(/\.ko.*/, "", p); gsub(/-/, "_", p); return p }
BEGIN {
	while ((getline line < moddep) > 0) {
		split(line, f, ":")
		deps[base(f[1])] = f[2]
	}
}
{ pos[$1] = NR; order[NR] = $1 }
END {
	bad = 0
	for (i = 1; i <= NR; i++) {
		k = split(deps[order[i]], d, " ")
		for (j = 1; j <= k; j++) {
			b = base(d[j])
			if (!(b in pos) || pos[b] > i) {
				print "# " order[i] " comes before its dependency " b
				bad = 1
			}
		}
	}
	exit bad
}
AWK
check "load order respects modules.dep" awk -v moddep="$moddep" -f "$tmp/order.awk" "$tmp/load"
pos() { grep -n "^$1 " "$tmp/load" | cut -d: -f1; }
check "pre soft dependencies come first" sh -c "
	test $(pos xxhash_generic) -lt $(pos btrfs) && test $(pos blake2b_generic) -lt $(pos btrfs) &&
	test $(pos crc32c_generic) -lt $(pos libcrc32c) && test $(pos crc32c_generic) -lt $(pos ext4)"

# The tools run with nothing but the image's files: chroot when root, else
# through the image's own loader and library directory.
if [ "$(id -u)" = 0 ]; then
	run() { chroot "$x" "$@"; }
else
	run() {
		p=$1
		shift
		"$x/lib64/ld-linux-x86-64.so.2" --inhibit-cache \
			--library-path "$x/lib/x86_64-linux-gnu" "$x$p" "$@"
	}
fi
quietly() { "$@" >/dev/null 2>&1; }
for t in "/sbin/mdadm --version" "/sbin/mke2fs -V" "/sbin/mkfs.xfs -V" \
	"/sbin/mkfs.btrfs --version" "/sbin/wipefs --version" "/bin/sh -c true"; do
	# shellcheck disable=SC2086
	check "runs from the image: $t" quietly run $t
done
# Making filesystems, with /proc mounted as PID 1 mounts it, in a private
# mount namespace so nothing is left mounted.
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
	truncate -s 320M "$x/tmp/xfs.img"
	truncate -s 128M "$x/tmp/fs.img"
	for t in "mkfs.ext4 -q -F /tmp/fs.img" "mkfs.xfs -q -f /tmp/xfs.img" \
		"mkfs.btrfs -q -f /tmp/fs.img"; do
		check "makes a filesystem in the image: $t" quietly unshare -m sh -c "
			mount -t proc proc '$x/proc' && chroot '$x' /sbin/$t"
	done
	rm -f "$x/tmp/xfs.img" "$x/tmp/fs.img"
fi

b=$tmp/b.cpio.zst
$iomatrix image --quiet -o "$b" 2>/dev/null
check "a second build is byte-identical" cmp -s "$a" "$b"
SOURCE_DATE_EPOCH=1700000000 $iomatrix image --quiet --compress none -o "$tmp/c.cpio" 2>/dev/null
SOURCE_DATE_EPOCH=1700000000 $iomatrix image --quiet --compress none -o "$tmp/d.cpio" 2>/dev/null
check "SOURCE_DATE_EPOCH: identical again, only the mtimes differ" sh -c "
	cmp -s '$tmp/c.cpio' '$tmp/d.cpio' && ! cmp -s '$tmp/c.cpio' '$tmp/a.cpio' &&
	test \$(stat -c %s '$tmp/c.cpio') -eq \$(stat -c %s '$tmp/a.cpio') &&
	cpio -itv --quiet <'$tmp/c.cpio' | grep -q ' Nov 14  2023 init$'"
