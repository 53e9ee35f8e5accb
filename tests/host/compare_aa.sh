#!/bin/sh
# A/A: two result sets with the same truth and independent noise (log-normal,
# CV 3-10 % per cell) must flag nothing across a few hundred cells at the
# default thresholds, with 3 and with 5 repeats, nor with --adjust holm.
# Each set is one boot whose noise is all in its repeats (no boot effect), so
# the repeat is the unit here (--unit repeat); compare_runs.sh tests boots.
. "$(dirname "$0")/lib/compare.sh"

total_flagged=0 total_cells=0 runs=0
for n in 3 5; do
	for seed in 1 2 3 4 5; do
		"$GEN" "$WORK/a" --seed $((seed * 2)) --repeats $n
		"$GEN" "$WORK/b" --seed $((seed * 2 + 1)) --repeats $n
		for adjust in bh holm; do
			compare_csv "$WORK/out.csv" --unit repeat "$WORK/a" "$WORK/b" --adjust $adjust || exit 1
			flagged=$(flagged_cells "$WORK/out.csv" | wc -l)
			cells=$(cells "$WORK/out.csv")
			total_flagged=$((total_flagged + flagged)) total_cells=$((total_cells + cells))
			runs=$((runs + 1))
			if [ "$flagged" -eq 0 ] && [ "$cells" -ge 200 ]; then
				echo "ok - A/A n=$n seed $seed --adjust $adjust: 0 of $cells cells flagged"
			else
				echo "not ok - A/A n=$n seed $seed --adjust $adjust: $flagged of $cells cells flagged"
				flagged_cells "$WORK/out.csv" | sed 's/^/# /'
			fi
		done
		rm -rf "$WORK/a" "$WORK/b"
	done
done
echo "# A/A false alarms: $total_flagged flagged of $total_cells cells over $runs comparisons"

# The verdict line comes first and counts every cell as unchanged.
"$GEN" "$WORK/a" --profile seed002 --seed 1
"$GEN" "$WORK/b" --profile seed002 --seed 2
"$IOM" compare --unit repeat "$WORK/a" "$WORK/b" >"$WORK/out.txt"
first=$(head -n 1 "$WORK/out.txt")
if [ "$first" = "verdict: 0 cells better, 0 worse, 45 unchanged, 0 not comparable" ]; then
	echo "ok - the first line is the verdict: $first"
else
	echo "not ok - the first line is the verdict, got: $first"
fi
