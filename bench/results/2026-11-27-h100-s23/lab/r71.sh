# Where the kept u8 walk's cycles stall, per SASS instruction (bench/ncu_source.sh), r = 64
# pitched, 8192x8192 and r = 4 for contrast. Binary: .devrun/next45 (HEAD's bench). From the repo
# root, carry [".devrun/next45"]: timeout 300 bash bench/results/2026-11-27-h100-s23/lab/r71.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
mkdir -p $X && gunzip -c .devrun/next45/bench_head.gz > $X/b && chmod +x $X/b
{
for r in 64 4; do
  step "ncu source, u8 filter Y pitched, 8192x8192, r = $r"
  timeout 120 bash bench/ncu_source.sh $X/b typed_filter_y_walk $OUT/src-r$r.csv --type u8 \
    --ops filter_y --variants filter_y/fast-int-running-pitched --sizes 8192x8192 --radius $r 2>&1 | tail -40
done
step done
} 2>&1 | tee $OUT/r71.txt
