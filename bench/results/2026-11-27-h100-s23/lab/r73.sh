# The typed kernels' 16-byte cp.async with an L2 prefetch hint (lab/l2_prefetch.patch shows
# .L2::256B; bench_l2_128 is the same line with .L2::128B), A/B against HEAD (bench_head), three
# rounds. From the repo root, carry [".devrun/next48"]:
# timeout 400 bash bench/results/2026-11-27-h100-s23/lab/r73.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
mkdir -p $X && for f in .devrun/next48/*.gz; do gunzip -c $f > $X/$(basename $f .gz); done && chmod +x $X/*
{
step "memcheck, hint 256, u8 filter Y and X r = 64, small"
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $X/bench_l2_256 --type u8 --ops filter_x,filter_y \
  --variants filter_y/fast-int-running,filter_x/fast-int-running --sizes 700x2000,3x700 --radius 64 --reps 1 --warmups 0 > $OUT/san.log 2>&1
echo "rc $?: $(grep -E 'ERROR SUMMARY' $OUT/san.log | tail -1) $(grep -E 'verified, ' $OUT/san.log | tail -1)"
PICK='filter_y/fast-int-running(-pitched)?'
G="--ops filter_y --variants filter_y/fast-int-running --reps 20 --warmups 3"
for round in 1 2 3; do
  for b in head l2_128 l2_256; do
    one "u8 filter Y r 64 $b ($round)" $X/bench_$b --type u8 $G --sizes 8192x8192,8000x6000 --radius 64
    one "u8 filter Y r 4 $b ($round)" $X/bench_$b --type u8 $G --sizes 8192x8192 --radius 4
  done
done
for b in head l2_128 l2_256; do
  one "u16 filter Y r 64 $b" $X/bench_$b --type u16 $G --sizes 8192x8192 --radius 64
  PICK='filter_x/fast-int-running(-pitched)?'
  one "u8 filter X r 64 $b" $X/bench_$b --type u8 --ops filter_x --variants filter_x/fast-int-running --sizes 8192x8192 --radius 64 --reps 20 --warmups 3
  PICK='filter_y/fast-interleaved-pitched'
  one "colour u8 filter Y r 64 $b" $X/bench_$b --type u8 --ops filter_y --variants filter_y/fast-interleaved \
    --sizes 8000x6000 --channels 3 --radius 64 --reps 20 --warmups 3
  PICK='filter_y/fast-int-running(-pitched)?'
done
step done
} 2>&1 | tee $OUT/r73.txt
