# Twenty-second session, fifth call (H100): the final filter X (a lead of 32 bytes, edges two a
# pass) built here into .devrun/next39: every gpu and fast test, memcheck and racecheck over the
# typed and colour filter X cases, then issue 14's whole table (typed/) with NPP's peers built on
# the device. Carry [".devrun/next39"]: timeout 590 bash bench/results/2026-11-27-h100-s22/lab/r59.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
source "$(dirname "$0")/../../2026-11-27-h100-s21/lab/checks.sh"
mkdir -p $X && for f in .devrun/next39/*.gz; do gunzip -c $f > $X/$(basename $f .gz); done && chmod +x $X/*
{
tests_of fx gpu fast
for tool in memcheck racecheck; do
  step "compute-sanitizer $tool gpu: typed and colour filter X"
  log=$OUT/sanitize-$tool-fx.log
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $X/gpu_fx \
    --gtest_filter='*TypedGpu*filter_x*:*Colour*filter_x*' --gtest_brief=1 > "$log" 2>&1
  echo "rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1) $(grep -E '^\[  PASSED  \]|FAILED TEST' "$log" | tail -1)"
done
step "NPP peers: configure + build"
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOALESCE_BUILD_GUI=OFF \
  -DCOALESCE_WITH_OPENCV=OFF -DCMAKE_CUDA_ARCHITECTURES=90 -DCOALESCE_BUILD_BENCH=ON \
  > "$OUT/configure.log" 2>&1 &&
  cmake --build build-gpu -j 16 --target peers_native_typed > "$OUT/build.log" 2>&1 || echo "peers build failed"
step "issue 14's table"
BENCH=$X/bench PEERS=$(find build-gpu -name peers_native_typed -type f | head -1) \
  OUT=$OUT/typed timeout 300 bash bench/typed_at_the_limit.sh
step done
} 2>&1 | tee $OUT/r59.txt
