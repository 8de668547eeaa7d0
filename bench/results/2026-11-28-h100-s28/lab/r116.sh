# Issue 15: the walk's marginal cost per row grows with its run (r115: per 4000 rows at 6000
# columns 63.6 / 64.9 / 67.0 / 69.9 us for runs of 1000-2000 / 2000-4000 / 4000-8000 /
# 8000-12000 rows, the copy kernel 64-65). So: the same walk in W waves of W-times shorter runs
# (lab/walk_waves.patch, COALESCE_LAB_WAVES=W; with COALESCE_LAB_WAVE_ORDER each wave keeps two
# fronts, wave w taking part f*W + w of front f; without it, blocks take runs in strip order).
# Binaries .devrun/s28b: sP = HEAD f156c8b, sW = the waves build.
# On the device, carry [".devrun/s28b"]: timeout 500 bash bench/results/2026-11-28-h100-s28/lab/r116.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/s28b
A="--ops filter_y --variants filter_y/fast-walk --tier tuned --sizes 8000x6000,8192x8192 --radius 64 --reps 30 --warmups 3"
{
for round in 1 2; do
  one "round $round HEAD" $X/bench_sP $A
  one "round $round W=1 (sW build)" $X/bench_sW $A
  one "round $round W=2 strip order" COALESCE_LAB_WAVES=2 $X/bench_sW $A
  one "round $round W=2 wave order" COALESCE_LAB_WAVES=2 COALESCE_LAB_WAVE_ORDER=1 $X/bench_sW $A
  one "round $round W=3 wave order" COALESCE_LAB_WAVES=3 COALESCE_LAB_WAVE_ORDER=1 $X/bench_sW $A
  one "round $round W=4 wave order" COALESCE_LAB_WAVES=4 COALESCE_LAB_WAVE_ORDER=1 $X/bench_sW $A
done
for b in zero wrap mirror; do
  one "$b HEAD" $X/bench_sP $A --border $b
  one "$b W=2 wave order" COALESCE_LAB_WAVES=2 COALESCE_LAB_WAVE_ORDER=1 $X/bench_sW $A --border $b
done
step done
} 2>&1 | tee $OUT/r116.txt
