# The u8 r = 64 walk's per-block end times at 8192x8192 as a grid (walk x strip), three launches
# of the dense variant, to see whether the slow blocks sit at fixed places. carry [".devrun/next52"]
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
mkdir -p $X && for f in .devrun/next52/*.gz; do gunzip -c $f > $X/$(basename $f .gz); done && chmod +x $X/*
{
step "grids u8 r 64 8192x8192 dense"
COALESCE_LAB_TIMES=1 COALESCE_LAB_GRID=1 timeout 60 $X/bench_lab --type u8 --ops filter_y --variants filter_y/fast-int-running --sizes 8192x8192 --radius 64 --reps 3 --warmups 0 2>&1 | grep LAB | head -57
step done
} 2>&1 | tee $OUT/r77.txt
