# Twenty-first session: the typed filter Y walk with twice the warps: 8 row groups of 8 rows
# (1024 threads, 64 registers, the same 64-row step and ring) instead of 4 of 16 (512 threads,
# 128 registers), COALESCE_YW_G8=1 (lab/u8_walk_g8.patch). Run from the repo root with carry
# [".devrun/next26", ".devrun/bin"]: timeout 400 bash bench/results/2026-11-27-h100-s21/lab/r46.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/next26
PICK='filter_y/fast-(int-running|interleaved|planar)(-pitched)?'
G="--ops filter_y --variants filter_y/fast-int-running --sizes 8192x8192,8000x6000 --reps 20 --warmups 3"
C="--ops filter_y --variants filter_y/fast-interleaved --sizes 8000x6000 --channels 3 --reps 20 --warmups 3"
{
step "tests with G8"
COALESCE_YW_G8=1 timeout 100 $X/fast_g8 --gtest_filter='*filter_y_fast_int_running*:*filter_y_fast_inter*' --gtest_brief=1 2>&1 | tail -2
COALESCE_YW_G8=1 timeout 100 $X/gpu_g8 --gtest_filter='*Typed*filter_y*' --gtest_brief=1 2>&1 | tail -2
for round in 1 2; do
  for r in 64 4; do
    one "base u8 r$r ($round)" $X/bench_base --type u8 $G --radius $r
    one "G8 u8 r$r ($round)" COALESCE_YW_G8=1 $X/bench_g8 --type u8 $G --radius $r
  done
  one "base u8 colour r64 ($round)" $X/bench_base --type u8 $C --radius 64
  one "G8 u8 colour r64 ($round)" COALESCE_YW_G8=1 $X/bench_g8 --type u8 $C --radius 64
  one "base u16 r64 ($round)" $X/bench_base --type u16 $G --radius 64
  one "G8 u16 r64 ($round)" COALESCE_YW_G8=1 $X/bench_g8 --type u16 $G --radius 64
done
step done
} 2>&1 | tee $OUT/r46.txt
