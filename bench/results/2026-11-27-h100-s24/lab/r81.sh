# A static split instead of r78's claims (lab: COALESCE_LAB_SPLIT=f, per mille): blocks q and
# q + half walk toward each other over a pair's rows, the first-half block (the multiprocessors'
# first, faster: r77) f of them. 500 is the remap alone. carry [".devrun/next56"]:
# timeout 560 bash bench/results/2026-11-27-h100-s24/lab/r81.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
mkdir -p $X && for f in .devrun/next56/*.gz; do gunzip -c $f > $X/$(basename $f .gz); done && chmod +x $X/*
{
step "typed filter Y tests, split 560"
COALESCE_LAB_SPLIT=560 timeout 120 $X/gpu_s --gtest_filter='*Typed*filter_y*:*Colour*filter_y*' --gtest_brief=1 2>&1 | grep -E "^\[  (PASSED|SKIPPED|FAILED) |Failure" | head -8
for bd in clamp mirror; do
  COALESCE_LAB_SPLIT=560 timeout 60 $X/bench_s --type u8 --ops filter_y --variants filter_y/fast-int-running --sizes 8192x8192,2100x700,8000x6000 --radius 64 --border $bd --reps 1 --warmups 1 2>&1 | grep -E "verified" | tail -1 | sed "s/^/$bd r 64: /"
done
for sp in 500 560; do
step "spans, split $sp, u8 r 64 8192x8192 dense"
COALESCE_LAB_SPLIT=$sp COALESCE_LAB_TIMES=1 COALESCE_LAB_GRID=1 timeout 60 $X/bench_s --type u8 --ops filter_y --variants filter_y/fast-int-running --sizes 8192x8192 --radius 64 --reps 1 --warmups 0 2>&1 | grep LAB | head -17
done
PICK='filter_y/fast-int-running(-pitched)?'
G="--type u8 --ops filter_y --variants filter_y/fast-int-running --reps 20 --warmups 3"
for round in 1 2 3; do
  for sp in 0 500 530 560 600; do
    one "u8 r 64 split $sp ($round)" COALESCE_LAB_SPLIT=$sp $X/bench_s $G --sizes 8192x8192,8000x6000 --radius 64
  done
done
step done
} 2>&1 | tee $OUT/r81.txt
