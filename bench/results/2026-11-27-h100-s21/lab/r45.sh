# Twenty-first session: issue 14's whole table on HEAD's kernels (typed/). The bench is the local
# build of 70a7949 (HEAD's kernels and bench code); NPP's peers are built on the device, which has
# NPP. Run from the repo root with carry [".devrun/bin"]:
#   timeout 590 bash bench/results/2026-11-27-h100-s21/lab/r45.sh
mkdir -p .devrun/x && gunzip -c .devrun/bin/bench_base.gz > .devrun/x/bench && chmod +x .devrun/x/bench
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOALESCE_BUILD_GUI=OFF \
  -DCOALESCE_WITH_OPENCV=OFF -DCMAKE_CUDA_ARCHITECTURES=90 -DCOALESCE_BUILD_BENCH=ON \
  > "$OUT/configure.log" 2>&1 &&
  cmake --build build-gpu -j 16 --target peers_native_typed > "$OUT/build.log" 2>&1 || exit 1
BENCH=.devrun/x/bench PEERS=$(find build-gpu -name peers_native_typed -type f | head -1) \
  OUT=$OUT/typed timeout 500 bash bench/typed_at_the_limit.sh
