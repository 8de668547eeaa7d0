# Prepared in the twentieth session for the next: each step checks the count polled two steps
# before (slack >= 3), or only every COALESCE_WALK_SYNC_EVERY steps; the control runs the sync
# build with the sync off. Run from the repo root with carry [".devrun"]:
#   timeout 300 bash bench/results/2026-11-27-h100-s20/lab/r40.sh
source "$(dirname "$0")/common.sh"
unpack .devrun/next21
PICK='filter_y/fast-walk(-pitched)?'
A="--ops filter_y --variants filter_y/fast-walk --sizes 8000x6000,8192x8192 --radius 64 --reps 20 --warmups 3"
{
step "walk tests, lean sync 3"
COALESCE_WALK_SYNC=3 timeout 60 $X/fast_lean --gtest_filter='*walk*' --gtest_brief=1 2>&1 | tail -1
one "base" $X/bench_base $A
one "sync 0 (the sync code, not used)" COALESCE_WALK_SYNC=0 $X/bench_sync $A
one "sync 3" COALESCE_WALK_SYNC=3 $X/bench_sync $A
one "lean sync 3" COALESCE_WALK_SYNC=3 $X/bench_lean $A
one "lean sync 5" COALESCE_WALK_SYNC=5 $X/bench_lean $A
one "sync 5" COALESCE_WALK_SYNC=5 $X/bench_sync $A
one "lean sync 3 every 4" COALESCE_WALK_SYNC=3 COALESCE_WALK_SYNC_EVERY=4 $X/bench_lean $A
one "sync 3 every 4" COALESCE_WALK_SYNC=3 COALESCE_WALK_SYNC_EVERY=4 $X/bench_sync $A
one "base (again)" $X/bench_base $A
one "lean sync 3 (again)" COALESCE_WALK_SYNC=3 $X/bench_lean $A
step done
} 2>&1 | tee $OUT/r40.txt
