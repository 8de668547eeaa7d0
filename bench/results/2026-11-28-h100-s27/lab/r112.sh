# Issue 15: r108's bottom-up lower runs again, now at no cost in the walk's loop
# (lab/walk_up_negative_pitch.patch): a bottom-up run reads and writes through views of the
# matrix upside down (data at the last row, the pitch negated), set once per block; r108's build
# mapped every row in the loop, and its control with no run bottom-up (upoff, r109) already lost
# 1.5-3 points. Arms: HEAD (base); neg; negoff (neg's code, no run bottom-up: its
# condition made unreachable, y0 + n == rows + span). Then Nsight
# Compute's DRAM bytes of one launch each of base and neg (8000x6000 pitched, r = 64, clamp and
# wrap): the bottom-up runs should read about 128 x 6000 x 4 bytes (3 MB) less.
# Built here (arch 90), carried in .devrun/s27.
# On the device, carry [".devrun/s27"]: timeout 400 bash bench/results/2026-11-28-h100-s27/lab/r112.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/s27
{
PICK='filter_y/fast-walk(-pitched)?'
G="--ops filter_y --variants filter_y/fast-walk --tier tuned --sizes 8000x6000,8192x8192 --reps 20 --warmups 3"
for round in 1 2 3; do
  for arm in base neg negoff; do one "r 64 clamp $arm ($round)" $X/bench_$arm $G --radius 64; done
done
for b in wrap mirror; do for arm in base neg; do one "r 64 $b $arm" $X/bench_$arm $G --radius 64 --border $b; done; done
for b in clamp wrap; do for arm in base neg; do
  step "ncu $arm $b: 8000x6000 pitched, r = 64 (kernel time ns, DRAM read, DRAM write bytes)"
  timeout 60 ncu --clock-control none -k regex:walk --launch-count 1 \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum --csv --page raw --print-units base \
    $X/bench_$arm --ops filter_y --variants filter_y/fast-walk-pitched --sizes 8000x6000 --radius 64 --border $b \
    --reps 1 --warmups 0 2>/dev/null | python3 -c '
import csv, sys
rows = [r for r in csv.reader(sys.stdin) if len(r) > 5]
h = rows[0]
for r in rows[1:]:
    if r[0] == "ID" or not r[0].isdigit(): continue
    print(" ".join(f"{k}={r[h.index(k)]}" for k in h if k.startswith(("gpu__", "dram__"))))'
done; done
step "fast variant tests neg: filter Y walks"
timeout 100 $X/fast_neg --gtest_filter='*filter_y*walk*:*Walk*' --gtest_brief=1 2>&1 | grep -E "^\[  (PASSED|SKIPPED|FAILED) |Failure" | tail -4
step "compute-sanitizer memcheck: neg, 8000x6000, r = 64, wrap"
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $X/bench_neg --ops filter_y \
  --variants filter_y/fast-walk --sizes 8000x6000 --radius 64 --border wrap --reps 1 --warmups 0 > $OUT/san-memcheck.log 2>&1
echo "rc $?: $(grep -E 'ERROR SUMMARY' $OUT/san-memcheck.log | tail -1) $(grep -cE 'verified' $OUT/san-memcheck.log) verified lines"
step done
} 2>&1 | tee $OUT/r112.txt
