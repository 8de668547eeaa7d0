# Twenty-first session: the u8 column sums' wide wave with half a warp per row (256-byte strips:
# 32 strips x 4 chunks at 8192 columns, half the partial sums of 512-byte strips x 8 chunks);
# COALESCE_COL_HALF=0 gives the committed wave (lab/col_half_warp.patch). Run from the repo root
# with carry [".devrun/next32", ".devrun/bin"]:
#   timeout 400 bash bench/results/2026-11-27-h100-s21/lab/r52.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/next32
{
step "tests (half warps)"
timeout 100 $X/fast_hw --gtest_filter='*col_sums*' --gtest_brief=1 2>&1 | tail -1
timeout 100 $X/gpu_hw --gtest_filter='*col_sums*:*Typed*' --gtest_brief=1 2>&1 | tail -1
for tool in memcheck racecheck; do
  step "compute-sanitizer $tool fast '*ColWave*'"
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $X/fast_hw --gtest_filter='*ColWave*' \
    --gtest_brief=1 > $OUT/sanitize-$tool-wave.log 2>&1
  echo "rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/sanitize-$tool-wave.log | tail -1) $(grep -E '^\[  PASSED  \]|FAILED TEST' $OUT/sanitize-$tool-wave.log | tail -1)"
done
PICK='col_sums/fast-typed-strip(-pitched)?'
G="--type u8 --ops col_sums --variants col_sums/fast-typed-strip --sizes 8192x8192,8000x6000 --reps 20 --warmups 3"
for round in 1 2 3 4 5; do
  one "before ($round)" $X/bench_base $G
  one "committed ($round)" COALESCE_COL_HALF=0 $X/bench_hw $G
  one "half warps ($round)" $X/bench_hw $G
done
step done
} 2>&1 | tee $OUT/r52.txt
