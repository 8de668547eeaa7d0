# Issue 15, after r108 (the bottom-up lower runs lost 3-5 points at r = 64, both sizes, every
# border, and won 2-5 at r = 48): is it the phase? Walked down, the lower front's seed (2r rows
# from DRAM) starts it a little behind the upper front's (border rows, cached); bottom-up, both
# seeds are border rows and the two fronts step in phase. Arms: HEAD (base); up (r108's); up800 /
# up1600 / up3200 (lab/walk_up_delay.patch, COALESCE_LAB_UP_DELAY_NS): the bottom-up runs start 0.8 / 1.6 / 3.2 us late (thread 0 spins on
# %globaltimer; a step is about 3.3 us at 8000x6000); upoff: up's code with no run bottom-up
# (its condition made unreachable: y0 + n == rows + span; the cost of its instructions). All built here like r108, carried in .devrun/s27.
# On the device, carry [".devrun/s27"]: timeout 420 bash bench/results/2026-11-28-h100-s27/lab/r109.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/s27
{
PICK='filter_y/fast-walk(-pitched)?'
G="--ops filter_y --variants filter_y/fast-walk --tier tuned --sizes 8000x6000,8192x8192 --reps 20 --warmups 3"
for round in 1 2 3; do
  for arm in base up upoff up800 up1600 up3200; do one "r 64 clamp $arm ($round)" $X/bench_$arm $G --radius 64; done
done
step done
} 2>&1 | tee $OUT/r109.txt
