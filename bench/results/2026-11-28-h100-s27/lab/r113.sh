# Issue 15: per-step block timings of the f32 filter Y walk (lab/walk_step_times.patch: thread 0 of
# each block notes %globaltimer after each step's barrier and at its end; every 10th launch the
# launcher prints, per step, the earliest / median / latest block against the launch's first
# start, and each block's time from step 0 to the middle step). Do the arms that lost this
# session lose by slower steps everywhere, or by blocks drifting apart? Arms, each with the
# timing: sH HEAD; sT 624 threads at 56 registers (r110); sA copies issued mid-step (r111); sU the
# bottom-up code with no run bottom-up (r109's upoff). base: HEAD without the timing (its cost).
# Built here (arch 90), carried in .devrun/s27s.
# On the device, carry [".devrun/s27s"]: timeout 300 bash bench/results/2026-11-28-h100-s27/lab/r113.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/s27s
{
PICK='filter_y/fast-walk(-pitched)?'
for round in 1 2; do
  for arm in base sH sT sA sU; do
    step "r 64 clamp $arm ($round)"
    COALESCE_LAB_STEPS=1 timeout 60 $X/bench_$arm --ops filter_y --variants filter_y/fast-walk --tier tuned \
      --sizes 8000x6000,8192x8192 --radius 64 --reps 20 --warmups 3 > $OUT/$arm-$round.log 2>&1
    line < $OUT/$arm-$round.log
    grep '^LAB' $OUT/$arm-$round.log
  done
done
step done
} 2>&1 | tee $OUT/r113.txt
