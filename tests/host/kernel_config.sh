#!/bin/sh
# configs/kernel.config names real symbols: each one is set as the fragment
# says (=y or =m; =m is also met by =y) in the installed kernel's config,
# which boots the appliance in the boot test.
set -u
cd "$(dirname "$0")/../.."
fragment=configs/kernel.config
release=$(ls /lib/modules | sort -V | while read -r r; do
	[ -e "/boot/config-$r" ] && echo "$r"; done | tail -n 1)
if [ -z "$release" ]; then
	echo "not ok - no /boot/config-R for an installed kernel: make deps"
	exit 1
fi
config=/boot/config-$release
failed=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		sym=${line%%=*}
		want=${line#*=}
		have=$(grep "^$sym=" "$config" | cut -d= -f2)
		case "$want:$have" in
		y:y | m:m | m:y) echo "ok - $sym=$want ($have in $release)" ;;
		*) echo "not ok - $sym=$want, but $release has '${have:-not set}'"; failed=1 ;;
		esac ;;
	"# CONFIG_"*" is not set")
		sym=${line#\# }
		sym=${sym%% *}
		if grep -q "^$sym=y" "$config"; then
			echo "not ok - $sym should be off, $release has it"
			failed=1
		else
			echo "ok - $sym off"
		fi ;;
	esac
done <"$fragment"
exit $failed
