#!/usr/bin/env bash
# The window's GPU path, on the GPU machine: unpacks the tarball made by
# scripts/pack-gui-for-gpu.sh (the app, its GUI tests and everything they load), runs both GUI test
# binaries (their GPU tests run when a device is present) and the app itself on the GPU:
#   coalesce --sizes 8192x8192 --autorun --screenshot window-gpu-8192.png
# offscreen, with the bundled libraries, Qt platform plugin and fonts.
# Usage: scripts/gpu-gui-check.sh [coalesce-gui-gpu.tar.xz | unpacked folder]
# Writes to $OUT (the device tool's folder) or ./gpu-gui-check-out: the screenshot, a summary and
# gpu-gui-logs.tar.gz with every log. Exit status 0 when every test passed and the app ran.
# ONLY=tests or ONLY=app runs one half (to split the check over two calls of a time-limited tool);
# ONLY=counters runs the app once with its hardware counters pass (every variant at 8192x8192)
# and exports the DRAM / model chart and a screenshot from that live run.
set -uo pipefail

source="${1:-coalesce-gui-gpu.tar.xz}"
out="${OUT:-$PWD/gpu-gui-check-out}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

if [[ -d "$source" ]]; then
    root="$(cd "$source" && pwd)"
else
    tar -xJf "$source" -C "$scratch" || { echo "gpu-gui-check: cannot unpack $source" >&2; exit 2; }
    root="$scratch/coalesce-gui-gpu"
fi
[[ -x "$root/bin/coalesce" ]] || { echo "gpu-gui-check: no bin/coalesce in $root" >&2; exit 2; }

# Fonts through a config naming the bundled folder (fontconfig wants absolute paths).
cat > "$scratch/fonts.conf" <<EOF
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>$root/fonts</dir>
  <cachedir>$scratch/fontcache</cachedir>
</fontconfig>
EOF
export LD_LIBRARY_PATH="$root/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export QT_PLUGIN_PATH="$root/qt-plugins"
export QT_QPA_PLATFORM=offscreen
export FONTCONFIG_FILE="$scratch/fonts.conf"
export XDG_CONFIG_HOME="$scratch/config" XDG_RUNTIME_DIR="$scratch/runtime"
mkdir -p "$XDG_CONFIG_HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
# The tests find their inputs and the app here, not at the paths they were built at.
export COALESCE_TEST_SAMPLES_DIR="$root/share/coalesce/images"
export COALESCE_TEST_DOCS_DIR="$root/docs"
export COALESCE_TEST_APP="$root/bin/coalesce"

logs="$scratch/logs"
mkdir -p "$logs"
summary="$out/gpu-gui-summary.txt"
: > "$summary"
say() { echo "$*" | tee -a "$summary"; }
status=0

say "== gpu-gui-check $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n)"
cat "$root/MANIFEST" >> "$summary" 2> /dev/null
command -v nvidia-smi > /dev/null && nvidia-smi -L | tee -a "$summary"

only="${ONLY:-all}"
for tests in coalesce_gui_results_tests coalesce_gui_tests coalesce_gui_responsiveness_tests; do
    [[ "$only" == app || "$only" == counters ]] && break
    start=$SECONDS
    "$root/bin/$tests" > "$logs/$tests.log" 2>&1
    rc=$?
    totals='^\[  (PASSED|FAILED|SKIPPED) *\] [0-9]+ tests?'
    counts="$(grep -E "$totals" "$logs/$tests.log" | tr '\n' ' ')"
    say "$tests: exit $rc in $((SECONDS - start)) s: $counts"
    grep -E '^\[  FAILED  \] .*\(' "$logs/$tests.log" | tee -a "$summary"
    ((rc == 0)) || status=1
done
# What the GPU tests measured (their own lines), for the record.
[[ -f "$logs/coalesce_gui_tests.log" ]] &&
    grep -E '^  [a-z_]+/' "$logs/coalesce_gui_tests.log" > "$out/gpu-gui-measured.txt"

if [[ "$only" == counters ]]; then
    start=$SECONDS
    "$root/bin/coalesce" --sizes 8192x8192 --counters --autorun --chart dram-model \
        --export-chart "$out/window-gpu-dram-model.png" \
        --screenshot "$out/window-gpu-counters.png" > "$logs/app-counters.log" 2>&1
    rc=$?
    say "coalesce --counters --autorun --chart dram-model: exit $rc in $((SECONDS - start)) s"
    grep -iE 'counters|screenshot|cannot|error|failed' \
        "$logs/app-counters.log" | tee -a "$summary"
    ((rc == 0)) && [[ -s "$out/window-gpu-dram-model.png" ]] || status=1
elif [[ "$only" != tests ]]; then
    start=$SECONDS
    "$root/bin/coalesce" --sizes 8192x8192 --autorun --screenshot "$out/window-gpu-8192.png" \
        > "$logs/app.log" 2>&1
    rc=$?
    say "coalesce --sizes 8192x8192 --autorun --screenshot: exit $rc in $((SECONDS - start)) s"
    grep -E 'screenshot|cannot|error|failed' "$logs/app.log" | tee -a "$summary"
    ((rc == 0)) && [[ -s "$out/window-gpu-8192.png" ]] || status=1
fi

tar -C "$scratch" -czf "$out/gpu-gui-logs.tar.gz" logs
say "== gpu-gui-check: $( ((status == 0)) && echo passed || echo FAILED )"
exit $status
