# Twenty-first session: 92-column strips (23 float4 lanes) walked by 598 threads (26 load rows,
# 104-row steps), so that 6000 columns take 66 strips x 2 fronts = 132 blocks with fewer outputs
# per thread (4000 x 23 / 598 = 154 against 4000 x 24 / 576 = 167); lab/walk_23_lanes.patch.
# Run from the repo root with carry [".devrun/next23", ".devrun/bin"]:
#   timeout 400 bash bench/results/2026-11-27-h100-s21/lab/r42.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/next23
PICK='filter_y/fast-walk(-pitched)?'
A="--ops filter_y --variants filter_y/fast-walk --reps 20 --warmups 3"
{
step "walk tests (23 lanes in the plan)"
timeout 150 $X/fast_w23 --gtest_filter='*Walk*:*walk*' --gtest_brief=1 2>&1 | tail -3
for round in 1 2; do
  one "base r64 clamp ($round)" $X/bench_base $A --sizes 8000x6000,8192x8192 --radius 64
  one "w23 r64 clamp ($round)" $X/bench_w23 $A --sizes 8000x6000,8192x8192 --radius 64
done
for b in zero wrap mirror; do
  one "base r64 $b" $X/bench_base $A --sizes 8000x6000 --radius 64 --border $b
  one "w23 r64 $b" $X/bench_w23 $A --sizes 8000x6000 --radius 64 --border $b
done
for r in 32 48; do
  one "base r$r" $X/bench_base $A --sizes 8000x6000 --radius $r
  one "w23 r$r" $X/bench_w23 $A --sizes 8000x6000 --radius $r
done
step done
} 2>&1 | tee $OUT/r42.txt
