# Issue 15, twenty-eighth session: where does the walk's time go outside its steps?
# r114 showed HEAD's blocks end 126.5-130 us after the first step 0 while the launch takes
# ~139 us by events. (1) Time against rows at a fixed width, walk and copy kernel: the slope is the
# streaming rate, the intercept the fixed cost. (2) A lab build that notes each block's entry
# (lab/walk_entry_span.patch on top of the s27 smid patch): entry -> step 0 -> last end.
# Binaries: .devrun/s28a (sP = HEAD f156c8b, sE = the lab build).
# On the device, carry [".devrun/s28a"]: timeout 400 bash bench/results/2026-11-28-h100-s28/lab/r115.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/s28a
csvline() {  # variant rows cols median_ms pct copy_ms(derived)
  awk -F, 'NR>1 && $12=="true" {printf "%-30s %6sx%-6s med %.4f ms  %5.1f%%  copy %.4f ms\n", $2, $4, $5, $6, $10, $19/($20*1e6)}' "$1"
}
{
for sz in 8192 6000; do
  if [ $sz = 6000 ]; then S=2000x6000,4000x6000,8000x6000,16000x6000,24000x6000; else S=4096x8192,8192x8192,16384x8192; fi
  step "sP: rows sweep at $sz columns, r = 64"
  timeout 150 $X/bench_sP --ops filter_y,copy --variants filter_y/fast-walk,copy/fast-float4 --sizes $S \
    --radius 64 --reps 30 --warmups 3 --csv $OUT/sweep_$sz.csv > /dev/null 2>&1
  csvline $OUT/sweep_$sz.csv
done
step "sE: 8000x6000 pitched, r = 64 (entry span, every 10th launch)"
COALESCE_LAB_STEPS=1 timeout 60 $X/bench_sE --ops filter_y --variants filter_y/fast-walk-pitched \
  --tier tuned --sizes 8000x6000,8192x8192 --radius 64 --reps 20 --warmups 3 2>&1 | grep -E '^(LAB|filter_y)' | cut -c1-400
step done
} 2>&1 | tee $OUT/r115.txt
