# Issue 15: the walk is paced by its sums, so its launch takes about the time to step 0 plus the
# steps' sums (r115: step 0 4.4-6.8 us after the first block's entry). In HEAD the prologue issues
# groups 0 and 1 together, so group 0 lands with both. sG waits for group 0 before issuing group 1
# (lab/walk_group0_first.patch); sGl is sG with the entry/step timing (lab/walk_entry_span.patch),
# sE HEAD with it. Also the launch cost of the walk's launch shape (.devrun/s28d/launch_cost.cu).
# On the device, carry [".devrun/s28e"]: timeout 500 bash bench/results/2026-11-28-h100-s28/lab/r118.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/s28e
PICK='filter_y/fast-walk(-pitched)?'
A="--ops filter_y --variants filter_y/fast-walk --tier tuned --sizes 8000x6000,8192x8192 --radius 64 --reps 30 --warmups 3"
{
step "launch cost"; timeout 60 $X/launch_cost
for round in 1 2 3; do
  for arm in sP sG; do one "round $round $arm" $X/bench_$arm $A; done
done
for b in zero wrap mirror; do
  for arm in sP sG; do one "$b $arm" $X/bench_$arm $A --border $b; done
done
for arm in sE sGl; do
  step "$arm timing, 8000x6000 pitched"
  COALESCE_LAB_STEPS=1 timeout 60 $X/bench_$arm --ops filter_y --variants filter_y/fast-walk-pitched \
    --tier tuned --sizes 8000x6000 --radius 64 --reps 20 --warmups 3 2>&1 | grep -E '^(LAB |LABSPAN|filter_y)' | cut -c1-330
done
step done
} 2>&1 | tee $OUT/r118.txt
