# u8 filter Y above r = 40 in steps of 2 x 10 or 2 x 12 rows (lab: COALESCE_LAB_L=10 / 12) against
# 2 x 8: at r = 64 a 2 x 12 ring is 212 rows (108.5 KB), still two blocks per SM. carry [".devrun/next55"]:
# timeout 560 bash bench/results/2026-11-27-h100-s24/lab/r80.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
mkdir -p $X && for f in .devrun/next55/*.gz; do gunzip -c $f > $X/$(basename $f .gz); done && chmod +x $X/*
{
for l in 10 12; do
step "typed filter Y tests, L $l"
COALESCE_LAB_L=$l timeout 120 $X/gpu_l --gtest_filter='*Typed*filter_y*:*Colour*filter_y*' --gtest_brief=1 2>&1 | grep -E "^\[  (PASSED|SKIPPED|FAILED) |Failure" | head -8
for tool in memcheck racecheck; do
  COALESCE_LAB_L=$l timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $X/bench_l --type u8 --ops filter_y \
    --variants filter_y/fast-int-running --sizes 2100x700,1300x2000 --radius 64 --reps 1 --warmups 0 > $OUT/san.log 2>&1
  echo "$tool rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san.log | tail -1) $(grep -E 'verified' $OUT/san.log | tail -1)"
done
for bd in clamp zero wrap mirror; do
  COALESCE_LAB_L=$l timeout 60 $X/bench_l --type u8 --ops filter_y --variants filter_y/fast-int-running --sizes 8192x8192,2100x700,37x5000 --radius 64 --border $bd --reps 1 --warmups 1 2>&1 | grep -E "verified" | tail -1 | sed "s/^/L $l $bd r 64: /"
done
COALESCE_LAB_L=$l timeout 60 $X/bench_l --type u8 --ops filter_y --variants filter_y/fast-int-running --sizes 8192x8192,2100x700 --radius 41 --reps 1 --warmups 1 2>&1 | grep -E "verified" | tail -1 | sed "s/^/L $l r 41: /"
done
PICK='filter_y/fast-int-running(-pitched)?'
G="--type u8 --ops filter_y --variants filter_y/fast-int-running --reps 20 --warmups 3"
for round in 1 2 3; do
  for l in 8 10 12; do
    one "u8 r 64 L $l ($round)" COALESCE_LAB_L=$l $X/bench_l $G --sizes 8192x8192,8000x6000 --radius 64
    one "u8 r 48 L $l ($round)" COALESCE_LAB_L=$l $X/bench_l $G --sizes 8192x8192,8000x6000 --radius 48
  done
done
step "spans, L 12, u8 r 64 8192x8192 dense"
COALESCE_LAB_L=12 COALESCE_LAB_TIMES=1 timeout 60 $X/bench_l $G --sizes 8192x8192 --radius 64 --reps 1 --warmups 0 2>&1 | grep LAB | head -2
step done
} 2>&1 | tee $OUT/r80.txt
