#!/usr/bin/env bash
# The lessons whose experiments the access-pattern and on-chip sweeps ran (bench/patterns.sh,
# bench/onchip.sh: the same kernels at the same parameters and sizes as the lessons), assembled
# from a results folder's patterns/ and onchip/ (and lessons/ for a baseline) into one <id>.json per
# lesson in its lessons-from-sweeps/, as `coalesce-bench --lesson ID --json` would write it. For
# runs made before those findings became lessons. Where a lesson's point was not in the sweeps
# (granularity-mixed's multiplier 1) the file lacks it; the next `--lesson` run fills it.
#
#   bash bench/lessons_from_sweeps.sh bench/results/2026-11-23-h100
#   python3 bench/lessons_columns.py fill H100 bench/results/2026-11-23-h100/lessons{,-from-sweeps}
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 RESULTS_FOLDER (with patterns/, onchip/ and lessons/)" >&2; exit 2; }
script="$(cd "$(dirname "$0")" && pwd)/lessons_columns.py"
cd "$1"
mkdir -p lessons-from-sweeps
x() { python3 "$script" extract "lessons-from-sweeps/$1.json" "${@:2}"; }
p=patterns o=onchip
x shared-row-vs-column-major $o/smem.json --size 8192x8192 \
  --variants smem_copy_tile/set-row-read-row,smem_copy_tile/set-col-read-col \
  --param tile_rows=32,16 --param repeat=65
x shared-dynamic $o/smem.json --size 8192x8192 --param tile_rows=32,16 --param repeat=65 \
  --variants smem_transpose_tile/set-row-read-col,smem_transpose_tile/set-row-read-col-dyn,smem_transpose_tile/set-row-read-col-dyn-pad
x shared-rectangular-padding $o/smem.json --size 8192x8192 --param tile_rows=16 --param repeat=65 \
  --variants smem_transpose_tile/set-row-read-col,smem_transpose_tile/set-row-read-col-pad1,smem_transpose_tile/set-row-read-col-pad,smem_transpose_tile/set-row-read-col-dyn-pad
x add-coalesced-vs-strided $p/strided_add.json --size 8192x8192 --variants strided_add/global \
  --param stride=1,2,4,8,16,32
x matrix-add-2d $p/matrix_add.json --size 8192x8192 \
  --variants matrix_add/coalesced,matrix_add/uncoalesced
x granularity-mixed lessons/aligned-warp-one-transaction.json $p/scattered.json --size 8192x8192 \
  --variants copy/global,scattered/global --param span=32 --param multiplier=1,7
x granularity-offset $p/gather.json --size 8192x8192 --variants gather/global \
  --param stride=1,2,4,8,32
x granularity-scattered $p/scattered.json --size 8192x8192 --variants scattered/global \
  --param span=32,1024,0 --param multiplier=121
x constant-uniform-vs-divergent $o/constant.json --size 4096x4096 \
  --variants constant_read/constant,constant_read/global,constant_read/global-ldg \
  --param distinct=0,1,2,4,8,16,32 --param repeat=256
x texture-random-sampling $o/sampling.json --size 8192x8192 --param area=4,8,16,32 \
  --param samples=32 \
  --variants random_sample/global,random_sample/pitched,random_sample/texture-array,random_sample/texture-pitched
x texture-interpolation $o/resample.json --size 4096x4096 --param scale=50,150,200 --param angle=30 \
  --variants resample/global,resample/texture-array,resample/texture-pitched
x texture-conversion $o/u8.json --size 8192x8192 \
  --variants u8_to_float/global,u8_to_float/texture-array,u8_to_float/texture-pitched
x offset-two-transactions $p/offset_read-global.json $p/offset_write-global.json --size 8192x8192 \
  --variants offset_read/global,offset_write/global --param offset=$(seq -s, 0 32)
x strided-transactions $p/gather.json $p/scatter.json --size 8192x8192 \
  --variants gather/global,scatter/global --param stride=1,2,4,8,16,32
x transactions-per-warp $p/matrix_add.json $p/gather.json --size 8192x8192 \
  --variants matrix_add/coalesced,matrix_add/uncoalesced,gather/global --param stride=1,2,4,8
