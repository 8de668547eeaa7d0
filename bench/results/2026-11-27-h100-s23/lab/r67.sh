# Walks 512 rows apart on 8192-byte rows start 4 MB apart and move in step; r66 saw 8200x8192
# (walks of 513 rows) run 2 points above 8192x8192. lab/u8_walk_rows.patch: COALESCE_FY_ODD=d adds
# d rows to an even walk length (u8 and u16 walks, every radius), COALESCE_FY_WALK_ROWS=n forces it.
# From the repo root, carry [".devrun/next44"]: timeout 500 bash bench/results/2026-11-27-h100-s23/lab/r67.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
mkdir -p $X && gunzip -c .devrun/next44/bench_k4.gz > $X/b && chmod +x $X/b
{
for tool in memcheck racecheck; do
  step "compute-sanitizer $tool, shape 3, walk rows + 1, u8 r = 64 and u16 r = 4"
  COALESCE_FY_WALK=3 COALESCE_FY_ODD=1 timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $X/b \
    --type u8,u16 --ops filter_y --variants filter_y/fast-int-running \
    --sizes 300x2000,3x700,513x200 --radius 4,64 --reps 1 --warmups 0 > $OUT/san-$tool.log 2>&1
  echo "rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$tool.log | tail -1) $(grep -E 'verified, ' $OUT/san-$tool.log | tail -1)"
done
PICK='filter_y/fast-int-running(-pitched)?'
G="--ops filter_y --variants filter_y/fast-int-running --reps 20 --warmups 3"
for round in 1 2; do
  for k in 3 5; do
    for d in 0 1 8 16 32; do
      one "u8 r 64 shape $k, walk rows + $d ($round)" COALESCE_FY_WALK=$k COALESCE_FY_ODD=$d $X/b --type u8 $G --sizes 8192x8192 --radius 64
    done
  done
  for d in 0 1 8; do
    one "u8 r 64 shape 3 early, walk rows + $d ($round)" COALESCE_FY_WALK=3 COALESCE_FY_EARLY=1 COALESCE_FY_ODD=$d $X/b --type u8 $G --sizes 8192x8192 --radius 64
  done
  for t in u8 u16; do
    for r in 1 4 64; do
      [ $t = u8 ] && [ $r = 64 ] && continue
      for d in 0 1 8; do
        one "$t r $r shipped shape, walk rows + $d ($round)" COALESCE_FY_ODD=$d $X/b --type $t $G --sizes 8192x8192 --radius $r
      done
    done
  done
  for d in 0 1; do
    one "u8 r 64 shape 3, 8000x6000 and 6000x8000, walk rows + $d ($round)" COALESCE_FY_WALK=3 COALESCE_FY_ODD=$d $X/b --type u8 $G --sizes 8000x6000,6000x8000 --radius 64
  done
done
PICK='filter_y/fast-interleaved(-pitched)?'
for d in 0 1; do
  one "colour u8 r 64 shape 3, walk rows + $d" COALESCE_FY_WALK=3 COALESCE_FY_ODD=$d $X/b --type u8 --ops filter_y \
    --variants filter_y/fast-interleaved --sizes 8000x6000 --channels 3 --radius 64 --reps 20 --warmups 3
done
step done
} 2>&1 | tee $OUT/r67.txt
