#!/usr/bin/env bash
# The whole GPU check, for a machine with a CUDA device (no Qt or OpenCV needed):
# configure, build, ctest for the cpu tests, the gpu test binaries run directly (none may skip),
# compute-sanitizer memcheck and racecheck over the GPU tests at small sizes, coalesce-bench at
# 8192x8192, then a counters pass (every GPU variant under Nsight Compute) and its check; the
# table last. Logs and the results JSON go to $OUT (the device tool's folder) or build-gpu/out.
# COALESCE_GPU_CHECK_STEPS picks steps (comma-separated, default all): build, tests, sanitize,
# bench, counters. Without build the binaries must already be in build-gpu (a warm machine's, or
# carried there): on an H200 the whole check takes more than one device call's 600 s.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/cuda/bin:$PATH"
out="${OUT:-build-gpu/out}"
mkdir -p "$out"
arch="${COALESCE_CUDA_ARCH:-native}"
sizes="${COALESCE_BENCH_SIZES:-8192x8192}"
counters_sizes="${COALESCE_COUNTERS_SIZES:-8192x8192}"
# Small shapes keep the sanitizers (10-100x slower) inside minutes.
small_cases="*_1x1:*_1x37:*_37x1:*_38x1:*_39x1:*_33x65:*_1x1_*:*_1x37_*:*_37x1_*:*_38x1_*:*_39x1_*:*_33x65_*"
sanitize_filter="${COALESCE_SANITIZE_FILTER:-$small_cases:BuiltinGpuVariants.*}"
status=0
summary=()
steps=",${COALESCE_GPU_CHECK_STEPS:-build,tests,sanitize,bench,counters},"
wants() { [[ "$steps" == *",$1,"* ]]; }

# Each step's heading carries the seconds since the script started: the device tool runs a
# command for at most 600 s, and on an H200 the whole check (build included) came to more than
# 570 s, its counters pass last (ninth session), so the times say what to leave out or split.
step() { echo; echo "== [${SECONDS}s] $*"; }

if wants build; then
  step "configure + build ($arch)"
  if ! cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOALESCE_BUILD_GUI=OFF \
         -DCOALESCE_WITH_OPENCV=OFF -DCMAKE_CUDA_ARCHITECTURES="$arch" >"$out/configure.log" 2>&1 ||
     ! cmake --build build-gpu -j "$(nproc)" >"$out/build.log" 2>&1; then
    tail -n 40 "$out/configure.log" "$out/build.log"
    echo "BUILD FAILED"
    exit 1
  fi
fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
# The binaries behind the gpu label, as CMake lists them (so a new gpu binary is run too).
gpu_bins=$(cat build-gpu/gpu-test-binaries.txt 2>/dev/null)
if { wants tests || wants sanitize; } && [ -z "$gpu_bins" ]; then
  echo "no gpu test binary in build-gpu/gpu-test-binaries.txt"
  status=1
fi

if wants tests; then
  step "ctest (cpu) + gpu test binaries"
  # cpu tests through ctest. The gpu tests run as their binaries, one process each: under ctest
  # every case was a process with a CUDA context of its own (2475 of them took 426 s at -j 4 on the
  # H200); run this way the four gpu binaries took 35 s and the whole script 185 s on an H100.
  ctest --test-dir build-gpu --output-on-failure -j 4 -LE gpu >"$out/ctest-cpu.log" 2>&1 || status=1
  tail -n 8 "$out/ctest-cpu.log"
  summary+=("ctest cpu: $(grep -E 'tests passed|tests failed' "$out/ctest-cpu.log" | tail -1)")
  gpu_skipped=0
  for bin in $gpu_bins; do
    name=$(basename "$bin")
    "$bin" --gtest_brief=1 >"$out/gtest-$name.log" 2>&1 || status=1
    tail -n 3 "$out/gtest-$name.log"
    passed=$(grep -E '^\[  PASSED  \]' "$out/gtest-$name.log" | tail -1)
    failed=$(grep -cE '^\[  FAILED  \]' "$out/gtest-$name.log" || true)
    # A gpu test must not skip on a GPU machine (gtest's brief summary still counts skips).
    skipped=$(grep -E '^\[  SKIPPED \] [0-9]+ test' "$out/gtest-$name.log" | grep -oE '[0-9]+' |
      head -1)
    gpu_skipped=$((gpu_skipped + ${skipped:-0}))
    summary+=("$name: ${passed:-no PASSED line}; failed lines: $failed; skipped: ${skipped:-0}")
  done
  if [ "$gpu_skipped" -ne 0 ]; then
    echo "GPU tests were skipped on a GPU machine:"
    grep -h "SKIPPED\|Skipped" "$out"/gtest-*.log | head
    status=1
  fi
fi

# Every gpu binary but the counters one (it starts Nsight Compute, which the sanitizer cannot
# host): the registry-wide and access-pattern binaries at the small shapes of sanitize_filter,
# the fast variants at two of them, the on-chip ones whole (their shapes are all small).
if wants sanitize; then
  for tool in memcheck racecheck; do
    for bin in $gpu_bins; do
      name=$(basename "$bin")
      case "$name" in
        *counters*) continue ;;
        *onchip*) filter='*' ;;
        # Forty radius and border cases per test: four small shapes keep it inside minutes.
        *fast_variant*) filter="${COALESCE_SANITIZE_FAST_FILTER:-*_33x65:*_1x37:*_38x1:*_39x1}" ;;
        *) filter="$sanitize_filter" ;;
      esac
      step "compute-sanitizer $tool $name"
      compute-sanitizer --tool "$tool" --error-exitcode 9 "$bin" --gtest_filter="$filter" \
        >"$out/sanitize-$tool-$name.log" 2>&1
      rc=$?
      result=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out/sanitize-$tool-$name.log" | tail -1)
      tests=$(grep -E "^\[  PASSED  \]|FAILED TEST" "$out/sanitize-$tool-$name.log" | tail -1)
      summary+=("$tool $name: rc=$rc; $result; $tests")
      [ "$rc" -eq 0 ] || status=1
    done
  done
fi

if wants bench; then
  step "coalesce-bench $sizes"
  build-gpu/bin/coalesce-bench --sizes "$sizes" --json "$out/bench.json" --csv "$out/bench.csv" \
    >"$out/bench.txt" 2>"$out/bench-progress.log"
  rc=$?
  summary+=("coalesce-bench exit code: $rc")
  [ "$rc" -eq 0 ] || status=1
fi

if wants counters; then
  step "coalesce-bench --counters $counters_sizes (every GPU variant, every tier)"
  # Timed as usual (fewer launches: the counters are the point), then one launch of each run
  # profiled under Nsight Compute; check_counters.py fails the script when a GPU run has none or
  # copy/global's DRAM bytes stray more than 5% from its model.
  build-gpu/bin/coalesce-bench --sizes "$counters_sizes" --tier classic,tuned,experiment --reps 5 \
    --warmups 1 --counters --json "$out/counters.json" --csv "$out/counters.csv" \
    >"$out/counters.txt" 2>"$out/counters-progress.log"
  rc=$?
  said=$(grep 'counters: ' "$out/counters-progress.log" | tail -1)
  summary+=("coalesce-bench --counters exit code: $rc; $said")
  [ "$rc" -eq 0 ] || status=1
  python3 scripts/check_counters.py "$out/counters.json" >"$out/counters-check.txt" 2>&1 || status=1
  summary+=("counters check: $(tail -n 1 "$out/counters-check.txt")")
fi

# The summary also goes to a file that sorts first: the device tool brings back only the first
# eight files of $OUT, and a tail of this script's output shows the bench table, not the summary
# (twenty-eighth session: the sanitizers' lines were lost both ways).
{
  echo "== summary (steps: ${steps:1:-1})"
  printf '%s\n' "${summary[@]}"
} >"$out/00-summary.txt"
echo
cat "$out/00-summary.txt"
if wants bench; then
  echo
  cat "$out/bench.txt"
fi
if wants counters; then
  echo
  cat "$out/counters.txt" "$out/counters-check.txt"
fi
exit $status
