# The typed filter Y walk with its inside groups by the bulk copy engine (cp.async.bulk of whole
# strip rows, an mbarrier per group in flight; COALESCE_LAB_BULK=1 picks it in the lab build)
# against the same binary's cp.async walk: the typed gpu tests with it, both sanitizers on small
# shapes, then alternating rounds. From the repo root, carry [".devrun/next50"]:
# timeout 560 bash bench/results/2026-11-27-h100-s24/lab/r75.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
mkdir -p $X && for f in .devrun/next50/*.gz; do gunzip -c $f > $X/$(basename $f .gz); done && chmod +x $X/*
{
step "typed and colour filter Y tests, bulk"
COALESCE_LAB_BULK=1 timeout 120 $X/gpu_lab --gtest_filter='*Typed*filter_y*:*Colour*filter_y*' --gtest_brief=1 2>&1 | grep -E "^\[  (PASSED|SKIPPED|FAILED) |Failure" | head -8
for tool in memcheck racecheck; do
  step "$tool, bulk, u8/u16 filter Y r = 64 and 4, small"
  for ty in u8 u16; do for r in 64 4; do
  COALESCE_LAB_BULK=1 timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $X/bench_lab --type $ty --ops filter_y \
    --variants filter_y/fast-int-running --sizes 700x2000,301x4100,3x700 --radius $r --reps 1 --warmups 0 > $OUT/san.log 2>&1
  echo "$ty r$r rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san.log | tail -1) $(grep -E 'verified' $OUT/san.log | tail -1)"
  done; done
done
PICK='filter_y/fast-int-running(-pitched)?'
G="--ops filter_y --variants filter_y/fast-int-running --reps 20 --warmups 3"
for round in 1 2 3; do
  for b in plain bulk; do
    E=(); [ $b = bulk ] && E=(COALESCE_LAB_BULK=1)
    one "u8 filter Y r 64 $b ($round)" "${E[@]}" $X/bench_lab --type u8 $G --sizes 8192x8192,8000x6000 --radius 64
    one "u8 filter Y r 4,32 $b ($round)" "${E[@]}" $X/bench_lab --type u8 $G --sizes 8192x8192 --radius 4
    one "u8 filter Y r 32 $b ($round)" "${E[@]}" $X/bench_lab --type u8 $G --sizes 8192x8192 --radius 32
    one "u16 filter Y r 64 $b ($round)" "${E[@]}" $X/bench_lab --type u16 $G --sizes 8192x8192,8000x6000 --radius 64
  done
done
step done
} 2>&1 | tee $OUT/r75.txt
