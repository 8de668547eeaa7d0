# Column sums: the partial sums in shared memory swizzled (lab/col_sums_swizzle.patch: 16-byte
# groups of four columns at g ^ ((g / 8) % 8), no bank conflicts on the end's stores and loads)
# against HEAD. First each block's end timed phase by phase (lab/col_sums_spans2.patch on each),
# then four alternating rounds of plain runs, u16 and colour once, the gpu tests over the column
# sums and both sanitizers on the swizzled build. Binaries built here (arch 90), carried gzipped
# in .devrun/s26c. From the repo root, carry [".devrun/s26c"]:
# timeout 300 bash bench/results/2026-11-27-h100-s26/lab/r101.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/s26c
{
for arm in base swz; do for v in col_sums/fast-typed-strip col_sums/fast-typed-strip-pitched; do
  step "spans u8 8192x8192 $arm $v"
  COALESCE_LAB_TIMES=1 timeout 60 $X/bench_${arm}_spans --type u8 --tier tuned --ops col_sums --variants $v \
    --sizes 8192x8192 --reps 20 --warmups 3 2>&1 | grep -E "LAB|% " | head -4
done; done
PICK='col_sums/fast-typed-strip(-pitched)?'
G="--tier tuned --ops col_sums --variants col_sums/fast-typed-strip --sizes 8192x8192,8000x6000 --reps 20 --warmups 3"
for round in 1 2 3 4; do
  for arm in base swz; do one "u8 $arm ($round)" $X/bench_$arm --type u8 $G; done
done
for round in 1 2; do for arm in base swz; do one "u16 $arm ($round)" $X/bench_$arm --type u16 $G; done; done
PICK='col_sums/fast-(planar|interleaved)'
for arm in base swz; do
  one "colour u8 8000x6000 x3, $arm" $X/bench_$arm --type u8 --tier tuned --ops col_sums \
    --variants col_sums/fast-planar,col_sums/fast-interleaved --sizes 8000x6000 --channels 3 --reps 20 --warmups 3
done
step "gpu tests swz: column sums"
timeout 120 $X/gpu_swz --gtest_filter='*col_sums*:*ColSums*' --gtest_brief=1 2>&1 | grep -E "^\[  (PASSED|SKIPPED|FAILED) " | tail -4
for tool in memcheck racecheck; do
  step "compute-sanitizer $tool gpu_swz '*col_sums_fast*'"
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $X/gpu_swz --gtest_filter='*col_sums_fast*' \
    --gtest_brief=1 > $OUT/san-$tool.log 2>&1
  echo "rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$tool.log | tail -1) $(grep -E '^\[  PASSED  \]|FAILED TEST' $OUT/san-$tool.log | tail -1)"
done
step done
} 2>&1 | tee $OUT/r101.txt
