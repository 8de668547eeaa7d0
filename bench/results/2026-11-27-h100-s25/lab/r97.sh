# u8 column sums at 8192x8192, the fixed cost at the end of the launch. Three coalesce-bench
# binaries built here (arch 90) and carried gzipped in .devrun/s25: base (HEAD 2f1f87a), a
# (lab/col_sums_early_flag.patch: thread 0 reads its strip's flag after the first batch, and at
# the end an acquire fence replaces the flag's round trip where that read saw the epoch), ab (a,
# plus sixteen rows in flight per thread in the wide wave instead of eight). Four alternating
# rounds at issue 14's grey points; then both arms' gpu test binaries over the column sums, and
# memcheck and racecheck over ab's. From the repo root, carry [".devrun/s25"]:
# timeout 590 bash bench/results/2026-11-27-h100-s25/lab/r97.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/s25
{
PICK='col_sums/fast-typed-strip(-pitched)?'
G="--tier tuned --ops col_sums --variants col_sums/fast-typed-strip --sizes 8192x8192,8000x6000 --reps 20 --warmups 3"
for round in 1 2 3 4; do
  for ty in u8 u16; do
    for arm in base a ab; do one "$ty $arm ($round)" $X/bench_$arm --type $ty $G; done
  done
done
PICK='col_sums/fast-(planar|interleaved)'
for round in 1 2; do for arm in base a ab; do
  one "colour u8 8000x6000 x3, $arm ($round)" $X/bench_$arm --type u8 --tier tuned --ops col_sums --variants col_sums/fast-planar,col_sums/fast-interleaved \
    --sizes 8000x6000 --channels 3 --reps 20 --warmups 3
done; done
for arm in a ab; do
  step "gpu tests $arm: column sums"
  timeout 120 $X/gpu_$arm --gtest_filter='*col_sums*' --gtest_brief=1 2>&1 | grep -E "^\[  (PASSED|SKIPPED|FAILED) " | tail -4
done
for tool in memcheck racecheck; do
  step "compute-sanitizer $tool gpu_ab '*col_sums_fast*'"
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $X/gpu_ab --gtest_filter='*col_sums_fast*' \
    --gtest_brief=1 > $OUT/san-$tool.log 2>&1
  echo "rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$tool.log | tail -1) $(grep -E '^\[  PASSED  \]|FAILED TEST' $OUT/san-$tool.log | tail -1)"
done
step done
} 2>&1 | tee $OUT/r97.txt
