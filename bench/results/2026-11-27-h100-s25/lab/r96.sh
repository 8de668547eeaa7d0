# col_sums/fast-typed-even (every SM: the (strip, row) pairs in runs of equal length) beside
# fast-typed-strip (u8 8192x8192: 32 strips x 4 chunks on 132 SMs), built on the device from the
# working tree: cpu ctest, the gpu binary's column-sums cases, memcheck and racecheck over them,
# three alternating A/B rounds at issue 14's grey points, then issue 14's table. From the repo root,
# no carry: timeout 590 bash bench/results/2026-11-27-h100-s25/lab/r96.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
source "$(dirname "$0")/../../2026-11-27-h100-s24/lab/s24.sh"
{
PEERS=$(build_peers)
step "build: everything"
cmake --build build-gpu -j 16 > $OUT/build-all.log 2>&1 || { tail -30 $OUT/build-all.log; exit 1; }
step "ctest cpu (background) + gpu binary, column sums"
(ctest --test-dir build-gpu -j 8 -LE gpu > $OUT/ctest-cpu.log 2>&1; echo "ctest cpu rc $?: $(grep 'tests passed' $OUT/ctest-cpu.log)" > $OUT/ctest-cpu.sum) &
timeout 150 build-gpu/tests/coalesce_gpu_tests --gtest_filter='*col_sums*:*ColSums*:*EvenRuns*' --gtest_brief=1 2>&1 | grep -E "^\[  (PASSED|SKIPPED|FAILED) " | tail -5
for tool in memcheck racecheck; do
  step "compute-sanitizer $tool: typed column sums"
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 build-gpu/tests/coalesce_gpu_tests \
    --gtest_filter='*col_sums_fast_typed*:*EvenRuns*' --gtest_brief=1 > $OUT/san-$tool.log 2>&1
  echo "rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$tool.log | tail -1) $(grep -E '^\[  PASSED  \]|FAILED TEST' $OUT/san-$tool.log | tail -1)"
done
wait; cat $OUT/ctest-cpu.sum
PICK='col_sums/fast-typed-(strip|even)(-pitched)?'
G="--ops col_sums --sizes 8192x8192,8000x6000 --reps 20 --warmups 3"
for round in 1 2 3; do
  for ty in u8 u16; do
    one "$ty strip ($round)" build-gpu/bin/coalesce-bench --type $ty $G --variants col_sums/fast-typed-strip
    one "$ty even ($round)" build-gpu/bin/coalesce-bench --type $ty $G --variants col_sums/fast-typed-even
  done
done
step "issue 14's table (NPP and CuPy)"
BENCH=build-gpu/bin/coalesce-bench PEERS=$PEERS OUT=$OUT/typed timeout 300 bash bench/typed_at_the_limit.sh | grep -E "^\| (col_sums|row_sums)|no\*\*|^## |^- "
step done
} 2>&1 | tee $OUT/r96.txt
