# u8 column sums at 8192x8192 with narrower strips in the wide wave (one 512-thread block per SM):
# base (HEAD: 16 lanes x 16 bytes, 32 strips of 256 bytes x 4 chunks), n8 (lab/col_sums_u8_lanes8
# .patch: 64 strips of 128 bytes x 2 chunks) and n4 (lab/col_sums_u8_lanes4.patch: 128 strips of 64
# bytes, one chunk each, so no zeroing, flag or atomics, and the whole grid walks one band of rows
# from top to bottom). Binaries built here (arch 90), carried gzipped in .devrun/s25. Four
# alternating rounds, u16 and colour once; both arms' gpu binaries over the column sums; memcheck
# and racecheck over n4's. From the repo root, carry [".devrun/s25"]:
# timeout 300 bash bench/results/2026-11-27-h100-s25/lab/r98.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/s25
{
PICK='col_sums/fast-typed-strip(-pitched)?'
G="--tier tuned --ops col_sums --variants col_sums/fast-typed-strip --sizes 8192x8192,8000x6000 --reps 20 --warmups 3"
for round in 1 2 3 4; do
  for arm in base n8 n4; do one "u8 $arm ($round)" $X/bench_$arm --type u8 $G; done
done
for arm in base n8 n4; do one "u16 $arm" $X/bench_$arm --type u16 $G; done
PICK='col_sums/fast-(planar|interleaved)'
for arm in base n8 n4; do
  one "colour u8 8000x6000 x3, $arm" $X/bench_$arm --type u8 --tier tuned --ops col_sums \
    --variants col_sums/fast-planar,col_sums/fast-interleaved --sizes 8000x6000 --channels 3 --reps 20 --warmups 3
done
for arm in n8 n4; do
  step "gpu tests $arm: column sums"
  timeout 120 $X/gpu_$arm --gtest_filter='*col_sums*' --gtest_brief=1 2>&1 | grep -E "^\[  (PASSED|SKIPPED|FAILED) " | tail -4
done
for tool in memcheck racecheck; do
  step "compute-sanitizer $tool gpu_n4 '*col_sums_fast*'"
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $X/gpu_n4 --gtest_filter='*col_sums_fast*' \
    --gtest_brief=1 > $OUT/san-$tool.log 2>&1
  echo "rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$tool.log | tail -1) $(grep -E '^\[  PASSED  \]|FAILED TEST' $OUT/san-$tool.log | tail -1)"
done
step done
} 2>&1 | tee $OUT/r98.txt
