# Twenty-first session: the typed column sums add two neighbouring uint32 sums in one 64-bit
# atomic (half the atomics at the launch's end; kernels/fast_typed_sums.cuh, add_pairs). Run
# from the repo root with carry [".devrun/next27", ".devrun/bin"]:
#   timeout 400 bash bench/results/2026-11-27-h100-s21/lab/r47.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/next27
PICK='col_sums/fast-(typed-strip|interleaved|planar)(-pitched)?'
G="--ops col_sums --variants col_sums/fast-typed-strip --sizes 8192x8192,8000x6000 --reps 20 --warmups 3"
C="--ops col_sums --variants col_sums/fast-interleaved,col_sums/fast-planar --sizes 8000x6000 --channels 3 --reps 20 --warmups 3"
{
step "tests: column sums, every typed and colour case"
timeout 100 $X/fast_pairs --gtest_filter='*col_sums*' --gtest_brief=1 2>&1 | tail -2
timeout 100 $X/gpu_pairs --gtest_filter='*col_sums*:*Typed*' --gtest_brief=1 2>&1 | tail -2
for round in 1 2 3; do
  one "base u8 ($round)" $X/bench_base --type u8 $G
  one "pairs u8 ($round)" $X/bench_pairs --type u8 $G
done
for round in 1 2; do
  one "base u16 ($round)" $X/bench_base --type u16 $G
  one "pairs u16 ($round)" $X/bench_pairs --type u16 $G
  one "base u8 colour ($round)" $X/bench_base --type u8 $C
  one "pairs u8 colour ($round)" $X/bench_pairs --type u8 $C
done
step done
} 2>&1 | tee $OUT/r47.txt
