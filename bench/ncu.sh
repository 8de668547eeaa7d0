#!/usr/bin/env bash
# bench/ncu.sh BENCH SIZES VARIANTS: Nsight Compute counters for one timed launch of each variant
# at each size (the bench's verification and warm-up launches are skipped), clocks left as the
# card has them. Prints one line per kernel launch: DRAM bytes against the engine's model, DRAM
# and L2 throughput, achieved occupancy, shared-memory bank conflicts.
set -uo pipefail
bench=$1 sizes=$2 variants=$3
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
metrics+=,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum
metrics+=,lts__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed.sum
IFS=, read -ra vs <<< "$variants"
IFS=, read -ra ss <<< "$sizes"
for v in "${vs[@]}"; do
  for s in "${ss[@]}"; do
    echo "## $v $s"
    ncu --clock-control none --launch-count 6 --metrics "$metrics" --csv --page raw --print-units base \
      "$bench" --variants "$v" --sizes "$s" --reps 1 --warmups 1 2>/dev/null |
      python3 "$(dirname "$0")/ncu_table.py"
  done
done
