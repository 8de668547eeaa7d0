#!/usr/bin/env bash
# Builds the app if needed, starts it in a real window under Xvfb, runs the default CPU suite and
# saves the window as a PNG (default docs/screenshot-cpu.png). Extra arguments go to the app, e.g.
#   bash scripts/screenshot.sh docs/screenshot-sweep.png --sizes 256x256,512x512,1024x1024
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/cuda/bin:$PATH"

out="${1:-docs/screenshot-cpu.png}"
shift || true
build="${COALESCE_BUILD_DIR:-build}"

if ! command -v xvfb-run >/dev/null; then
  echo "screenshot.sh: xvfb-run is missing (Debian: apt-get install xvfb xauth)" >&2
  exit 2
fi
if [ ! -f "$build/build.ninja" ] && [ ! -f "$build/Makefile" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_ARCHITECTURES="${COALESCE_CUDA_ARCH:-90}"
fi
cmake --build "$build" --target coalesce_gui -j "$(nproc)"

mkdir -p "$(dirname "$out")"
# A private settings folder: the screenshot starts from the defaults, whatever this machine's user
# chose, and leaves their settings alone.
config_home="$(mktemp -d)"
trap 'rm -rf "$config_home"' EXIT
# Without a GPU the default suite is the CPU variants on the sample image the app opens first.
XDG_CONFIG_HOME="$config_home" QT_QPA_PLATFORM=xcb \
  xvfb-run -a -s "-screen 0 1400x900x24" \
  "$build/bin/coalesce" --run-and-screenshot "$out" "$@"
echo "screenshot: $out"
