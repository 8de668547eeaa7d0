# Issue 15: where in a step the walk issues the copies of the step two ahead
# (lab/walk_load_at.patch, LAB_LOAD_AT): at0 at the step's start after its barrier (HEAD's place;
# the control), at1 after the chunk sums' barrier (mid-step), at2 at the step's end. The ring
# rows they fill are those the step before read last, so any place in the step is safe. Against
# HEAD (base). Built here (arch 90), carried in .devrun/s27.
# On the device, carry [".devrun/s27"]: timeout 400 bash bench/results/2026-11-28-h100-s27/lab/r111.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/s27
{
PICK='filter_y/fast-walk(-pitched)?'
G="--ops filter_y --variants filter_y/fast-walk --tier tuned --sizes 8000x6000,8192x8192 --reps 20 --warmups 3"
for round in 1 2 3; do
  for arm in base at0 at1 at2; do one "r 64 clamp $arm ($round)" $X/bench_$arm $G --radius 64; done
done
for r in 32 48; do for arm in base at1 at2; do one "r $r clamp $arm" $X/bench_$arm $G --radius $r; done; done
for arm in at1 at2; do
  step "fast variant tests $arm: filter Y walks"
  timeout 100 $X/fast_$arm --gtest_filter='*filter_y*walk*:*Walk*' --gtest_brief=1 2>&1 | grep -E "^\[  (PASSED|SKIPPED|FAILED) |Failure" | tail -4
done
step done
} 2>&1 | tee $OUT/r111.txt
