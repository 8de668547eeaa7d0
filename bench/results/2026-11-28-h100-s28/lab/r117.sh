# Issue 15: cache hints on the f32 walk (8000x6000 and 8192x8192, r = 64). sP = HEAD f156c8b;
# sA = streaming stores (__stcs, lab/walk_stcs.patch); sB256 / sB128 = cp.async with an L2
# prefetch-size hint (lab/walk_prefetch_256.patch / _128.patch; fast_running.cuh, so every
# kernel using copy16_async has it). Binaries .devrun/s28c.
# On the device, carry [".devrun/s28c"]: timeout 500 bash bench/results/2026-11-28-h100-s28/lab/r117.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/s28c
PICK='filter_y/fast-walk(-pitched)?'
A="--ops filter_y --variants filter_y/fast-walk --tier tuned --sizes 8000x6000,8192x8192 --radius 64 --reps 30 --warmups 3"
{
for round in 1 2 3; do
  for arm in sP sA sB256 sB128; do one "round $round $arm" $X/bench_$arm $A; done
done
for arm in sP sA sB256 sB128; do one "wrap $arm" $X/bench_$arm $A --border wrap; done
step done
} 2>&1 | tee $OUT/r117.txt
