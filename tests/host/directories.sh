#!/bin/sh
# directory=a:b with numjobs spreads generated files over the directories as fio does
# (clone i in directory i % n; a filename= goes to the first directory).
. "$(dirname "$0")/lib/common.sh"
cd "$T" || exit 1
for who in fio ours; do
	mkdir -p "$who/da" "$who/db"
	(cd "$who" && if [ $who = fio ]; then prog=fio; else prog=$R; fi &&
		$prog --name=w --directory=da:db --numjobs=4 --nrfiles=2 --size=64k --rw=write \
			--bs=4k --output-format=json --output=../$who.json >/dev/null 2>&1 &&
		$prog --name=f --directory=da:db --numjobs=3 --size=64k --rw=write --bs=4k \
			--filename=fixed --output-format=json --output=../$who.f.json >/dev/null 2>&1)
	(cd "$who" && find da db -type f | sort) >"$who.list"
done
check "same files in the same directories as fio: $(tr '\n' ' ' <ours.list)" cmp -s fio.list ours.list
