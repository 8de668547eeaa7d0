# Sourced by this folder's build_r*.sh (run here, from the repo root): a clean kernels/, build-dev
# configured as the lab binaries need it (GUI and OpenCV off, arch 90), and
# lab_build OUT ARM [tests]: builds coalesce-bench (and coalesce_fast_variant_tests with
# "tests") from the tree as it is and gzips them into OUT/bench_ARM.gz (and OUT/fast_ARM.gz);
# lab_patched OUT ARM "PATCH..." [tests]: the same with the patches applied, then taken back.
set -euo pipefail
lab=bench/results/2026-12-07-h100-s29/lab  # this folder's patches
s28=bench/results/2026-11-28-h100-s28/lab  # the s28 patches the arms build on
export PATH=/usr/local/cuda/bin:$PATH
git diff --quiet -- kernels || { echo "kernels/ has changes: commit or stash them first"; exit 1; }
[ -f build-dev/build.ninja ] || cmake -G Ninja -S . -B build-dev -DCMAKE_BUILD_TYPE=Release \
  -DCOALESCE_BUILD_GUI=OFF -DCOALESCE_WITH_OPENCV=OFF -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
lab_build() {
  local out=$1 arm=$2 tests=${3:-}
  mkdir -p "$out"
  ninja -C build-dev bin/coalesce-bench bin/coalesce_fast_variant_tests >"/tmp/build_$arm.log" 2>&1 ||
    { tail -n 20 "/tmp/build_$arm.log"; return 1; }
  gzip -c build-dev/bin/coalesce-bench >"$out/bench_$arm.gz"
  [ -z "$tests" ] || gzip -c build-dev/bin/coalesce_fast_variant_tests >"$out/fast_$arm.gz"
}
lab_patched() {
  local out=$1 arm=$2 patches=$3 tests=${4:-} p rc=0
  for p in $patches; do git apply "$p"; done
  lab_build "$out" "$arm" "$tests" || rc=1
  for p in $(printf '%s\n' $patches | tac); do git apply -R "$p"; done
  return $rc
}
