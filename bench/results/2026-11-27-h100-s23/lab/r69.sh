# Nsight Compute's sections for the shipped u8 walk (two groups of 8-row steps) at r = 64:
# 8192x8192 (88.4 in the table) against 6000x8000 (90.4-90.7 in r67 with 16-row steps), pitched.
# Binary: HEAD's coalesce-bench built here (.devrun/next45). From the repo root, carry
# [".devrun/next45"]: timeout 300 bash bench/results/2026-11-27-h100-s23/lab/r69.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
mkdir -p $X && gunzip -c .devrun/next45/bench_head.gz > $X/b && chmod +x $X/b
{
for size in 8192x8192 6000x8000; do
  step "ncu, u8 filter Y r = 64 pitched, $size"
  timeout 120 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section SchedulerStats --section WarpStateStats --section Occupancy --section LaunchStats \
    -k "regex:typed_filter_y_walk" --launch-skip 2 --launch-count 1 $X/b --type u8 --ops filter_y \
    --variants filter_y/fast-int-running-pitched --sizes $size --radius 64 --reps 1 --warmups 2 \
    > $OUT/ncu-$size.txt 2>&1
  grep -E "DRAM Throughput|Memory Throughput|Duration|L2 Hit|L1/TEX Hit|Issue Slots Busy|Issued Warp|No Eligible|Active Warps Per|Eligible Warps|Warp Cycles Per Issued|Achieved Occupancy|Registers Per|Block Limit|Grid Size|Waves Per|Mem Busy|Max Bandwidth|Stall" $OUT/ncu-$size.txt | head -40
done
PICK='filter_y/fast-int-running(-pitched)?'
one "timing, same binary" $X/b --type u8 --ops filter_y --variants filter_y/fast-int-running --sizes 8192x8192,6000x8000,8000x6000 --radius 64 --reps 20 --warmups 3
step done
} 2>&1 | tee $OUT/r69.txt
