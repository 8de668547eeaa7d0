# Twenty-first session: the final code (the half-warp wave without its lab switch): the whole gpu
# and fast-variant binaries, memcheck and racecheck over every column-sums case, and the typed
# column sums against the code before the session, three rounds. Run from the repo root with carry
# [".devrun/next33", ".devrun/bin"]: timeout 400 bash bench/results/2026-11-27-h100-s21/lab/r53.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
source "$(dirname "$0")/checks.sh"
unpack .devrun/next33
{
tests_of fin gpu fast
sanitize_col_sums fin
PICK='col_sums/fast-(typed-strip|interleaved)(-pitched)?'
G="--ops col_sums --variants col_sums/fast-typed-strip --sizes 8192x8192,8000x6000 --reps 20 --warmups 3"
C="--ops col_sums --variants col_sums/fast-interleaved --sizes 8000x6000 --channels 3 --reps 20 --warmups 3"
for round in 1 2 3; do
  for ty in u8 u16; do
    one "$ty before ($round)" $X/bench_base --type $ty $G
    one "$ty final ($round)" $X/bench_fin --type $ty $G
  done
  one "u8 colour before ($round)" $X/bench_base --type u8 $C
  one "u8 colour final ($round)" $X/bench_fin --type u8 $C
done
step done
} 2>&1 | tee $OUT/r53.txt
