# Twenty-first session: the typed column sums' wave as 2 x 256 threads per multiprocessor
# (shipped), 1 x 256, or 1 x 512 (COALESCE_COL_THREADS, COALESCE_COL_PER_SM;
# lab/col_threads.patch on HEAD's paired atomics). Run from the repo root with carry
# [".devrun/next30", ".devrun/bin"]: timeout 400 bash bench/results/2026-11-27-h100-s21/lab/r50.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/next30
PICK='col_sums/fast-(typed-strip|interleaved|planar)(-pitched)?'
G="--ops col_sums --variants col_sums/fast-typed-strip --sizes 8192x8192,8000x6000 --reps 20 --warmups 3"
C="--ops col_sums --variants col_sums/fast-interleaved --sizes 8000x6000 --channels 3 --reps 20 --warmups 3"
{
step "tests, 1 x 512 and 1 x 256"
for cfg in "512 1" "256 1"; do
  set -- $cfg
  COALESCE_COL_THREADS=$1 COALESCE_COL_PER_SM=$2 timeout 100 $X/fast_ct --gtest_filter='*col_sums*' --gtest_brief=1 2>&1 | tail -1
  COALESCE_COL_THREADS=$1 COALESCE_COL_PER_SM=$2 timeout 100 $X/gpu_ct --gtest_filter='*col_sums*:*Typed*' --gtest_brief=1 2>&1 | tail -1
done
for round in 1 2 3 4; do
  for ty in u8 u16; do
    one "$ty 2 x 256 ($round)" $X/bench_ct --type $ty $G
    one "$ty 1 x 256 ($round)" COALESCE_COL_PER_SM=1 $X/bench_ct --type $ty $G
    one "$ty 1 x 512 ($round)" COALESCE_COL_THREADS=512 COALESCE_COL_PER_SM=1 $X/bench_ct --type $ty $G
  done
done
for round in 1 2; do
  one "u8 colour 2 x 256 ($round)" $X/bench_ct --type u8 $C
  one "u8 colour 1 x 256 ($round)" COALESCE_COL_PER_SM=1 $X/bench_ct --type u8 $C
  one "u8 colour 1 x 512 ($round)" COALESCE_COL_THREADS=512 COALESCE_COL_PER_SM=1 $X/bench_ct --type u8 $C
done
step done
} 2>&1 | tee $OUT/r50.txt
