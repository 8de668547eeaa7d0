# Issue 15, prepared in the twenty-fifth session and not run: filter_y/fast-walk (f32) with a
# 48-column strip (lab/walk_48_columns.patch: 12 float4 lanes, 576 threads, steps of 192 rows),
# taken where its runs are whole strips (one front) at no more cost than the best width. At
# 8000x6000, r = 64 that is 125 strips x 8000 rows on 125 blocks, every block starting on row 0,
# each halo read once; HEAD runs 63 strips of 96 columns in two fronts on 126 blocks.
# Build here first (arch 90, build-dev configured with -DCOALESCE_BUILD_GUI=OFF
# -DCOALESCE_WITH_OPENCV=OFF -DCMAKE_CUDA_ARCHITECTURES=90), from the repo root:
#   ninja -C build-dev coalesce-bench && mkdir -p .devrun/s26 &&
#   gzip -c build-dev/bin/coalesce-bench > .devrun/s26/bench_base.gz &&
#   git apply bench/results/2026-11-27-h100-s25/lab/walk_48_columns.patch &&
#   ninja -C build-dev coalesce-bench coalesce_fast_variant_tests &&
#   gzip -c build-dev/bin/coalesce-bench > .devrun/s26/bench_w12.gz &&
#   gzip -c build-dev/bin/coalesce_fast_variant_tests > .devrun/s26/fast_w12.gz && git checkout -- kernels
# Then on the device, carry [".devrun/s26"]: timeout 300 bash bench/results/2026-11-27-h100-s25/lab/r99.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/s26
{
PICK='filter_y/fast-walk(-pitched)?'
for round in 1 2 3 4; do
  for arm in base w12; do
    one "r 64 $arm ($round)" $X/bench_$arm --ops filter_y --variants filter_y/fast-walk --tier tuned \
      --sizes 8000x6000,8192x8192 --radius 64 --reps 20 --warmups 3
  done
done
for r in 16 32; do for arm in base w12; do
  one "r $r $arm" $X/bench_$arm --ops filter_y --variants filter_y/fast-walk --tier tuned \
    --sizes 8000x6000,8192x8192 --radius $r --reps 20 --warmups 3
done; done
step "fast variant tests w12: filter Y walks"
timeout 150 $X/fast_w12 --gtest_filter='*filter_y*walk*:*Walk*' --gtest_brief=1 2>&1 | grep -E "^\[  (PASSED|SKIPPED|FAILED) " | tail -4
for tool in memcheck racecheck; do
  step "compute-sanitizer $tool: w12 at 8000x6000, r = 64"
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $X/bench_w12 --ops filter_y \
    --variants filter_y/fast-walk --sizes 8000x6000 --radius 64 --reps 1 --warmups 0 > $OUT/san-$tool.log 2>&1
  echo "rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$tool.log | tail -1) $(grep -cE 'verified' $OUT/san-$tool.log) verified lines"
done
step done
} 2>&1 | tee $OUT/r99.txt
