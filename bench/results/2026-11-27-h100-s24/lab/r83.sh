# The f32 walk's slowest blocks at 8000x6000 r = 64 are the last strip's (r82): is it the strip or
# its multiprocessors? COALESCE_LAB_REV=1 gives block b the run of block 125 - b. Then longer runs
# for every block (COALESCE_LAB_RUN_PLUS=d: run 4000 + d strip-rows, the last block 125 d fewer).
# carry [".devrun/next58"]: timeout 400 bash bench/results/2026-11-27-h100-s24/lab/r83.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
mkdir -p $X && for f in .devrun/next58/*.gz; do gunzip -c $f > $X/$(basename $f .gz); done && chmod +x $X/*
source "$(dirname "$0")/s24.sh"
{
for e in "" COALESCE_LAB_REV=1 COALESCE_LAB_RUN_PLUS=2 COALESCE_LAB_RUN_PLUS=8; do
step "spans f32 walk-pitched r 64 8000x6000 clamp [$e]"
env $e COALESCE_LAB_TIMES=1 timeout 60 $X/bench_f --ops filter_y --variants filter_y/fast-walk-pitched --sizes 8000x6000 --radius 64 --reps 2 --warmups 1 2>&1 | grep LAB | tail -4 | spans_summary
done
PICK='filter_y/fast-walk(-pitched)?'
for round in 1 2 3; do
  for e in X=0 COALESCE_LAB_REV=1 COALESCE_LAB_RUN_PLUS=1 COALESCE_LAB_RUN_PLUS=2 COALESCE_LAB_RUN_PLUS=4 COALESCE_LAB_RUN_PLUS=8; do
    one "f32 r 64 8000x6000 $e ($round)" $e $X/bench_f --ops filter_y --variants filter_y/fast-walk --sizes 8000x6000 --radius 64 --reps 20 --warmups 3
  done
done
step done
} 2>&1 | tee $OUT/r83.txt
