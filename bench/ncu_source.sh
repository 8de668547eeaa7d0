#!/usr/bin/env bash
# bench/ncu_source.sh BENCH KERNEL_REGEX CSV [coalesce-bench arguments...]: Nsight Compute's
# per-instruction source page (SASS: executions, stall samples and their reasons) for one launch
# of the kernel, the third that matches (after the verification run and a warm-up), written to CSV,
# then bench/ncu_source_regions.py's table of where the instructions go. Clocks as the card has
# them. Example (the nineteenth session's walk profile):
#   bench/ncu_source.sh build-gpu/bin/coalesce-bench fast_filter_y_walk walk.csv \
#     --ops filter_y --variants filter_y/fast-walk-pitched --sizes 8000x6000 --radius 64
set -euo pipefail
bench=$1 kernel=$2 csv=$3
shift 3
ncu --clock-control none --section SourceCounters --section WarpStateStats -k "regex:$kernel" \
  --launch-skip 2 --launch-count 1 --import-source no --page source --print-source sass --csv \
  "$bench" "$@" --reps 1 --warmups 2 > "$csv"
python3 "$(dirname "$0")/ncu_source_regions.py" "$csv"
