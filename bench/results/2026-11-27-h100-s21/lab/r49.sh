# Twenty-first session: the typed column sums' wave at 1, 2 (shipped) and 3 blocks per
# multiprocessor (COALESCE_COL_PER_SM, lab/col_per_sm.patch, on HEAD's paired atomics), and the
# shipped build before the pairs (bench_base). Run from the repo root with carry
# [".devrun/next29", ".devrun/bin"]: timeout 300 bash bench/results/2026-11-27-h100-s21/lab/r49.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/next29
PICK='col_sums/fast-typed-strip(-pitched)?'
G="--type u8 --ops col_sums --variants col_sums/fast-typed-strip --sizes 8192x8192,8000x6000 --reps 20 --warmups 3"
{
for round in 1 2 3; do
  one "base, no pairs ($round)" $X/bench_base $G
  for n in 1 2 3; do one "pairs, $n per SM ($round)" COALESCE_COL_PER_SM=$n $X/bench_ps $G; done
done
step done
} 2>&1 | tee $OUT/r49.txt
