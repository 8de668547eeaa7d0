# u8 filter Y above r = 40 in 256-byte strips (lab: COALESCE_LAB_SHAPE=n picks <lanes, groups,
# rows, in flight, blocks per SM>): 7 <64,4,16,1,2> (s23's shape 7, 88.2-88.6 at 8192x8192),
# 12 <64,4,8,2,2>, 13 <64,4,16,2,2>, 14 <64,2,16,2,3>, 15 <64,4,8,2,3> (72 registers, three
# 256-thread blocks per SM); 0 the kept <128,2,8,2,2>. carry [".devrun/next61"]:
# timeout 560 bash bench/results/2026-11-27-h100-s24/lab/r86.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
mkdir -p $X && for f in .devrun/next61/*.gz; do gunzip -c $f > $X/$(basename $f .gz); done && chmod +x $X/*
{
step "verified and memcheck per shape (u8 r 64 and 41, every border at 2100x700, 37x5000, 1300x2000)"
for sh in 7 12 13 14 15; do
  for bd in clamp zero wrap mirror; do
    COALESCE_LAB_SHAPE=$sh timeout 60 $X/bench_sh --type u8 --ops filter_y --variants filter_y/fast-int-running --sizes 2100x700,37x5000,1300x2000 --radius 64 --border $bd --reps 1 --warmups 0 2>&1 | grep -E "verified" | tail -1 | sed "s/^/shape $sh $bd: /"
  done
  COALESCE_LAB_SHAPE=$sh timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 $X/bench_sh --type u8 --ops filter_y \
    --variants filter_y/fast-int-running --sizes 2100x700,1300x2000 --radius 41 --reps 1 --warmups 0 > $OUT/san.log 2>&1
  echo "shape $sh memcheck r41 rc $?: $(grep -E 'ERROR SUMMARY' $OUT/san.log | tail -1) $(grep -E 'verified' $OUT/san.log | tail -1)"
done
PICK='filter_y/fast-int-running(-pitched)?'
G="--type u8 --ops filter_y --variants filter_y/fast-int-running --reps 20 --warmups 3"
for round in 1 2 3; do
  for sh in 0 7 12 13 14 15; do
    one "u8 r 64 shape $sh ($round)" COALESCE_LAB_SHAPE=$sh $X/bench_sh $G --sizes 8192x8192,8000x6000 --radius 64
    [ $round = 3 ] || one "u8 r 48 shape $sh ($round)" COALESCE_LAB_SHAPE=$sh $X/bench_sh $G --sizes 8192x8192 --radius 48
  done
done
step done
} 2>&1 | tee $OUT/r86.txt
