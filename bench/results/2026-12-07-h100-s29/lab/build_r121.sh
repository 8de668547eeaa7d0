# Builds r121.sh's lab binaries here (no GPU needed) into .devrun/s29c: HEAD (sP), HEAD plus
# walk_front_split.patch (sF), and sF plus s28's walk_entry_grid.patch (sFL, each block's step 0
# and end). Run from the repo root with a clean kernels/.
set -euo pipefail
export PATH=/usr/local/cuda/bin:$PATH
lab=bench/results/2026-12-07-h100-s29/lab
s28=bench/results/2026-11-28-h100-s28/lab
out=.devrun/s29c
git diff --quiet -- kernels || { echo "kernels/ has changes: commit or stash them first"; exit 1; }
[ -f build-dev/build.ninja ] || cmake -G Ninja -S . -B build-dev -DCMAKE_BUILD_TYPE=Release \
  -DCOALESCE_BUILD_GUI=OFF -DCOALESCE_WITH_OPENCV=OFF -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
mkdir -p "$out"
bench() { ninja -C build-dev bin/coalesce-bench >/tmp/build_$1.log 2>&1 || { tail -n 20 /tmp/build_$1.log; exit 1; }
          gzip -c build-dev/bin/coalesce-bench >"$out/bench_$1.gz"; }
bench sP
git apply "$lab/walk_front_split.patch"
bench sF
git apply "$s28/walk_entry_grid.patch"
bench sFL
git apply -R "$s28/walk_entry_grid.patch"
git apply -R "$lab/walk_front_split.patch"
ls -l "$out"
