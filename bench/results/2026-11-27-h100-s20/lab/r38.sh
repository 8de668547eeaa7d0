# Twentieth session: do the walk's blocks lose their fronts when they wait? Hold every block within
# COALESCE_WALK_SYNC steps of the slowest (a global step count polled before each step's loads), in
# the shipped walk (sync) and in the nineteenth session's lean walk (lean: walk_all.patch).
source "$(dirname "$0")/common.sh"
unpack .devrun/s20
PICK='filter_y/fast-walk(-pitched)?'
A="--ops filter_y --variants filter_y/fast-walk --sizes 8000x6000,8192x8192 --radius 64 --reps 20 --warmups 3"
{
step "walk tests, sync 1 / lean sync 2"
COALESCE_WALK_SYNC=1 timeout 60 $X/fast_sync --gtest_filter='*walk*' --gtest_brief=1 2>&1 | tail -2
COALESCE_WALK_SYNC=2 timeout 60 $X/fast_lean --gtest_filter='*walk*' --gtest_brief=1 2>&1 | tail -2
for round in 1 2; do
  one "r$round base" $X/bench_base $A
  for s in 1 2 4; do one "r$round sync $s" COALESCE_WALK_SYNC=$s $X/bench_sync $A; done
  for s in 0 1 2 4; do one "r$round lean sync $s" COALESCE_WALK_SYNC=$s $X/bench_lean $A; done
done
for bd in zero wrap mirror; do
  one "base $bd" $X/bench_base $A --border $bd
  one "sync 2 $bd" COALESCE_WALK_SYNC=2 $X/bench_sync $A --border $bd
  one "lean sync 2 $bd" COALESCE_WALK_SYNC=2 $X/bench_lean $A --border $bd
done
step done
} 2>&1 | tee $OUT/r38.txt
