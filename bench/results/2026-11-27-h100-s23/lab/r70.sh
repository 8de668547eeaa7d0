# r69's Nsight Compute: the shipped u8 walk at r = 64, 8192x8192, ran DRAM at 69% of peak with 3.6
# warps per scheduler, 1.15 eligible: too few bytes in flight. lab/u8_walk_ahead.patch
# (COALESCE_FY_WALK, any radius when set): 9 = two groups of 8-row steps, three in flight; 10 =
# four in flight (112.6 KB a block at r = 64: still two per SM); 11 = 4-row steps, four in flight;
# 12 = the r <= 40 shape (16-row steps, two in flight); unset = shipped. From the repo root, carry
# [".devrun/next46"]: timeout 500 bash bench/results/2026-11-27-h100-s23/lab/r70.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
mkdir -p $X && gunzip -c .devrun/next46/bench_a.gz > $X/b && chmod +x $X/b
{
for k in 9 10 11; do
  for r in 4 64; do
    for tool in memcheck racecheck; do
      log=$OUT/san-$tool-$k-$r.log
      COALESCE_FY_WALK=$k timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $X/b \
        --type u8 --ops filter_y --variants filter_y/fast-int-running \
        --sizes 300x2000,3x700,513x200 --radius $r --reps 1 --warmups 0 > $log 2>&1
      echo "$tool shape $k r $r: rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $log | tail -1) $(grep -E 'verified, ' $log | tail -1)"
    done
  done
done > $OUT/sanitize.txt 2>&1
cat $OUT/sanitize.txt
PICK='filter_y/fast-int-running(-pitched)?'
G="--type u8 --ops filter_y --variants filter_y/fast-int-running --reps 20 --warmups 3"
for round in 1 2 3; do
  for k in 0 9 10 11; do
    one "r 64 shape $k ($round)" COALESCE_FY_WALK=$k $X/b $G --sizes 8192x8192,8000x6000 --radius 64
  done
done
for r in 48 56; do
  for k in 0 9 10; do one "r $r shape $k" COALESCE_FY_WALK=$k $X/b $G --sizes 8192x8192,8000x6000 --radius $r; done
done
for round in 1 2; do
  for r in 1 4 32; do
    for k in 0 9 10; do one "r $r shape $k ($round)" COALESCE_FY_WALK=$k $X/b $G --sizes 8192x8192,8000x6000 --radius $r; done
  done
done
PICK='filter_y/fast-interleaved-pitched'
for k in 0 9 10; do
  one "colour u8 r 64 shape $k" COALESCE_FY_WALK=$k $X/b --type u8 --ops filter_y \
    --variants filter_y/fast-interleaved --sizes 8000x6000 --channels 3 --radius 64 --reps 20 --warmups 3
done
step done
} 2>&1 | tee $OUT/r70.txt
