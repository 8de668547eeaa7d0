# The f32 walk's partial last strip read as a whole strip moved left to end at the last column
# (lab: COALESCE_LAB_SHIFT=1; its lanes left of the strip's own first column store nothing).
# r83: the last strip's blocks are the slowest whichever SMs run them. carry [".devrun/next59"]:
# timeout 560 bash bench/results/2026-11-27-h100-s24/lab/r84.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
mkdir -p $X && for f in .devrun/next59/*.gz; do gunzip -c $f > $X/$(basename $f .gz); done && chmod +x $X/*
source "$(dirname "$0")/s24.sh"
{
step "fast variant tests (walk), shift"
COALESCE_LAB_SHIFT=1 timeout 200 $X/fast_f --gtest_filter='*walk*:*Walk*' --gtest_brief=1 2>&1 | grep -E "^\[  (PASSED|SKIPPED|FAILED) |Failure" | head -6
step "verified, shift: r 1 4 16 32 64 x borders at 8000x6000, 1000x600, 333x1004, 8192x8192"
for r in 1 4 16 32 64; do for bd in clamp zero wrap mirror; do
  COALESCE_LAB_SHIFT=1 timeout 60 $X/bench_f --ops filter_y --variants filter_y/fast-walk --sizes 8000x6000,1000x600,333x1004,8192x8192 --radius $r --border $bd --reps 1 --warmups 0 2>&1 | grep -E "verified" | tail -1 | sed "s/^/r $r $bd: /"
done; done
for tool in memcheck racecheck; do
COALESCE_LAB_SHIFT=1 timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $X/bench_f --ops filter_y --variants filter_y/fast-walk --sizes 1000x600,333x1004 --radius 64 --reps 1 --warmups 0 > $OUT/san.log 2>&1
echo "$tool rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san.log | tail -1) $(grep -E 'verified' $OUT/san.log | tail -1)"
done
step "spans, shift, 8000x6000 clamp"
COALESCE_LAB_SHIFT=1 COALESCE_LAB_TIMES=1 timeout 60 $X/bench_f --ops filter_y --variants filter_y/fast-walk-pitched --sizes 8000x6000 --radius 64 --reps 2 --warmups 1 2>&1 | grep LAB | tail -4 | spans_summary
PICK='filter_y/fast-walk(-pitched)?'
for round in 1 2 3; do
  for e in X=0 COALESCE_LAB_SHIFT=1; do
    for bd in clamp zero wrap mirror; do
    one "f32 r 64 8000x6000 $bd $e ($round)" $e $X/bench_f --ops filter_y --variants filter_y/fast-walk --sizes 8000x6000 --radius 64 --border $bd --reps 20 --warmups 3
    done
  done
done
step done
} 2>&1 | tee $OUT/r84.txt
