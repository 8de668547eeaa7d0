# Twenty-first session: the typed filter X seed (line_sum, 2r + 1 samples per thread) reads the
# whole 16-byte blocks of its window 16 bytes at a time instead of a word at a time. Run from the
# repo root with carry [".devrun/next28", ".devrun/bin"]:
#   timeout 400 bash bench/results/2026-11-27-h100-s21/lab/r48.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/next28
PICK='filter_x/fast-(int-running|interleaved|planar)(-pitched)?'
G="--ops filter_x --variants filter_x/fast-int-running --sizes 8192x8192,8000x6000 --reps 20 --warmups 3"
C="--ops filter_x --variants filter_x/fast-planar,filter_x/fast-interleaved --sizes 8000x6000 --channels 3 --reps 20 --warmups 3"
{
step "tests: filter X, typed and colour"
timeout 100 $X/fast_ls --gtest_filter='*filter_x*' --gtest_brief=1 2>&1 | tail -2
timeout 100 $X/gpu_ls --gtest_filter='*filter_x*:*Typed*' --gtest_brief=1 2>&1 | tail -2
for round in 1 2 3; do
  one "base u8 r64 ($round)" $X/bench_base --type u8 $G --radius 64
  one "vec u8 r64 ($round)" $X/bench_ls --type u8 $G --radius 64
done
for r in 4 16 32; do
  one "base u8 r$r" $X/bench_base --type u8 $G --radius $r
  one "vec u8 r$r" $X/bench_ls --type u8 $G --radius $r
done
for round in 1 2; do
  one "base u16 r64 ($round)" $X/bench_base --type u16 $G --radius 64
  one "vec u16 r64 ($round)" $X/bench_ls --type u16 $G --radius 64
  one "base u8 colour r64 ($round)" $X/bench_base --type u8 $C --radius 64
  one "vec u8 colour r64 ($round)" $X/bench_ls --type u8 $C --radius 64
done
step done
} 2>&1 | tee $OUT/r48.txt
