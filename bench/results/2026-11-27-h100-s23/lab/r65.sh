# u8 filter Y above r = 40 in seven walk shapes (lab/u8_walk_shapes.patch on 33b08fc plus
# filter_y/fast-interleaved-pitched; COALESCE_FY_WALK = shape, COALESCE_FY_TARGET = walk rows):
# 0 shipped <Lanes 128, G 4, L 16, Ahead 2, 1 block>; 3 <128, 2, 16, 1, 2 blocks> (won in s23's
# r64: 88-89 at 8192x8192 against 86-87); 4 <128, 2, 16, Ahead 2> (two blocks only while the ring
# fits, r <= 54); 5 <128, 2, 8, 2>; 6 <128, 2, 8, 1>; 7 <64, 4, 16, 1, 2 blocks> (256-byte
# strips); 8 <64, 2, 16, 2, 3 blocks>. Every run is verified exactly by coalesce-bench. From the
# repo root, carry [".devrun/next42"]: timeout 400 bash bench/results/2026-11-27-h100-s23/lab/r65.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
mkdir -p $X && gunzip -c .devrun/next42/bench_k2.gz > $X/b && chmod +x $X/b
{
for k in 4 5 6 7 8; do
  for r in 48 64; do
    for tool in memcheck racecheck; do
      step "compute-sanitizer $tool, shape $k, u8 filter Y r = $r, 300x2000 and 3x700"
      COALESCE_FY_WALK=$k timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $X/b \
        --type u8 --ops filter_y --variants filter_y/fast-int-running \
        --sizes 300x2000,3x700 --radius $r --reps 1 --warmups 0 > $OUT/san-$tool-$k-$r.log 2>&1
      echo "rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$tool-$k-$r.log | tail -1) $(grep -E 'verified, ' $OUT/san-$tool-$k-$r.log | tail -1)"
    done
  done
done
PICK='filter_y/fast-int-running(-pitched)?'
G="--type u8 --ops filter_y --variants filter_y/fast-int-running --sizes 8192x8192,8000x6000 --reps 20 --warmups 3"
for round in 1 2; do
  for k in 0 3 4 5 6 7 8; do one "r 64 shape $k ($round)" COALESCE_FY_WALK=$k $X/b $G --radius 64; done
done
for r in 41 48 56; do
  for k in 0 3 4 5 7; do one "r $r shape $k" COALESCE_FY_WALK=$k $X/b $G --radius $r; done
done
for round in 1 2; do
  for n in 256 384 768 1024; do
    one "r 64 shape 3, walks of $n rows ($round)" COALESCE_FY_WALK=3 COALESCE_FY_TARGET=$n $X/b $G --radius 64
  done
done
PICK='filter_y/fast-interleaved(-pitched)?'
for round in 1 2; do
  for k in 0 3 4 5 7; do
    one "colour u8 r 64 shape $k ($round)" COALESCE_FY_WALK=$k $X/b --type u8 --ops filter_y \
      --variants filter_y/fast-interleaved --sizes 8000x6000 --channels 3 --radius 64 --reps 20 --warmups 3
  done
done
step done
} 2>&1 | tee $OUT/r65.txt
