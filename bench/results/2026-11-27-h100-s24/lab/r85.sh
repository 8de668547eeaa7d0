# Fewer integer instructions in the u8/u16 walk's step: (pre) each row group keeps running totals
# of its differences (one three-input add per lane and row instead of a difference and a total,
# lab/walk_prefix.patch); (pack) also the four u8 means packed by multiply-adds instead of byte
# permutes (lab/walk_prefix_pack.patch). HEAD in the same call. carry [".devrun/next60"]:
# timeout 560 bash bench/results/2026-11-27-h100-s24/lab/r85.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
mkdir -p $X && for f in .devrun/next60/*.gz; do gunzip -c $f > $X/$(basename $f .gz); done && chmod +x $X/*
{
for b in pre pack; do
step "typed and colour tests, $b"
timeout 200 $X/gpu_$b --gtest_filter='*Typed*:*Colour*' --gtest_brief=1 2>&1 | grep -E "^\[  (PASSED|SKIPPED|FAILED) |Failure" | head -6
for tool in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $X/bench_$b --type u8 --ops filter_y \
    --variants filter_y/fast-int-running --sizes 2100x700,1300x2000 --radius 64 --reps 1 --warmups 0 > $OUT/san.log 2>&1
  echo "$tool u8 r64 rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san.log | tail -1) $(grep -E 'verified' $OUT/san.log | tail -1)"
done
done
PICK='filter_y/fast-int-running(-pitched)?'
G="--ops filter_y --variants filter_y/fast-int-running --reps 20 --warmups 3"
for round in 1 2 3; do
  for b in head pre pack; do
    one "u8 r 64 $b ($round)" $X/bench_$b --type u8 $G --sizes 8192x8192,8000x6000 --radius 64
    one "u8 r 4 $b ($round)" $X/bench_$b --type u8 $G --sizes 8192x8192,8000x6000 --radius 4
    [ $round = 3 ] || one "u8 r 32 $b ($round)" $X/bench_$b --type u8 $G --sizes 8192x8192 --radius 32
    [ $round = 3 ] || one "u16 r 64 $b ($round)" $X/bench_$b --type u16 $G --sizes 8192x8192,8000x6000 --radius 64
  done
done
PICK='filter_y/fast-interleaved-pitched'
for b in head pre pack; do
  one "colour u8 r 64 $b" $X/bench_$b --type u8 --ops filter_y --variants filter_y/fast-interleaved --sizes 8000x6000 --channels 3 --radius 64 --reps 20 --warmups 3
done
step done
} 2>&1 | tee $OUT/r85.txt
