# The kernel release a test builds its image for and boots, chosen once.
# Source it; it sets and exports $BOOT_RELEASE, or prints "not ok" and exits.
#
# iomatrix image and iomatrix qemu each default to the newest release in
# /lib/modules with a /boot/vmlinuz-R, looked up when each runs: a kernel
# installed while the tests ran changed that between a test's image build
# and its boot, and the appliance booted a kernel its modules were not for.
# So a test names this release to both (--release "$BOOT_RELEASE"). Taken
# from the environment when set (exported: the tests a test starts, and a
# caller pinning one for a whole run, see the same).
if [ -z "${BOOT_RELEASE:-}" ]; then
	BOOT_RELEASE=$(ls /lib/modules 2>/dev/null | sort -V | while read -r r; do
		[ -e "/boot/vmlinuz-$r" ] && echo "$r"; done | tail -n 1)
fi
if [ -z "$BOOT_RELEASE" ]; then
	echo "not ok - no installed kernel (/lib/modules/R with /boot/vmlinuz-R): make deps"
	exit 1
fi
export BOOT_RELEASE
echo "# kernel release: $BOOT_RELEASE"
