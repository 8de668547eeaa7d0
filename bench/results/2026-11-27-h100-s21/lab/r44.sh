# Twenty-first session: the walk's two-block instances with their registers set by __maxnreg__
# (56, 64, 72, 80; lab/walk_maxnreg.patch, LAB_MAXNREG) instead of the two-block bound, one block
# per multiprocessor at r = 64 either way. Run from the repo root with carry
# [".devrun/next25", ".devrun/bin"]: timeout 400 bash bench/results/2026-11-27-h100-s21/lab/r44.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/next25
PICK='filter_y/fast-walk(-pitched)?'
A="--ops filter_y --variants filter_y/fast-walk --sizes 8000x6000,8192x8192 --radius 64 --reps 20 --warmups 3"
{
for round in 1 2; do
  one "base ($round)" $X/bench_base $A
  for n in 56 64 72 80; do one "maxnreg $n ($round)" $X/bench_m$n $A; done
done
step done
} 2>&1 | tee $OUT/r44.txt
