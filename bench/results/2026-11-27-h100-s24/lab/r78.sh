# Paired walks (lab: COALESCE_LAB_PAIR=1): in a one-wave grid, blocks q and q + half walk the two
# ends of a pair's rows toward each other, each owning 3/8 of them and claiming the middle quarter
# 16 rows at a time, so the block a multiprocessor took second (slower, r77) does fewer rows.
# bench_base: HEAD with r76's timing; bench_pair: this build. carry [".devrun/next53"]:
# timeout 560 bash bench/results/2026-11-27-h100-s24/lab/r78.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
mkdir -p $X && for f in .devrun/next53/*.gz; do gunzip -c $f > $X/$(basename $f .gz); done && chmod +x $X/*
{
step "typed and colour filter Y tests, paired"
COALESCE_LAB_PAIR=1 timeout 120 $X/gpu_pair --gtest_filter='*Typed*filter_y*:*Colour*filter_y*' --gtest_brief=1 2>&1 | grep -E "^\[  (PASSED|SKIPPED|FAILED) |Failure" | head -8
step "verified, paired, u8/u16 r = 64, 32, 4 at 8192x8192, 4000x3000, 2100x700 (every border at r 64)"
for ty in u8 u16; do for r in 64 32 4; do
  COALESCE_LAB_PAIR=1 timeout 60 $X/bench_pair --type $ty --ops filter_y --variants filter_y/fast-int-running --sizes 8192x8192,4000x3000,2100x700 --radius $r --reps 1 --warmups 1 2>&1 | grep -E "verified" | tail -1 | sed "s/^/$ty r$r: /"
done; done
for bd in zero wrap mirror; do
  COALESCE_LAB_PAIR=1 timeout 60 $X/bench_pair --type u8 --ops filter_y --variants filter_y/fast-int-running --sizes 8192x8192,2100x700 --radius 64 --border $bd --reps 1 --warmups 1 2>&1 | grep -E "verified" | tail -1 | sed "s/^/u8 $bd: /"
done
for tool in memcheck racecheck; do
  step "$tool, paired, u8 r 64 and u16 r 64 at 2100x700, 1300x2000"
  for ty in u8 u16; do
  COALESCE_LAB_PAIR=1 timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $X/bench_pair --type $ty --ops filter_y \
    --variants filter_y/fast-int-running --sizes 2100x700,1300x2000 --radius 64 --reps 2 --warmups 0 > $OUT/san.log 2>&1
  echo "$ty rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san.log | tail -1) $(grep -E 'verified' $OUT/san.log | tail -1)"
  done
done
step "spans, paired, u8 r 64 8192x8192 (one launch, dense)"
COALESCE_LAB_PAIR=1 COALESCE_LAB_TIMES=1 COALESCE_LAB_GRID=1 timeout 60 $X/bench_pair --type u8 --ops filter_y --variants filter_y/fast-int-running --sizes 8192x8192 --radius 64 --reps 1 --warmups 0 2>&1 | grep LAB | head -19
PICK='filter_y/fast-int-running(-pitched)?'
G="--ops filter_y --variants filter_y/fast-int-running --reps 20 --warmups 3"
for round in 1 2 3; do
  for b in base nopair pair; do
    B=$X/bench_pair; E=(); [ $b = base ] && B=$X/bench_base; [ $b = pair ] && E=(COALESCE_LAB_PAIR=1)
    one "u8 r 64 $b ($round)" "${E[@]}" $B --type u8 $G --sizes 8192x8192,8000x6000 --radius 64
    one "u8 r 48 $b ($round)" "${E[@]}" $B --type u8 $G --sizes 8192x8192 --radius 48
    one "u16 r 64 $b ($round)" "${E[@]}" $B --type u16 $G --sizes 8192x8192,8000x6000 --radius 64
  done
done
step done
} 2>&1 | tee $OUT/r78.txt
