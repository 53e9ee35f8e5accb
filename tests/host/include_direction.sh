#!/bin/sh
# Every #include runs with the flow (tests/lib/include-direction), and the
# check fails when one does not: each kind of include against the flow is
# put into a copy of the tree and must be named, file and line.
. "$(dirname "$0")/lib/common.sh"
check=tests/lib/include-direction

"$check" . >"$T/tree.out"
rc=$?
sed 's/^/# /' "$T/tree.out"
check "the tree's includes all run with the flow" [ "$rc" -eq 0 ]

# against: the file that gets the include, the header, what the check must say
while read -r file header says; do
	rm -rf "$T/copy" && mkdir "$T/copy"
	for stage in lib matrix records compare initramfs qemu runner host; do
		cp -r "$stage" "$T/copy/"
	done
	printf '#include "%s"\n' "$header" >>"$T/copy/$file"
	line=$(wc -l <"$T/copy/$file")
	"$check" "$T/copy" >"$T/bad.out"
	rc=$?
	check "$file including $header fails, naming $file:$line" \
		sh -c '[ "$1" -ne 0 ] && grep -q "^#   $2:$3: $4" "$5"' - "$rc" "$file" "$line" "$says" \
		"$T/bad.out"
done <<'LIST'
lib/ini.c matrix/matrix.h lib includes matrix
matrix/matrix.c records/results_log.h matrix includes records
records/serial_frame.c runner/console.h records includes runner/\*
runner/run/matrix_run.c compare/compare.h runner/run includes compare
runner/appliance.c initramfs/image_build.h runner/\* includes initramfs
runner/engine/worker.c runner/run/record.h runner/engine includes runner/run
runner/results/resume.c runner/run/matrix_run.h runner/results includes runner/run
runner/setup/fs.c runner/engine/engine.h runner/setup includes runner/engine
records/gpt.c qemu/qemu_log.h records includes qemu
compare/compare.c qemu/qemu_log.h compare includes qemu
lib/units.c units.h "units.h" is not a path from the top
LIST
