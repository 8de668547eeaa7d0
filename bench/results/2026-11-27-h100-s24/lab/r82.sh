# Block spans of the f32 filter Y walk (filter_y/fast-walk-pitched) at r = 64 (lab: %globaltimer
# and %smid per block, COALESCE_LAB_TIMES=1), 8000x6000 (126 blocks) and 8192x8192.
# carry [".devrun/next57"]: timeout 200 bash bench/results/2026-11-27-h100-s24/lab/r82.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
mkdir -p $X && for f in .devrun/next57/*.gz; do gunzip -c $f > $X/$(basename $f .gz); done && chmod +x $X/*
{
PICK='filter_y/fast-walk(-pitched)?'
one "f32 r 64 walk (no timing)" $X/bench_f --ops filter_y --variants filter_y/fast-walk --sizes 8000x6000,8192x8192 --radius 64 --reps 20 --warmups 3
for sz in 8000x6000 8192x8192; do for bd in clamp mirror; do
step "spans f32 walk-pitched r 64 $sz $bd (3 launches)"
COALESCE_LAB_TIMES=1 timeout 60 $X/bench_f --ops filter_y --variants filter_y/fast-walk-pitched --sizes $sz --radius 64 --border $bd --reps 2 --warmups 1 2>&1 | grep LAB
done; done
step done
} 2>&1 | tee $OUT/r82.txt
