# Prepared in the twenty-second session for the next (not run): the u8 filter Y walk above r = 40
# in other shapes (lab/u8_walk_knob.patch on ad720ca, COALESCE_FY_WALK): 1 = four row groups of
# 8-row steps, one step in flight, two 512-thread blocks per SM (64 registers, no spill; ring 102 KB
# at r = 64: 32 warps per SM against the shipped 16); 2 = four groups of 8-row steps, two in
# flight, one block (103 registers); 3 = two groups of 16-row steps, one in flight, two 256-thread
# blocks (128 registers); 0 = shipped (four groups of 16 rows, two in flight, 128 registers, one
# block). coalesce-bench verifies every run exactly; racecheck and memcheck run the bench itself on
# a small image per shape. Binary in the local scratch folder .devrun/next41. From the repo root,
# carry [".devrun/next41"]: timeout 400 bash bench/results/2026-11-27-h100-s22/lab/r64.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
mkdir -p $X && gunzip -c .devrun/next41/bench_fyk.gz > $X/bench_fyk && chmod +x $X/bench_fyk
{
for k in 1 2 3; do
  for tool in memcheck racecheck; do
    step "compute-sanitizer $tool, shape $k, u8 filter Y r = 64, 300x2000"
    COALESCE_FY_WALK=$k timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $X/bench_fyk \
      --type u8 --ops filter_y --variants filter_y/fast-int-running \
      --sizes 300x2000 --radius 64 --reps 1 --warmups 0 > $OUT/san-$tool-$k.log 2>&1
    echo "rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$tool-$k.log | tail -1) $(grep -E 'verified, ' $OUT/san-$tool-$k.log | tail -1)"
  done
done
PICK='filter_y/fast-int-running(-pitched)?'
G="--type u8 --ops filter_y --variants filter_y/fast-int-running --sizes 8192x8192,8000x6000 --reps 20 --warmups 3"
for round in 1 2 3; do
  for k in 0 1 2 3; do one "r 64 shape $k ($round)" COALESCE_FY_WALK=$k $X/bench_fyk $G --radius 64; done
done
for r in 48 56; do
  for k in 0 1; do one "r $r shape $k" COALESCE_FY_WALK=$k $X/bench_fyk $G --radius $r; done
done
PICK='filter_y/fast-interleaved'
for k in 0 1 2 3; do
  one "colour r 64 shape $k" COALESCE_FY_WALK=$k $X/bench_fyk --type u8 --ops filter_y \
    --variants filter_y/fast-interleaved --sizes 8000x6000 --channels 3 --radius 64 --reps 20 --warmups 3
done
# The colour image's interleaved rows over the pitched walk (lab/colour_fy_pitched.patch, binary
# bench_cfp: HEAD plus filter_y/fast-interleaved-pitched): dense 18000-byte rows put about two
# rows in eight at the probe's slow offsets (48, 80 mod 128), a pitch of 18432 none.
gunzip -c .devrun/next41/bench_cfp.gz > $X/bench_cfp && chmod +x $X/bench_cfp
PICK='filter_y/fast-interleaved(-pitched)?'
for round in 1 2; do
  for t in u8 u16; do
    for r in 4 64; do
      one "colour $t r $r, dense and pitched ($round)" $X/bench_cfp --type $t --ops filter_y \
        --variants filter_y/fast-interleaved --sizes 8000x6000 --channels 3 --radius $r --reps 20 --warmups 3
    done
  done
done
step done
} 2>&1 | tee $OUT/r64.txt
