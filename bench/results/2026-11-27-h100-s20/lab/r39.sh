# Twentieth session, second try: the step count polled a step ahead (no round trip on time).
# COALESCE_WALK_SYNC = steps a block may lead the slowest block by; shipped walk (sync), lean walk (lean).
source "$(dirname "$0")/common.sh"
unpack .devrun/s20
PICK='filter_y/fast-walk(-pitched)?'
A="--ops filter_y --variants filter_y/fast-walk --sizes 8000x6000,8192x8192 --radius 64 --reps 20 --warmups 3"
{
step "walk tests, sync 2 / lean sync 2"
COALESCE_WALK_SYNC=2 timeout 60 $X/fast_sync --gtest_filter='*walk*' --gtest_brief=1 2>&1 | tail -2
COALESCE_WALK_SYNC=2 timeout 60 $X/fast_lean --gtest_filter='*walk*' --gtest_brief=1 2>&1 | tail -2
for round in 1 2; do
  one "r$round base" $X/bench_base $A
  for s in 2 4; do one "r$round sync $s" COALESCE_WALK_SYNC=$s $X/bench_sync $A; done
  for s in 0 2 4; do one "r$round lean sync $s" COALESCE_WALK_SYNC=$s $X/bench_lean $A; done
done
step done
} 2>&1 | tee $OUT/r39.txt
