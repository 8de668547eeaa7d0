#!/usr/bin/env bash
# bench/ncu.sh BENCH SIZES VARIANTS: Nsight Compute counters for the launches of each variant at
# each size run with --reps 1 --warmups 1 (verification, warm-up and timed launch: read the last
# line of each), clocks left as the card has them. One line per kernel launch: time, DRAM bytes
# and throughput, L2 traffic and hit rate, achieved occupancy, shared-memory bank conflicts,
# instructions. NCU_PEER (a python3 -c program) profiles a peer the same way.
set -uo pipefail
bench=$1 sizes=$2 variants=$3
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
metrics+=,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum
metrics+=,lts__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed.sum
profile() { ncu --clock-control none --metrics "$metrics" --csv --page raw --print-units base "$@" 2>/dev/null |
  python3 "$(dirname "$0")/ncu_table.py"; }
IFS=, read -ra vs <<< "$variants"
IFS=, read -ra ss <<< "$sizes"
for v in "${vs[@]}"; do
  for s in "${ss[@]}"; do
    echo "## $v $s"
    profile --launch-count 6 "$bench" --variants "$v" --sizes "$s" --reps 1 --warmups 1
  done
done
# The fastest peer where it beats us (CuPy's row sums at 8192x8192): which kernel, and its counters.
if [ -n "${NCU_PEER:-}" ]; then
  echo "## peer: $NCU_PEER"
  profile --launch-count 6 python3 -c "$NCU_PEER"
fi
