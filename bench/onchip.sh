#!/usr/bin/env bash
# The on-chip experiments on a GPU machine (no Qt or OpenCV needed): builds coalesce-bench and the
# texture plugin (native architecture), runs each family at sizes past the L2 with the parameters
# the course varies, and prints one compact table per family (bench/onchip_table.py). About a
# minute and a half on an H100, the build included. The tables go to onchip-tables.txt, the
# results JSON and logs to onchip.tar.gz, both in $OUT (the device tool's folder, which brings back
# only a few files) or build-gpu/onchip.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/cuda/bin:$PATH"
out="${OUT:-build-gpu/onchip}"
work=build-gpu/onchip-work
mkdir -p "$out" "$work"
exec > >(tee "$out/onchip-tables.txt") 2>&1
arch="${COALESCE_CUDA_ARCH:-native}"
status=0

echo "== configure + build ($arch)"
if ! cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOALESCE_BUILD_GUI=OFF \
       -DCOALESCE_WITH_OPENCV=OFF -DCMAKE_CUDA_ARCHITECTURES="$arch" >"$work/configure.log" 2>&1 ||
   ! cmake --build build-gpu -j "$(nproc)" --target coalesce-bench coalesce_textures \
       >"$work/build.log" 2>&1; then
  tail -n 40 "$work/configure.log" "$work/build.log"
  echo "BUILD FAILED"
  exit 1
fi
bench=build-gpu/bin/coalesce-bench

# family, table kind, then coalesce-bench arguments
run() {
  local name=$1 kind=$2
  shift 2
  echo
  echo "== $name: coalesce-bench $*"
  "$bench" "$@" --json "$work/$name.json" >"$work/$name.txt" 2>"$work/$name-progress.log"
  local rc=$?
  [ "$rc" -eq 0 ] || { status=1; echo "coalesce-bench exit code $rc"; tail -n 5 "$work/$name.txt"; }
  [ -s "$work/$name.json" ] && python3 bench/onchip_table.py "$kind" "$work/$name.json"
}

# Seed 001: the book's patterns on the 32x32 and 32x16 tiles; 65 round trips per tile make
# shared-memory traffic (counted as GB/s) dominate the one DRAM read and write per element.
# With the experiment tier: the one-float pad on the 32x16 tile (2-way).
run smem smem --ops smem_copy_tile,smem_transpose_tile --sizes 8192x8192 \
  --tier classic,tuned,experiment --param tile_rows=32,16 --param repeat=65
# Seed 003: 256 table reads per thread, 1 (c[i]: distinct 0; c[blockIdx + i]: 1) to 32 addresses
# per warp, from __constant__, global memory and the read-only path.
run constant constant --ops constant_read --sizes 4096x4096 --param distinct=0,1,2,4,8,16,32 \
  --param repeat=256
# Seed 003: RandomSample<Area>, 32 samples, Area 4..32, global/pitched/texture array/pitched.
run sampling sampling --ops random_sample --sizes 8192x8192 --param area=4,8,16,32 \
  --param samples=32
# Seed 003's texture features: bilinear resampling by hand and by the texture unit, and 8-bit
# pixels converted by hand and by the normalized-float read mode.
run resample resample --ops resample --sizes 4096x4096 --param scale=50,150,200 --param angle=0,30
run u8 u8 --ops u8_to_float --sizes 8192x8192

tar -C "$work" -czf "$out/onchip.tar.gz" . 2>/dev/null || true
echo
echo "onchip.sh: $([ "$status" -eq 0 ] && echo 'every run verified' || echo 'SOME RUNS FAILED')" \
  "(tables in $out/onchip-tables.txt, results and logs in $out/onchip.tar.gz)"
exit $status
