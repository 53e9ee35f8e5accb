#!/bin/sh
# make install into a DESTDIR, then the installed command run from / with
# the tree out of its way: plan, image (real, for the installed Debian
# kernel) and qemu --dry-run find the installed files (lib/dirs.h), not the
# tree's, and write to a per-user work directory, not to build/.
set -u
cd "$(dirname "$0")/../.."
. tests/lib/tap.sh

tree=$PWD
stage=$tmp/stage
prefix=/opt/iomatrix-test
root=$stage$prefix
data=$root/share/iomatrix
make -s install DESTDIR="$stage" PREFIX="$prefix" >"$tmp/install.log" 2>&1
check "make install DESTDIR=... PREFIX=$prefix" test $? -eq 0
sed 's/^/# /' "$tmp/install.log"
iomatrix=$root/bin/iomatrix
check "layout: bin/iomatrix and libexec/iomatrix/iomatrix-runner" \
	test -x "$iomatrix" -a -x "$root/libexec/iomatrix/iomatrix-runner"
check "layout: every matrix, the matrices' README, every job file under share/iomatrix" sh -c "
	cd '$tree' && for f in matrix/*.matrix matrix/README.md configs/jobs/*; do
		cmp -s \"\$f\" '$data/'\"\$f\" || { echo \"# missing or different: \$f\"; exit 1; }; done"
check "layout: every initramfs/*.list under share/iomatrix" sh -c "
	cd '$tree' && for f in initramfs/*.list; do
		[ -e \"\$f\" ] || continue
		cmp -s \"\$f\" '$data/'\"\$f\" || { echo \"# missing or different: \$f\"; exit 1; }; done"
check "the install rule and lib/dirs.h name the same directories" sh -c "
	grep -q '^#define DIRS_DATA *\"share/iomatrix\"' lib/dirs.h &&
	grep -q '^#define DIRS_RUNNER *\"libexec/iomatrix\"' lib/dirs.h &&
	grep -q '^INSTALL_DATA *:= \$(DESTDIR)\$(PREFIX)/share/iomatrix\$' mk/install.mk &&
	grep -q '^INSTALL_RUNNER *:= \$(DESTDIR)\$(PREFIX)/libexec/iomatrix\$' mk/install.mk"

# Mark the installed copies, so using the tree's files instead shows: a
# matrix and a job file the tree lacks, and a runner that differs from the
# tree's by a byte after its end (an ELF runs the same).
cp "$data/matrix/quick.matrix" "$data/matrix/installed-only.matrix"
cp "$data/configs/jobs/dio_read.fio" "$data/configs/jobs/installed-only.fio"
printf '\n' >>"$root/libexec/iomatrix/iomatrix-runner"

# The work directory: the user's cache, nothing of the tree's build/.
home=$tmp/home
work=$home/.cache/iomatrix
mkdir -p "$home"
ls -l --full-time build/image build/qemu >"$tmp/build.before" 2>&1
installed() { (cd / && env -u IOMATRIX_WORK_DIR -u XDG_CACHE_HOME -u IOMATRIX_MATRIX_DIR \
	HOME="$home" "$iomatrix" "$@"); }

installed plan quick >"$tmp/plan" 2>&1
check "plan quick from /: exit 0, the installed matrix" \
	grep -q "^matrix quick ($data/matrix/quick.matrix): 22 cells" "$tmp/plan"
installed plan installed-only --json >"$tmp/plan.json" 2>&1
check "plan finds a matrix only the installed data has, and the installed job files" sh -c "
	grep -q '\"path\" : \"$data/matrix/installed-only.matrix\"' '$tmp/plan.json' &&
	grep -q '\"job_file\" : \"$data/configs/jobs/' '$tmp/plan.json' &&
	! grep -q '$tree/' '$tmp/plan.json'"

# The release the image is built for and booted with, chosen once.
. "$tree/tests/lib/release.sh"
release=$BOOT_RELEASE
installed image --release "$release" --compress zstd >"$tmp/report" 2>"$tmp/notes"
check "image --release $release from /: exit 0" test $? -eq 0
sed 's/^/# /' "$tmp/report" "$tmp/notes"
img=$work/image/initramfs-$release.cpio.zst
check "image lands in ~/.cache/iomatrix/image, as the report says" sh -c "
	test -s '$img' && grep -qx 'iomatrix image: $img' '$tmp/report'"
x=$tmp/x
mkdir "$x"
zstd -dcq "$img" | (cd "$x" && cpio -idm --quiet --no-absolute-filenames -f 'dev/*')
check "the image's /init is the installed runner, not the tree's" sh -c "
	cmp -s '$x/init' '$root/libexec/iomatrix/iomatrix-runner' &&
	! cmp -s '$x/init' '$tree/build/iomatrix-runner'"
check "the image holds the installed matrices and job files" sh -c "
	test -f '$x/etc/iomatrix/matrix/installed-only.matrix' &&
	test -f '$x/etc/iomatrix/jobs/installed-only.fio'"

installed qemu --release "$release" --disks 1 --dry-run >"$tmp/qemu" 2>&1
check "qemu --dry-run from /: exit 0" test $? -eq 0
sed 's/^/# /' "$tmp/qemu" | head -n 3
check "qemu boots the image in the work directory, logs and caches there" sh -c "
	grep -q -- '-initrd $img ' '$tmp/qemu' &&
	grep -q 'logfile=$work/qemu/serial-TIME.log' '$tmp/qemu' &&
	grep -qE -- '-kernel ($work/qemu/vmlinux-[0-9a-f]+|/boot/vmlinuz-$release) ' '$tmp/qemu' &&
	! grep -q '$tree' '$tmp/qemu'"
ls -l --full-time build/image build/qemu >"$tmp/build.after" 2>&1
check "nothing of the tree's build/image or build/qemu changed" cmp -s "$tmp/build.before" "$tmp/build.after"

# The overrides: $XDG_CACHE_HOME, then $IOMATRIX_WORK_DIR over it.
(cd / && env -u IOMATRIX_WORK_DIR HOME="$home" XDG_CACHE_HOME="$tmp/xdg" "$iomatrix" qemu \
	--release "$release" --initrd "$img" --no-pvh --dry-run) >"$tmp/xdg.out" 2>&1
check "\$XDG_CACHE_HOME/iomatrix is the work directory when set" \
	grep -q "logfile=$tmp/xdg/iomatrix/qemu/serial-TIME.log" "$tmp/xdg.out"
(cd / && HOME="$home" XDG_CACHE_HOME="$tmp/xdg" IOMATRIX_WORK_DIR="$tmp/w" "$iomatrix" qemu \
	--release "$release" --no-pvh --dry-run) >"$tmp/w.out" 2>&1
check "\$IOMATRIX_WORK_DIR wins: the image looked for there" \
	grep -q "no image for $release in $tmp/w/image/: run \`$iomatrix image --release $release\`" \
	"$tmp/w.out"
(cd / && IOMATRIX_WORK_DIR=relative/w "$iomatrix" qemu --release "$release" --dry-run) \
	>"$tmp/rel.out" 2>&1
check "a relative \$IOMATRIX_WORK_DIR is refused, not taken from the current directory" \
	sh -c "[ $? -eq 1 ] && grep -q 'IOMATRIX_WORK_DIR=relative/w: not an absolute path' '$tmp/rel.out'"

make -s uninstall DESTDIR="$stage" PREFIX="$prefix" >/dev/null 2>&1
check "make uninstall leaves no file behind" sh -c "test -z \"\$(find '$stage' ! -type d)\""
