# The final code (70661f8: 9059f74 plus a description's text) on the device: the gpu and fast
# test binaries whole, memcheck and racecheck over the typed and colour filter Y cases, and
# coalesce-bench's 8192x8192 table (gpu-check's bench step) with the texture plugin. Binaries
# built here into .devrun/next49. From the repo root, carry [".devrun/next49"]:
# timeout 560 bash bench/results/2026-11-27-h100-s23/lab/r74.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
source "$(dirname "$0")/../../2026-11-27-h100-s21/lab/checks.sh"
mkdir -p $X/plugins && for f in .devrun/next49/*.gz; do gunzip -c $f > $X/$(basename $f .gz); done &&
  cp .devrun/next49/plugins/*.so $X/plugins/ && chmod +x $X/*_final
{
tests_of final gpu fast
for tool in memcheck racecheck; do
  step "compute-sanitizer $tool gpu: typed and colour filter Y"
  log=$OUT/sanitize-$tool-fy.log
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $X/gpu_final \
    --gtest_filter='*TypedGpu*filter_y*:*Colour*filter_y*' --gtest_brief=1 > "$log" 2>&1
  echo "rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1) $(grep -E '^\[  PASSED  \]|FAILED TEST' "$log" | tail -1)"
done
step "coalesce-bench 8192x8192"
$X/bench_final --sizes 8192x8192 --json $OUT/bench.json --csv $OUT/bench.csv > $OUT/bench.txt 2> $OUT/bench-progress.log
echo "rc $?"; tail -4 $OUT/bench.txt
step done
} 2>&1 | tee $OUT/r74.txt
