# Twenty-second session, last call (H100): the typed filter X's staged line placed in shared
# memory at its first byte's global offset mod 128 (bench_ls, gpu_ls), so dense rows of every
# phase copy at the offsets the probe found cheap (r60, r61), against the committed lead of 32
# (bench_l32 = 310e47d's build). Typed filter X GPU tests, memcheck and racecheck over
# filter_x/fast-int-running(-pitched), then A/B on dense odd widths. Carry [".devrun/next40"].
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
mkdir -p $X && for f in .devrun/next40/*.gz; do gunzip -c $f > $X/$(basename $f .gz); done && chmod +x $X/*
{
step "typed filter X tests"
timeout 60 $X/gpu_ls --gtest_filter='*Typed*filter_x*:*Colour*filter_x*' --gtest_brief=1 2>&1 | grep -E "^\[  (PASSED|FAILED)|FAILED TEST" | tail -3
for tool in memcheck racecheck; do
  step "compute-sanitizer $tool filter_x/fast-int-running"
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $X/gpu_ls \
    --gtest_filter='*TypedGpu*filter_x_fast_int*' --gtest_brief=1 > $OUT/sanitize-$tool-ls.log 2>&1
  echo "rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/sanitize-$tool-ls.log | tail -1)"
done
PICK='filter_x/fast-int-running'
G="--ops filter_x --variants filter_x/fast-int-running --sizes 8000x6000,4097x3001,3001x4097,8192x8192 --reps 20 --warmups 3"
for round in 1 2; do
  for t in u8 u16; do
    for r in 4 64; do
      one "$t r $r lead 32 ($round)" $X/bench_l32 $G --type $t --radius $r
      one "$t r $r line at the row's phase ($round)" $X/bench_ls $G --type $t --radius $r
    done
  done
done
step done
} 2>&1 | tee $OUT/r62.txt
