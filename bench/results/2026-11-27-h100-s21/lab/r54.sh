# Prepared in the twenty-first session for the next (not run): the u8 column sums' wide wave with a
# quarter of a warp per row (COALESCE_COL_ROW_LANES=8: 128-byte strips, 64 strips x 2 chunks at
# 8192 columns, half the partial sums of the shipped half warps; chunks may then pass 2048 rows,
# as a thread still adds at most 256), against the shipped half warps, whole warps (=32) and the
# code before the session (bench_base); lab/col_quarter_warp.patch on 99300a5. The binaries are in
# the local scratch folder .devrun/next34. Run from the repo root with carry [".devrun/next34",
# ".devrun/bin"]: timeout 400 bash bench/results/2026-11-27-h100-s21/lab/r54.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/next34
{
step "tests with quarter warps"
COALESCE_COL_ROW_LANES=8 timeout 100 $X/fast_qw --gtest_filter='*col_sums*' --gtest_brief=1 2>&1 | tail -1
COALESCE_COL_ROW_LANES=8 timeout 100 $X/gpu_qw --gtest_filter='*col_sums*:*Typed*' --gtest_brief=1 2>&1 | tail -1
for tool in memcheck racecheck; do
  step "compute-sanitizer $tool, quarter warps, the wave cases"
  COALESCE_COL_ROW_LANES=8 timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $X/fast_qw \
    --gtest_filter='*ColWave*' --gtest_brief=1 > $OUT/sanitize-$tool-quarter.log 2>&1
  echo "rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/sanitize-$tool-quarter.log | tail -1)"
done
PICK='col_sums/fast-typed-strip(-pitched)?'
G="--type u8 --ops col_sums --variants col_sums/fast-typed-strip --sizes 8192x8192,8000x6000 --reps 20 --warmups 3"
for round in 1 2 3 4; do
  one "before ($round)" $X/bench_base $G
  one "whole warps ($round)" COALESCE_COL_ROW_LANES=32 $X/bench_qw $G
  one "half warps, shipped ($round)" $X/bench_qw $G
  one "quarter warps ($round)" COALESCE_COL_ROW_LANES=8 $X/bench_qw $G
done
step done
} 2>&1 | tee $OUT/r54.txt
