# u8 column sums at 8192x8192: every block's start, end of loads and end (%globaltimer), from
# lab/col_sums_spans.patch (a report every 8th launch). Binary built here (arch 90), carried
# gzipped in .devrun/s26b. From the repo root, carry [".devrun/s26b"]:
# timeout 200 bash bench/results/2026-11-27-h100-s26/lab/r100.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/s26b
{
B="$X/bench_spans --tier tuned --ops col_sums --sizes 8192x8192 --reps 20 --warmups 3"
for v in col_sums/fast-typed-strip col_sums/fast-typed-strip-pitched; do
  step "u8 $v: spans"
  COALESCE_LAB_TIMES=1 timeout 60 $B --type u8 --variants $v 2>&1 | grep -E "LAB|$v " | head -8
done
step "u8 pitched: the grid of load ends (us), chunk by strip"
COALESCE_LAB_TIMES=1 COALESCE_LAB_GRID=1 timeout 60 $B --type u8 --variants col_sums/fast-typed-strip-pitched 2>&1 | grep -E "LAB" | head -12
step "u8 without the lab report (the bench line)"
timeout 60 $B --type u8 --variants col_sums/fast-typed-strip,col_sums/fast-typed-strip-pitched,row_sums/fast-typed-dp4a --ops col_sums,row_sums 2>&1 | grep -E "^[a-z_]+ +[a-z_]+/|copy" | head -12
step done
} 2>&1 | tee $OUT/r100.txt
