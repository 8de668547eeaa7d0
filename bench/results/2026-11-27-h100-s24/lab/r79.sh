# The walk's strips held in step by thread block clusters (lab: COALESCE_LAB_CLUSTER=N launches
# clusters of N consecutive blocks, the strips of one walk; COALESCE_LAB_CSYNC=1 adds a split
# cluster barrier per step: arrive after the step's copies are issued, wait before the next
# step's barrier). bench_base: HEAD with r76's timing. carry [".devrun/next54"]:
# timeout 560 bash bench/results/2026-11-27-h100-s24/lab/r79.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
mkdir -p $X && for f in .devrun/next54/*.gz; do gunzip -c $f > $X/$(basename $f .gz); done && chmod +x $X/*
{
step "typed filter Y tests, cluster 8 + sync"
COALESCE_LAB_CLUSTER=8 COALESCE_LAB_CSYNC=1 timeout 120 $X/gpu_cl --gtest_filter='*Typed*filter_y*:*Colour*filter_y*' --gtest_brief=1 2>&1 | grep -E "^\[  (PASSED|SKIPPED|FAILED) |Failure|LAB" | head -8
step "racecheck, cluster 8 + sync, u8 r 64 4096x4096"
COALESCE_LAB_CLUSTER=8 COALESCE_LAB_CSYNC=1 timeout 90 compute-sanitizer --tool racecheck --error-exitcode 9 $X/bench_cl --type u8 --ops filter_y \
    --variants filter_y/fast-int-running --sizes 4096x4096 --radius 64 --reps 1 --warmups 0 > $OUT/san.log 2>&1
echo "rc $?: $(grep -E 'RACECHECK SUMMARY' $OUT/san.log | tail -1) $(grep -E 'verified' $OUT/san.log | tail -1)"
for c in 8 4; do for sy in 0 1; do
  E=(COALESCE_LAB_CLUSTER=$c); [ $sy = 1 ] && E+=(COALESCE_LAB_CSYNC=1)
  step "spans, cluster $c sync $sy, u8 r 64 8192x8192 dense"
  env "${E[@]}" COALESCE_LAB_TIMES=1 COALESCE_LAB_GRID=1 timeout 60 $X/bench_cl --type u8 --ops filter_y --variants filter_y/fast-int-running --sizes 8192x8192 --radius 64 --reps 1 --warmups 0 2>&1 | grep LAB | head -${GRIDLINES:-4}
done; done
PICK='filter_y/fast-int-running(-pitched)?'
G="--ops filter_y --variants filter_y/fast-int-running --reps 20 --warmups 3"
for round in 1 2; do
  for b in base plain c8 c8s c4s c2s; do
    B=$X/bench_cl; E=()
    case $b in base) B=$X/bench_base;; c8) E=(COALESCE_LAB_CLUSTER=8);; c8s) E=(COALESCE_LAB_CLUSTER=8 COALESCE_LAB_CSYNC=1);;
      c4s) E=(COALESCE_LAB_CLUSTER=4 COALESCE_LAB_CSYNC=1);; c2s) E=(COALESCE_LAB_CLUSTER=2 COALESCE_LAB_CSYNC=1);; esac
    one "u8 r 64 $b ($round)" "${E[@]}" $B --type u8 $G --sizes 8192x8192,8000x6000 --radius 64
    one "u8 r 4 $b ($round)" "${E[@]}" $B --type u8 $G --sizes 8192x8192 --radius 4
    one "u16 r 64 $b ($round)" "${E[@]}" $B --type u16 $G --sizes 8192x8192 --radius 64
  done
done
step done
} 2>&1 | tee $OUT/r79.txt
