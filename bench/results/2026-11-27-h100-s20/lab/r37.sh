# Twentieth session: filter Y's walk with more fronts, so that every multiprocessor walks (issue 15).
source "$(dirname "$0")/common.sh"
unpack .devrun/s20
PICK='filter_y/fast-walk(-pitched)?'
A="--ops filter_y --variants filter_y/fast-walk --sizes 8000x6000,8192x8192 --radius 64 --reps 20 --warmups 3"
{
step "walk tests with 64 fronts"
COALESCE_WALK_FRONTS=64 timeout 150 $X/fast_fr --gtest_filter='*walk*' --gtest_brief=1 2>&1 | tail -3
for round in 1 2 3; do
  one "r$round base" $X/bench_base $A
  one "r$round F64" COALESCE_WALK_FRONTS=64 $X/bench_fr $A
  one "r$round F64 L32" COALESCE_WALK_FRONTS=64 COALESCE_WALK_LANES=32 $X/bench_fr $A
  one "r$round F64 L16" COALESCE_WALK_FRONTS=64 COALESCE_WALK_LANES=16 $X/bench_fr $A
  one "r$round F24 L24" COALESCE_WALK_FRONTS=24 COALESCE_WALK_LANES=24 $X/bench_fr $A
done
for bd in zero wrap mirror; do
  one "base $bd" $X/bench_base $A --border $bd
  one "F64 $bd" COALESCE_WALK_FRONTS=64 $X/bench_fr $A --border $bd
done
step done
} 2>&1 | tee $OUT/r37.txt
