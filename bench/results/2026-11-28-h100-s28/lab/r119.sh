# Prepared in the twenty-eighth session and NOT run (its device time was spent). Issue 15: three
# levers on the ends of the f32 walk, which sit on every block's path (README section 2).
#   s1  = lab/walk_halo_ca.patch: halo rows copied with cp.async.ca (L1 merges clamp's 128 copies
#         of row 0 per block); fast_walk_runs.cuh, so the scan walk has it too.
#   s2  = lab/walk_last_step_skip.patch: thread rows with no output row skip their window sums
#         (the last step at 6000 columns has 64 of 96 rows).
#   s3  = lab/walk_stream_offset.patch: s2 plus one-piece runs starting their stream 32 positions
#         early at 6000 columns (8 at 8192): 42 steps still, group 0 of 192 rows instead of 224.
#   sL  = HEAD with lab/walk_entry_grid.patch: each block's %smid, step 0 and end, from the first
#         block's entry (does the lower front, with 224 real rows in group 0, start later?).
# (An arm with both patches would overrun the 64 MiB that may travel with the tree; build it
# once one of them wins.)
#   sP  = HEAD f156c8b (the kernels are unchanged since).
# Binaries in the local .devrun/s29 (bench_*.gz, fast_*.gz = coalesce_fast_variant_tests); to
# rebuild, apply the patch to the kernels, ninja -C build-dev bin/coalesce-bench
# bin/coalesce_fast_variant_tests, gzip both. The tests come first: an arm that fails them is not
# timed.
# On the device, carry [".devrun/s29"]: timeout 560 bash bench/results/2026-11-28-h100-s28/lab/r119.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/s29
PICK='filter_y/fast-walk(-pitched)?'
A="--ops filter_y --variants filter_y/fast-walk --tier tuned --sizes 8000x6000,8192x8192 --radius 64 --reps 30 --warmups 3"
F='*filter_y_fast_walk*-*prefix*'
{
arms="sP"
keep_passing "$F" s1 s2 s3
for round in 1 2; do
  for arm in $arms; do one "round $round $arm" $X/bench_$arm $A; done
done
for b in wrap mirror zero; do
  for arm in $arms; do one "$b $arm" $X/bench_$arm $A --border $b; done
done
step "sL: step 0 and end per front, 8000x6000 pitched, clamp and wrap"
for b in clamp wrap; do
  COALESCE_LAB_STEPS=1 COALESCE_LAB_GRID=1 timeout 60 $X/bench_sL --ops filter_y \
    --variants filter_y/fast-walk-pitched --tier tuned --sizes 8000x6000 --radius 64 --border $b \
    --reps 20 --warmups 3 2>&1 | grep -E '^LABGRID' | tr ' ' '\n' | grep -E '^[0-9]+:' |
    awk -F: -v b=$b '{f=$1%2; n[f]++; s[f]+=$3; e[f]+=$4; if ($3>ms[f]) ms[f]=$3; if ($4>me[f]) me[f]=$4}
      END {for (f=0; f<2; f++) printf "%s %s front: mean step0 %.2f (max %.2f), mean end %.1f (max %.1f), %d block-launches\n",
        b, f ? "lower" : "upper", s[f]/n[f], ms[f], e[f]/n[f], me[f], n[f]}'
done
step done
} 2>&1 | tee $OUT/r119.txt
