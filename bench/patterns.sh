#!/usr/bin/env bash
# The course's global-memory access patterns on a GPU machine: builds coalesce-bench (GUI and
# OpenCV off, native architecture), sweeps offset_read and offset_write over offsets 0..32, gather
# and scatter over strides 1..32 and 64..1024, scattered over spans 32, 1024 and the whole buffer
# (multiplier 121, and 7: testMixed at span 32), strided_add over strides 1..32, and matrix_add's
# three variants, at 8192x8192 (256 MiB buffers, past any L2). One JSON per variant goes to $OUT
# (or build-gpu/patterns); the tables last: GB/s, % of copy, the sector model and measured/model.
#
#   bash bench/patterns.sh                                  # build, then run
#   COALESCE_BENCH_BIN=build-gpu/bin/coalesce-bench bash bench/patterns.sh   # reuse a build
#   PATTERNS_SIZE=16384x16384 PATTERNS_REPS=20 bash bench/patterns.sh
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/cuda/bin:$PATH"
out="${OUT:-build-gpu/patterns}"
size="${PATTERNS_SIZE:-8192x8192}"
reps="${PATTERNS_REPS:-10}"
warmups="${PATTERNS_WARMUPS:-2}"
bench="${COALESCE_BENCH_BIN:-}"
mkdir -p "$out"

if [ -z "$bench" ]; then
  echo "== configure + build coalesce-bench (native)"
  if ! cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOALESCE_BUILD_GUI=OFF \
         -DCOALESCE_WITH_OPENCV=OFF -DCMAKE_CUDA_ARCHITECTURES=native >"$out/configure.log" 2>&1 ||
     ! cmake --build build-gpu -j "$(nproc)" --target coalesce-bench >"$out/build.log" 2>&1; then
    tail -n 40 "$out/configure.log" "$out/build.log"
    echo "BUILD FAILED"
    exit 1
  fi
  bench=build-gpu/bin/coalesce-bench
fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true

status=0
# One coalesce-bench per variant: each its own JSON, and the runner holds one sweep's references.
run() {
  local name=$1
  shift
  local t0=$SECONDS
  "$bench" --sizes "$size" --reps "$reps" --warmups "$warmups" --json "$out/$name.json" "$@" \
    >"$out/$name.txt" 2>"$out/$name.log"
  local rc=$?
  echo "$name: exit $rc, $((SECONDS - t0)) s"
  [ "$rc" -eq 0 ] || { status=1; tail -n 3 "$out/$name.log"; }
}

strides="$(seq -s, 1 32),64,128,256,512,1024"
echo "== sweeps at $size, $reps timed launches after $warmups warm-ups"
run offset_read-global --variants offset_read/global --param offset=0:32
run offset_read-pitched --variants offset_read/pitched --param offset=0:32
run offset_write-global --variants offset_write/global --param offset=0:32
run offset_write-pitched --variants offset_write/pitched --param offset=0:32
run gather --variants gather/global --param stride="$strides"
run scatter --variants scatter/global --param stride="$strides"
run scattered --variants scattered/global --param span=32,1024,0 --param multiplier=121,7
run strided_add --variants strided_add/global --param stride=1:32
run matrix_add --variants matrix_add/

python3 bench/patterns_table.py "$out"/*.json | tee "$out/tables.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
exit $status
