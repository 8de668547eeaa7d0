# Issue 15: filter_y/fast-walk (f32) with the lower run of each strip walked bottom-up
# (lab/walk_up.patch: Piece::up), against HEAD (base). In two fronts the upper run ends at the
# meeting row where the lower one starts; walked down, the 2r halo rows around that row are read
# twice from DRAM (by the lower run's seed at the start, by the upper run's end) - 128 of 8000
# rows at r = 64, 0.8% of the bytes. Bottom-up, both runs reach the meeting row together and read
# those rows at the same time (the second read an L2 hit); wrap's seeds meet too.
# Built here (arch 90, build-dev), carried gzipped in .devrun/s27:
#   gzip -c build-dev/bin/coalesce-bench > .devrun/s27/bench_base.gz (HEAD), then with the patch
#   bench_up.gz and fast_up.gz (coalesce_fast_variant_tests).
# On the device, carry [".devrun/s27"]: timeout 420 bash bench/results/2026-11-28-h100-s27/lab/r108.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/s27
{
PICK='filter_y/fast-walk(-pitched)?'
G="--ops filter_y --variants filter_y/fast-walk --tier tuned --sizes 8000x6000,8192x8192 --reps 20 --warmups 3"
for round in 1 2 3 4; do
  for arm in base up; do one "r 64 clamp $arm ($round)" $X/bench_$arm $G --radius 64; done
done
for b in zero wrap mirror; do for arm in base up; do
  one "r 64 $b $arm" $X/bench_$arm $G --radius 64 --border $b
done; done
for r in 16 32 48; do for arm in base up; do
  one "r $r clamp $arm" $X/bench_$arm $G --radius $r
done; done
step "fast variant tests up: filter Y walks"
timeout 150 $X/fast_up --gtest_filter='*filter_y*walk*:*Walk*' --gtest_brief=1 2>&1 | grep -E "^\[  (PASSED|SKIPPED|FAILED) |Failure" | tail -6
for tool in memcheck racecheck; do
  step "compute-sanitizer $tool: up, 8000x6000 and 8192x8192, r = 64, wrap"
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $X/bench_up --ops filter_y \
    --variants filter_y/fast-walk,filter_y/fast-walk-scan --sizes 8000x6000 --radius 64 --border wrap --reps 1 --warmups 0 > $OUT/san-$tool.log 2>&1
  echo "rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$tool.log | tail -1) $(grep -cE 'verified' $OUT/san-$tool.log) verified lines"
done
step done
} 2>&1 | tee $OUT/r108.txt
