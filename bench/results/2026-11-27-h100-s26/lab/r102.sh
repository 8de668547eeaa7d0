# Column sums: HEAD (base) against the swizzled partial sums (swz, lab/col_sums_swizzle.patch) and
# the swizzle with the strip's flag read by a thread outside the reducing warps (wt,
# lab/col_sums_swizzle_waiter.patch: the flag's round trip beside the sums rather than after).
# Six alternating rounds of u8, two of u16, colour once; the gpu tests over the column sums and
# both sanitizers on wt. Binaries built here (arch 90), carried gzipped in .devrun/s26c.
# From the repo root, carry [".devrun/s26c"]: timeout 300 bash bench/results/2026-11-27-h100-s26/lab/r102.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/s26c
{
PICK='col_sums/fast-typed-strip(-pitched)?'
G="--tier tuned --ops col_sums --variants col_sums/fast-typed-strip --sizes 8192x8192,8000x6000 --reps 20 --warmups 3"
for round in 1 2 3 4 5 6; do
  for arm in base swz wt; do one "u8 $arm ($round)" $X/bench_$arm --type u8 $G; done
done
for round in 1 2; do for arm in base swz wt; do one "u16 $arm ($round)" $X/bench_$arm --type u16 $G; done; done
PICK='col_sums/fast-(planar|interleaved)'
for arm in base swz wt; do
  one "colour u8 8000x6000 x3, $arm" $X/bench_$arm --type u8 --tier tuned --ops col_sums \
    --variants col_sums/fast-planar,col_sums/fast-interleaved --sizes 8000x6000 --channels 3 --reps 20 --warmups 3
done
step "gpu tests wt: column sums"
timeout 120 $X/gpu_wt --gtest_filter='*col_sums*:*ColSums*' --gtest_brief=1 2>&1 | grep -E "^\[  (PASSED|SKIPPED|FAILED) " | tail -4
for tool in memcheck racecheck synccheck; do
  step "compute-sanitizer $tool gpu_wt '*col_sums_fast*'"
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $X/gpu_wt --gtest_filter='*col_sums_fast*' \
    --gtest_brief=1 > $OUT/san-$tool.log 2>&1
  echo "rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$tool.log | tail -1) $(grep -E '^\[  PASSED  \]|FAILED TEST' $OUT/san-$tool.log | tail -1)"
done
step done
} 2>&1 | tee $OUT/r102.txt
