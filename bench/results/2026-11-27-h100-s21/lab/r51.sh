# Twenty-first session, the final code's check for what it changed (the typed column sums: paired
# 64-bit adds for u8, one 512-thread block per SM where those fill the chip): the whole gpu and
# fast-variant test binaries (plus the pattern and on-chip ones), compute-sanitizer memcheck and
# racecheck over every column-sums case of both (small shapes and the 2048-row wave cases), and
# the column sums against the build before this session (bench_base), four rounds. Run from the
# repo root with carry [".devrun/next31", ".devrun/bin"]:
#   timeout 560 bash bench/results/2026-11-27-h100-s21/lab/r51.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
source "$(dirname "$0")/checks.sh"
unpack .devrun/next31
{
tests_of cw gpu fast pattern onchip
sanitize_col_sums cw
PICK='col_sums/fast-(typed-strip|interleaved)(-pitched)?'
G="--ops col_sums --variants col_sums/fast-typed-strip --sizes 8192x8192,8000x6000 --reps 20 --warmups 3"
C="--ops col_sums --variants col_sums/fast-interleaved --sizes 8000x6000 --channels 3 --reps 20 --warmups 3"
for round in 1 2 3 4; do
  for ty in u8 u16; do
    one "$ty before ($round)" $X/bench_base --type $ty $G
    one "$ty final ($round)" $X/bench_cw --type $ty $G
  done
done
for round in 1 2; do
  for ty in u8 u16; do
    one "$ty colour before ($round)" $X/bench_base --type $ty $C
    one "$ty colour final ($round)" $X/bench_cw --type $ty $C
  done
done
step done
} 2>&1 | tee $OUT/r51.txt
