# Prepared in the nineteenth session for the next one; run from the repo root with carry [".devrun"].
# Binaries were built from 70a7949 (bench_base: HEAD's kernels) and from the patches beside this.
#  1) filter Y's tile in 16-column tiles (512 rows) at r > 32, aligned rows: the tile's tests, then
#     A/B against base at r = 48 and 64, every border, 8000x6000 and 8192x8192 (NOTES, nineteenth
#     round, "Next": 2.8 tile rows resident at 6000 columns). Note: tx = 4 leaves the sums' shared
#     reads 2-way bank-conflicted (rows 8 apart are 512 bytes apart); pad if it looks promising.
#  2) the u8 filter Y walk with COALESCE_YWALK_SPIN dependent FMAs per step: does pacing lift it?
source "$(dirname "$0")/common.sh"
unpack .devrun/next
{
step "tile tests (tx4 build)"
timeout 120 $X/fast_tx4 --gtest_filter='*filter_y_fast_tile*' --gtest_brief=1 2>&1 | tail -2
timeout 120 $X/gpu_tx4 --gtest_filter='*filter_y*' --gtest_brief=1 2>&1 | tail -2
for round in 1 2 3; do for b in base tx4; do
  step "round $round $b r 64 clamp"
  $X/bench_$b --ops filter_y --variants filter_y/fast-tile --sizes 8000x6000,8192x8192 --radius 64 --reps 20 --warmups 3 2>&1 | line
done; done
for b in base tx4; do for bd in zero wrap mirror; do
  step "$b r 64 $bd"
  $X/bench_$b --ops filter_y --variants filter_y/fast-tile --sizes 8000x6000,8192x8192 --radius 64 --border $bd --reps 20 --warmups 3 2>&1 | line
done
  step "$b r 48 clamp"
  $X/bench_$b --ops filter_y --variants filter_y/fast-tile --sizes 8000x6000,8192x8192 --radius 48 --reps 20 --warmups 3 2>&1 | line
done
for s in 0 8 16 32 48 64 96 128; do
  step "u8 walk spin $s"
  COALESCE_YWALK_SPIN=$s $X/bench_u8spin --type u8 --ops filter_y --variants filter_y/fast-int-running --sizes 8192x8192,8000x6000 --radius 64 --reps 20 --warmups 3 2>&1 | line
  COALESCE_YWALK_SPIN=$s $X/bench_u8spin --type u8 --channels 3 --ops filter_y --variants filter_y/fast-planar,filter_y/fast-interleaved --sizes 8000x6000 --radius 64 --reps 20 --warmups 3 2>&1 | line
done
step done
} 2>&1 | tee $OUT/r36.txt
