# u8 filter Y at r = 64, 8192x8192 (issue 14's last grey point): shapes 3 <128, 2, 16, Ahead 1, 2
# blocks> and 5 <128, 2, 8, Ahead 2, 2 blocks> of r65, with lab/u8_walk_early.patch's knobs:
# COALESCE_FY_EARLY=1 issues group Ahead's copies before the seed (its slots are free then),
# COALESCE_FY_WALKS=n forces n walks. 8192x8200 and 8200x8192 ask whether walks 4 MB apart (a
# power of two) cost. From the repo root, carry [".devrun/next43"]:
# timeout 500 bash bench/results/2026-11-27-h100-s23/lab/r66.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
mkdir -p $X && gunzip -c .devrun/next43/bench_k3.gz > $X/b && chmod +x $X/b
{
for k in 3 5; do
  for tool in memcheck racecheck; do
    step "compute-sanitizer $tool, shape $k early, u8 filter Y r = 64 and 48, 300x2000 and 3x700"
    COALESCE_FY_EARLY=1 COALESCE_FY_WALK=$k timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $X/b \
      --type u8 --ops filter_y --variants filter_y/fast-int-running \
      --sizes 300x2000,3x700,513x200 --radius 64 --reps 1 --warmups 0 > $OUT/san-$tool-$k.log 2>&1
    echo "rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$tool-$k.log | tail -1) $(grep -E 'verified, ' $OUT/san-$tool-$k.log | tail -1)"
  done
done
PICK='filter_y/fast-int-running(-pitched)?'
G="--type u8 --ops filter_y --variants filter_y/fast-int-running --reps 20 --warmups 3"
for round in 1 2 3; do
  for k in 0 3 5; do
    for e in 0 1; do
      one "r 64 shape $k early $e ($round)" COALESCE_FY_WALK=$k COALESCE_FY_EARLY=$e $X/b $G --sizes 8192x8192,8000x6000 --radius 64
    done
  done
done
for k in 3 5; do
  one "r 64 shape $k, 8192x8200 and 8200x8192" COALESCE_FY_WALK=$k $X/b $G --sizes 8192x8200,8200x8192 --radius 64
done
for k in 3 5; do
  for n in 12 14 15 16 20 24 32; do
    one "r 64 shape $k, $n walks" COALESCE_FY_WALK=$k COALESCE_FY_WALKS=$n $X/b $G --sizes 8192x8192 --radius 64
  done
done
for round in 1 2; do
  for k in 3 5; do
    for r in 41 48 56; do
      one "r $r shape $k ($round)" COALESCE_FY_WALK=$k $X/b $G --sizes 8192x8192,8000x6000 --radius $r
    done
  done
done
step done
} 2>&1 | tee $OUT/r66.txt
