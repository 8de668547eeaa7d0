# Per-block spans of the u8 filter Y walk (lab build: globaltimer and %smid at each block's start
# and end, printed per launch with COALESCE_LAB_TIMES=1), at r = 64 (one wave) and r = 4 (several),
# and the r = 64 walk on a taller image (two waves of the same walks). carry [".devrun/next51"]:
# timeout 300 bash bench/results/2026-11-27-h100-s24/lab/r76.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
mkdir -p $X && for f in .devrun/next51/*.gz; do gunzip -c $f > $X/$(basename $f .gz); done && chmod +x $X/*
{
PICK='filter_y/fast-int-running(-pitched)?'
G="--type u8 --ops filter_y --variants filter_y/fast-int-running --reps 20 --warmups 3"
one "u8 r 64 8192x8192, 16384x8192 (no timing)" $X/bench_lab $G --sizes 8192x8192,16384x8192 --radius 64
one "u8 r 4 8192x8192 (no timing)" $X/bench_lab $G --sizes 8192x8192 --radius 4
for sz in 8192x8192 16384x8192; do for r in 64 4; do
step "spans u8 r $r $sz (dense, last 2 of 4 launches)"
COALESCE_LAB_TIMES=1 timeout 60 $X/bench_lab --type u8 --ops filter_y --variants filter_y/fast-int-running --sizes $sz --radius $r --reps 2 --warmups 1 2>&1 | grep LAB | tail -4
done; done
step done
} 2>&1 | tee $OUT/r76.txt
