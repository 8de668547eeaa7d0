# Issue 15: the walk at 6000 columns is paced by its outputs per thread (96 x 4000 / 576 = 667;
# 8192x8192's 128 x 4096 / 576 = 910 at the same rate per thread). The sixteenth round's 624 and
# 672 threads lost with the two-block bound's 48 and 40 registers; at r = 64 a block has the
# multiprocessor to itself anyway, so here every two-block instance is held to 56 registers by
# __maxnreg__ with a bound of one block (lab/walk_threads_maxnreg.patch, LAB_LOAD_ROWS 24 / 26 / 28
# per arm) and the 24-lane (96-column) strips walk with 576 (t576, the control), 624 or 672 threads. Against HEAD (base).
# Built here (arch 90), carried in .devrun/s27.
# On the device, carry [".devrun/s27"]: timeout 420 bash bench/results/2026-11-28-h100-s27/lab/r110.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/s27
{
PICK='filter_y/fast-walk(-pitched)?'
G="--ops filter_y --variants filter_y/fast-walk --tier tuned --sizes 8000x6000,8192x8192 --reps 20 --warmups 3"
for round in 1 2 3; do
  for arm in base t576 t624 t672; do one "r 64 clamp $arm ($round)" $X/bench_$arm $G --radius 64; done
done
for b in mirror wrap; do for arm in base t624 t672; do one "r 64 $b $arm" $X/bench_$arm $G --radius 64 --border $b; done; done
for arm in t624 t672; do
  step "fast variant tests $arm: filter Y walks"
  timeout 100 $X/fast_$arm --gtest_filter='*filter_y*walk*:*Walk*' --gtest_brief=1 2>&1 | grep -E "^\[  (PASSED|SKIPPED|FAILED) |Failure" | tail -4
done
step done
} 2>&1 | tee $OUT/r110.txt
