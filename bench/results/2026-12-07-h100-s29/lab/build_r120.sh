# Builds r120.sh's lab binaries here (no GPU needed) into .devrun/s29b: HEAD, then HEAD plus each
# arm's patch, the kernels restored after each. Run from the repo root with a clean kernels/.
set -euo pipefail
export PATH=/usr/local/cuda/bin:$PATH
lab=bench/results/2026-12-07-h100-s29/lab
s28=bench/results/2026-11-28-h100-s28/lab
out=.devrun/s29b
git diff --quiet -- kernels || { echo "kernels/ has changes: commit or stash them first"; exit 1; }
[ -f build-dev/build.ninja ] || cmake -G Ninja -S . -B build-dev -DCMAKE_BUILD_TYPE=Release \
  -DCOALESCE_BUILD_GUI=OFF -DCOALESCE_WITH_OPENCV=OFF -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
mkdir -p "$out"
build() {  # build ARM [PATCH] [with-tests]
  local arm=$1 patch=${2:-} tests=${3:-}
  [ -z "$patch" ] || git apply "$patch"
  if ninja -C build-dev bin/coalesce-bench bin/coalesce_fast_variant_tests >/tmp/build_$arm.log 2>&1; then
    gzip -c build-dev/bin/coalesce-bench >"$out/bench_$arm.gz"
    [ -z "$tests" ] || gzip -c build-dev/bin/coalesce_fast_variant_tests >"$out/fast_$arm.gz"
  else
    tail -n 20 /tmp/build_$arm.log
  fi
  [ -z "$patch" ] || git apply -R "$patch"
}
build sP
build s3 "$s28/walk_stream_offset.patch"
build s4 "$lab/walk_offset_s4.patch" tests
build s5 "$lab/walk_offset_s5.patch" tests
build s6 "$lab/walk_offset_s6.patch" tests
ls -l "$out"
du -sb "$out" | awk '{printf "%.1f MiB to carry\n", $1 / 1048576}'
