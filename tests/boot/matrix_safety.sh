#!/bin/sh
# Boot test: disks are precious. A disk holding an ext4 filesystem with
# known content (made on the host with mkfs.ext4 -d) is passed to the guest
# beside three scratch disks, twice:
#   1. not named in iomatrix.disks (the default takes only the scratch
#      disks, serials iomatrix-disk*): it is not used, the cells run on the
#      other three;
#   2. named in iomatrix.disks without iomatrix.wipe: it is refused, the
#      jbod cell runs on the two other named disks and the raid5 cell,
#      which would need it, is recorded skipped with the reason.
# The whole file's checksum is the same before and after.
#
# BOOT_IMAGE=FILE boots that image instead of building one.
set -u
cd "$(dirname "$0")/../.."
. tests/lib/boot.sh
boot_work build/test-boot-safety
mkdir -p "$work/content"
boot_image "iomatrix image builds"

echo "precious data, do not touch" >"$work/content/README"
head -c 1048576 /dev/urandom >"$work/content/random.bin"
truncate -s 256M "$work/precious.img"
mkfs.ext4 -q -F -d "$work/content" "$work/precious.img" || exit 1
before=$(sha256sum <"$work/precious.img")

# quick's cells 3 (jbod ext4 dd) and 15 (raid5 ext4 dd)
boot() { # boot NAME APPEND: exit status in $rc, serial log $work/NAME.log, set $work/NAME
	build/iomatrix qemu --release "$BOOT_RELEASE" --initrd "$initrd" --accel tcg --quiet --disks 3 --disk-size 1G \
		--disk "$work/precious.img" --append "iomatrix.cells=3,15 $2" \
		--serial-log "$work/$1.log" --timeout 600 >"$work/$1.out" 2>&1
	rc=$?
	build/iomatrix extract "$work/$1.log" -o "$work/$1" >"$work/$1.extract" 2>&1
	sed 's/^/# /' "$work/$1.out"
}
# The guest's name of the passed disk, from the disk list.
pass_name() {
	tr -d '\r' <"$1" | sed -n 's/^iomatrix: disk \([a-z0-9]*\): .* serial="iomatrix-pass0"$/\1/p'

}
record() { # record SET CELL JQ: the JQ expression on the record of that cell
	jq -r "select(.cell.index == $2) | $3" "$work/$1"/records/*.json
}

boot unnamed ""
log=$work/unnamed.log
p=$(pass_name "$log")
check "unnamed: exit 0" [ "$rc" -eq 0 ]
check "unnamed: the passed disk is listed ($p)" [ -n "$p" ]
check "unnamed: the passed disk is not used, and why" \
	has "$log" "^iomatrix: disk $p: not used: its serial does not start with iomatrix-disk"
check "unnamed: three disks used" has "$log" '^iomatrix: disks: using 3: '
check "unnamed: jbod ran on the three scratch disks" \
	[ "$(record unnamed 3 '[.status, (.disks | map(.serial) | join(","))] | join(" ")')" = \
	  "ok iomatrix-disk0,iomatrix-disk1,iomatrix-disk2" ]
check "unnamed: raid5 ran on them too" [ "$(record unnamed 15 .status)" = ok ]
check "unnamed: the file is unchanged" [ "$(sha256sum <"$work/precious.img")" = "$before" ]

boot named "iomatrix.disks=iomatrix-disk0,iomatrix-disk1,iomatrix-pass0"
log=$work/named.log
p=$(pass_name "$log")
check "named: exit 0" [ "$rc" -eq 0 ]
check "named: the passed disk is refused for its filesystem" \
	has "$log" "^iomatrix: disk $p: refused: holds data: ext2/3/4 filesystem (iomatrix.wipe=1 allows destroying it)"
check "named: the disk not named is not used" \
	has "$log" '^iomatrix: disk [a-z0-9]*: not used: not named in iomatrix.disks'
check "named: two disks used" has "$log" '^iomatrix: disks: using 2: '
check "named: jbod ran on the two other named disks" \
	[ "$(record named 3 '[.status, (.disks | map(.serial) | join(","))] | join(" ")')" = \
	  "ok iomatrix-disk0,iomatrix-disk1" ]
check "named: raid5 skipped, saying why" \
	[ "$(record named 15 '[.status, .error] | join(": ")')" = \
	  "skipped: raid5 needs 3 disks, 2 given (refused: $p: holds data: ext2/3/4 filesystem (iomatrix.wipe=1 allows destroying it))" ]
check "named: the skip is on the console" \
	has "$log" "^iomatrix: cell \[#15\] array=raid5 fs=ext4 workload=dd: skipped: raid5 needs 3 disks, 2 given (refused: $p: "
check "named: the file is unchanged" [ "$(sha256sum <"$work/precious.img")" = "$before" ]
for set in unnamed named; do
	check "$set: every record is complete" tests/lib/check-records "$work/$set" >"$work/$set.check"
	check "$set: no record names the passed disk" \
		sh -c "! jq -r '.disks[]?.serial' $work/$set/records/*.json | grep -q iomatrix-pass"
done
