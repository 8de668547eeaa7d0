# Around r86's best 8192x8192 shape, 7 <64,4,16,1,2> (two waves of 512-row walks there): walk
# lengths forced by COALESCE_LAB_WALKROWS (r > 40 only), and shapes 16 <64,4,12,1,2>,
# 17 <64,2,16,1,3>. carry [".devrun/next62"]: timeout 560 bash bench/results/2026-11-27-h100-s24/lab/r87.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
mkdir -p $X && for f in .devrun/next62/*.gz; do gunzip -c $f > $X/$(basename $f .gz); done && chmod +x $X/*
{
for sh in 16 17; do for bd in clamp mirror; do
  COALESCE_LAB_SHAPE=$sh timeout 60 $X/bench_sh --type u8 --ops filter_y --variants filter_y/fast-int-running --sizes 2100x700,37x5000,1300x2000 --radius 64 --border $bd --reps 1 --warmups 0 2>&1 | grep -E "verified" | tail -1 | sed "s/^/shape $sh $bd: /"
done; done
PICK='filter_y/fast-int-running(-pitched)?'
G="--type u8 --ops filter_y --variants filter_y/fast-int-running --reps 20 --warmups 3"
for round in 1 2; do
  one "u8 r 64 shape 0 ($round)" COALESCE_LAB_SHAPE=0 $X/bench_sh $G --sizes 8192x8192 --radius 64
  for wr in 384 512 640 768 1024; do
    one "u8 r 64 shape 7 walk $wr ($round)" COALESCE_LAB_SHAPE=7 COALESCE_LAB_WALKROWS=$wr $X/bench_sh $G --sizes 8192x8192 --radius 64
  done
  for wr in 512 768; do
    one "u8 r 64 shape 12 walk $wr ($round)" COALESCE_LAB_SHAPE=12 COALESCE_LAB_WALKROWS=$wr $X/bench_sh $G --sizes 8192x8192 --radius 64
  done
  for sh in 16 17; do
    one "u8 r 64 shape $sh ($round)" COALESCE_LAB_SHAPE=$sh $X/bench_sh $G --sizes 8192x8192 --radius 64
  done
done
PICK='filter_y/fast-interleaved-pitched'
for sh in 0 7; do
  one "colour u8 r 64 shape $sh" COALESCE_LAB_SHAPE=$sh $X/bench_sh --type u8 --ops filter_y --variants filter_y/fast-interleaved --sizes 8000x6000 --channels 3 --radius 64 --reps 20 --warmups 3
done
step done
} 2>&1 | tee $OUT/r87.txt
