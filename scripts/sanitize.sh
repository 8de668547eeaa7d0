#!/usr/bin/env bash
# AddressSanitizer + UBSan: builds the engine, coalesce-bench and the tests of the engine, the
# results files, the CLI, the image loader and the bad-input corpus with the `asan` preset (host
# code instrumented, no GUI, one CUDA architecture), then runs those test binaries. Any memory
# error, leak or undefined behaviour fails the run. CI runs it after the README's test command.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/cuda/bin:$PATH"

targets=(coalesce-bench coalesce_engine_tests coalesce_results_io_tests coalesce_cli_tests
  coalesce_bad_input_tests)
cmake --preset asan -DCOALESCE_BUILD_GUI=OFF -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
# The image loader exists only where OpenCV does.
if grep -q "coalesce_imageio_tests" build-asan/build.ninja; then
  targets+=(coalesce_imageio_tests)
fi
cmake --build build-asan -j "$(nproc)" --target "${targets[@]}"

# protect_shadow_gap=0: the CUDA runtime maps memory where ASan's shadow gap would be.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:protect_shadow_gap=0:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# The corpus's volume cases (100,001 runs, 8 million values, 5,000 variants) test limits and
# speed, not memory safety: their code paths run in the smaller cases, and under the sanitizer
# in a Debug build they take minutes. The release build in scripts/test.sh runs them.
volume_cases="*100001_runs:*8_million_values:*5000_variants"
for target in "${targets[@]}"; do
  [[ $target == coalesce-bench ]] && continue
  echo "== $target (AddressSanitizer + UBSan)"
  filter=()
  [[ $target == coalesce_bad_input_tests ]] && filter=("--gtest_filter=-$volume_cases")
  "build-asan/bin/$target" --gtest_brief=1 "${filter[@]}"
done
