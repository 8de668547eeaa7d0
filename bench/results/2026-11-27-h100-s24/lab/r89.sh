# The one-wave u8 walk above r = 40 as built (working tree after 3607b7f: launch_y_walk_one_wave):
# every gpu and fast test, memcheck over the new one-wave cases, both sanitizers on coalesce-bench
# at a shape that takes it, then issue 14's whole table (typed/) with NPP's peers built on the
# device. carry [".devrun/next64"]: timeout 590 bash bench/results/2026-11-27-h100-s24/lab/r89.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
source "$(dirname "$0")/s24.sh"
source "$(dirname "$0")/../../2026-11-27-h100-s21/lab/checks.sh"
mkdir -p $X && for f in .devrun/next64/*.gz; do gunzip -c $f > $X/$(basename $f .gz); done && chmod +x $X/*
{
tests_of ow gpu fast
step "compute-sanitizer memcheck gpu: the one-wave cases"
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $X/gpu_ow --gtest_filter='*OneWave*' --gtest_brief=1 > $OUT/san-ow.log 2>&1
echo "rc $?: $(grep -E 'ERROR SUMMARY' $OUT/san-ow.log | tail -1) $(grep -E '^\[  PASSED  \]|FAILED TEST' $OUT/san-ow.log | tail -1)"
for tool in memcheck racecheck; do for bd in clamp mirror; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $X/bench --type u8 --ops filter_y --variants filter_y/fast-int-running \
    --sizes 1100x8192 --radius 64 --border $bd --reps 1 --warmups 0 > $OUT/san.log 2>&1
  echo "$tool $bd 1100x8192 r64 rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san.log | tail -1) $(grep -E 'verified' $OUT/san.log | tail -1)"
done; done
PEERS=$(build_peers)
step "issue 14's table"
BENCH=$X/bench PEERS=$PEERS \
  OUT=$OUT/typed timeout 300 bash bench/typed_at_the_limit.sh
step done
} 2>&1 | tee $OUT/r89.txt
