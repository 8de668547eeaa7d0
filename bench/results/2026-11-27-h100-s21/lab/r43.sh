# Twenty-first session: the u8 filter Y walk in narrow strips and few fronts, one wave, one seed
# per long walk (lab/u8_walk_narrow.patch): COALESCE_YW_NARROW=A 128-byte strips, 16 row groups
# (512 threads, 256-row steps); C 256-byte strips, 8 groups (512 threads, 128-row steps);
# COALESCE_YW_TARGET the walks' rows (4096: two walks per strip, one going up). Run from the repo
# root with carry [".devrun/next24", ".devrun/bin"]:
#   timeout 400 bash bench/results/2026-11-27-h100-s21/lab/r43.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/next24
PICK='filter_y/fast-(int-running|interleaved|planar)(-pitched)?'
A="--type u8 --ops filter_y --variants filter_y/fast-int-running --sizes 8192x8192 --reps 20 --warmups 3"
{
for n in A C; do
  step "tests, narrow $n"
  COALESCE_YW_NARROW=$n timeout 100 $X/fast_nar --gtest_filter='*filter_y_fast_int_running*' --gtest_brief=1 2>&1 | tail -2
  COALESCE_YW_NARROW=$n COALESCE_YW_TARGET=512 timeout 100 $X/gpu_nar --gtest_filter='*Typed*filter_y*' --gtest_brief=1 2>&1 | tail -2
done
for round in 1 2; do
  one "base r64 ($round)" $X/bench_base $A --radius 64
  one "A 2 walks r64 ($round)" COALESCE_YW_NARROW=A COALESCE_YW_TARGET=4096 $X/bench_nar $A --radius 64
  one "A 4 walks r64 ($round)" COALESCE_YW_NARROW=A COALESCE_YW_TARGET=2048 $X/bench_nar $A --radius 64
  one "C 4 walks r64 ($round)" COALESCE_YW_NARROW=C COALESCE_YW_TARGET=2048 $X/bench_nar $A --radius 64
done
one "base r4" $X/bench_base $A --radius 4
one "A 2 walks r4" COALESCE_YW_NARROW=A COALESCE_YW_TARGET=4096 $X/bench_nar $A --radius 4
one "C 4 walks r4" COALESCE_YW_NARROW=C COALESCE_YW_TARGET=2048 $X/bench_nar $A --radius 4
step done
} 2>&1 | tee $OUT/r43.txt
