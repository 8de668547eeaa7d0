# u8 above r = 40: shape 7 <64,4,16,1,2> in one full wave (COALESCE_LAB_ONEWAVE=1: walks =
# resident blocks / strips, r87's 1024-row walks at 8192x8192) against the kept shape, at every
# size the issue and the typed table ask. carry [".devrun/next63"]:
# timeout 560 bash bench/results/2026-11-27-h100-s24/lab/r88.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
mkdir -p $X && for f in .devrun/next63/*.gz; do gunzip -c $f > $X/$(basename $f .gz); done && chmod +x $X/*
{
step "typed and colour tests, shape 7 one wave"
COALESCE_LAB_SHAPE=7 COALESCE_LAB_ONEWAVE=1 timeout 200 $X/gpu_sh --gtest_filter='*Typed*filter_y*:*Colour*filter_y*' --gtest_brief=1 2>&1 | grep -E "^\[  (PASSED|SKIPPED|FAILED) |Failure" | head -6
step "geometry"
for sz in 8192x8192 8000x6000 6000x8000; do COALESCE_LAB_TELL=1 COALESCE_LAB_SHAPE=7 COALESCE_LAB_ONEWAVE=1 $X/bench_sh --type u8 --ops filter_y --variants filter_y/fast-int-running-pitched --sizes $sz --radius 64 --reps 1 --warmups 0 2>&1 | grep LAB | head -1; done
COALESCE_LAB_TELL=1 COALESCE_LAB_SHAPE=7 COALESCE_LAB_ONEWAVE=1 $X/bench_sh --type u8 --ops filter_y --variants filter_y/fast-interleaved-pitched --sizes 8000x6000 --channels 3 --radius 64 --reps 1 --warmups 0 2>&1 | grep LAB | head -1
PICK='filter_y/fast-int-running(-pitched)?'
G="--type u8 --ops filter_y --variants filter_y/fast-int-running --reps 20 --warmups 3"
for round in 1 2; do
  for e in "COALESCE_LAB_SHAPE=0" "COALESCE_LAB_SHAPE=7 COALESCE_LAB_ONEWAVE=1"; do
    one "u8 r 64 [$e] ($round)" $e $X/bench_sh $G --sizes 8192x8192,8000x6000,6000x8000 --radius 64
    one "u8 r 48 [$e] ($round)" $e $X/bench_sh $G --sizes 8192x8192,8000x6000 --radius 48
    one "u8 r 41 [$e] ($round)" $e $X/bench_sh $G --sizes 8192x8192 --radius 41
    PICK='filter_y/fast-interleaved-pitched'
    one "colour u8 r 64 [$e] ($round)" $e $X/bench_sh --type u8 --ops filter_y --variants filter_y/fast-interleaved --sizes 8000x6000 --channels 3 --radius 64 --reps 20 --warmups 3
    PICK='filter_y/fast-int-running(-pitched)?'
  done
done
step done
} 2>&1 | tee $OUT/r88.txt
