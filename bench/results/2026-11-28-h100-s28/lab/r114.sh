# Prepared in the twenty-seventh session (copy in ../../2026-11-28-h100-s27/lab/), run as r114 in the twenty-eighth; binaries were in
# the local .devrun/s27g (rebuild: lab/walk_step_times_smid.patch alone for sH; for sT first
# lab/walk_threads_maxnreg.patch with LAB_LOAD_ROWS set to 26, then the smid patch).
# Issue 15, after r113 (the 624-thread walk's blocks drift apart; HEAD's stay within a few us):
# which blocks lag? The same timing builds, now also noting each block's %smid at its end and
# printing block:sm:end for every block with COALESCE_LAB_GRID (lab/walk_step_times_smid.patch;
# blocks 2s and 2s + 1 are strip s's upper and lower runs), for HEAD (sH) and 624 threads (sT),
# 8000x6000 pitched, r = 64. If the laggards sit on the same multiprocessors launch after launch
# (a GPC with more SMs than others shares its path to memory among more blocks), the drift is
# placement, and work per block should follow it; if not, it is the blocks' own dynamics.
# On the device, carry [".devrun/s27g"]: timeout 120 bash bench/results/2026-11-28-h100-s27/lab/r114.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/s27g
{
for arm in sH sT; do
  step "$arm: 8000x6000 pitched, r = 64, clamp"
  COALESCE_LAB_STEPS=1 COALESCE_LAB_GRID=1 timeout 60 $X/bench_$arm --ops filter_y --variants filter_y/fast-walk-pitched \
    --tier tuned --sizes 8000x6000 --radius 64 --reps 20 --warmups 3 2>&1 | grep -E '^(LABGRID|filter_y)'
done
step done
} 2>&1 | tee $OUT/r114.txt
