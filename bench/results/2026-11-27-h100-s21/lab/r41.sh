# Twenty-first session: a second band of rows at the bottom of every strip for the blocks two
# fronts leave idle (walk_runs::plan_bands). COALESCE_WALK_TAIL forces the band's height (-1: one
# band, the old plan on the new code). Run from the repo root with carry [".devrun/next22",
# ".devrun/bin"]: timeout 300 bash bench/results/2026-11-27-h100-s21/lab/r41.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/next22
PICK='filter_y/fast-walk(-pitched)?'
A="--ops filter_y --variants filter_y/fast-walk --sizes 8000x6000,8192x8192 --radius 64 --reps 20 --warmups 3"
{
step "walk tests (bands as planned)"
timeout 120 $X/fast_bands --gtest_filter='*Walk*:*walk*' --gtest_brief=1 2>&1 | tail -3
one "base (HEAD)" $X/bench_base $A
one "one band (-1)" COALESCE_WALK_TAIL=-1 $X/bench_bands $A
one "bands as planned" $X/bench_bands $A
one "h 96" COALESCE_WALK_TAIL=96 $X/bench_bands $A
one "h 288" COALESCE_WALK_TAIL=288 $X/bench_bands $A
one "h 384" COALESCE_WALK_TAIL=384 $X/bench_bands $A
one "base (again)" $X/bench_base $A
one "bands as planned (again)" $X/bench_bands $A
one "one band (-1, again)" COALESCE_WALK_TAIL=-1 $X/bench_bands $A
step done
} 2>&1 | tee $OUT/r41.txt
