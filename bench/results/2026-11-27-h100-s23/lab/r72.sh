# The walk's copy position carried from one whole interior group to the next (YWCursor: no 64-bit
# stream arithmetic per step), A/B against HEAD (430295e, bench_head). Binaries built here into
# .devrun/next47. Tests and both sanitizers over the typed and colour filter Y cases first. From
# the repo root, carry [".devrun/next47"]: timeout 560 bash bench/results/2026-11-27-h100-s23/lab/r72.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
mkdir -p $X && for f in .devrun/next47/*.gz; do gunzip -c $f > $X/$(basename $f .gz); done && chmod +x $X/*
{
step "gpu tests: typed and colour filter Y"
$X/gpu_cur --gtest_filter='*TypedGpu*filter_y*:*Colour*filter_y*' --gtest_brief=1 > $OUT/gtest-fy.log 2>&1
echo "rc $?: $(grep -E '^\[  PASSED  \]|FAILED' $OUT/gtest-fy.log | tail -3)"
for tool in memcheck racecheck; do
  step "compute-sanitizer $tool: typed filter Y walk cases"
  log=$OUT/sanitize-$tool-fy.log
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $X/gpu_cur \
    --gtest_filter='*TypedGpu*filter_y_fast_int*' --gtest_brief=1 > "$log" 2>&1
  echo "rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1) $(grep -E '^\[  PASSED  \]|FAILED TEST' "$log" | tail -1)"
  for t in u8 u16; do
    for r in 1 64; do
      log=$OUT/san-bench-$tool-$t-$r.log
      timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $X/bench_cur --type $t --ops filter_y \
        --variants filter_y/fast-int-running --sizes 700x2000,3x700,513x200 --radius $r --reps 1 --warmups 0 > $log 2>&1
      echo "bench $t r $r: rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $log | tail -1) $(grep -E 'verified, ' $log | tail -1)"
    done
  done
done
PICK='filter_y/fast-int-running(-pitched)?'
G="--ops filter_y --variants filter_y/fast-int-running --reps 20 --warmups 3"
for round in 1 2 3; do
  for b in head cur; do
    one "u8 r 64 $b ($round)" $X/bench_$b --type u8 $G --sizes 8192x8192,8000x6000 --radius 64
    one "u8 r 4 $b ($round)" $X/bench_$b --type u8 $G --sizes 8192x8192,8000x6000 --radius 4
  done
done
for round in 1 2; do
  for b in head cur; do
    one "u8 r 1 $b ($round)" $X/bench_$b --type u8 $G --sizes 8192x8192 --radius 1
    one "u8 r 32 $b ($round)" $X/bench_$b --type u8 $G --sizes 8192x8192 --radius 32
    one "u16 r 4 $b ($round)" $X/bench_$b --type u16 $G --sizes 8192x8192,8000x6000 --radius 4
    one "u16 r 64 $b ($round)" $X/bench_$b --type u16 $G --sizes 8192x8192,8000x6000 --radius 64
  done
done
PICK='filter_y/fast-interleaved-pitched'
for b in head cur; do
  one "colour u8 r 64 $b" $X/bench_$b --type u8 --ops filter_y --variants filter_y/fast-interleaved \
    --sizes 8000x6000 --channels 3 --radius 64 --reps 20 --warmups 3
done
step done
} 2>&1 | tee $OUT/r72.txt
