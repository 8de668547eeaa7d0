#!/usr/bin/env bash
# Sets up a fresh machine, builds Coalesce and starts it: the desktop window when there is a
# display, otherwise the headless benchmark (and how to get the window without a display).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/cuda/bin:$PATH"

bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CUDA_ARCHITECTURES="${COALESCE_CUDA_ARCH:-90}"
cmake --build build -j "$(nproc)"

if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec build/bin/coalesce "$@"
fi
cat >&2 <<'MSG'
No display found, so the window cannot open here. Instead:
  - headless benchmark (running now):  build/bin/coalesce-bench [--help]
  - the window in a virtual display:   xvfb-run -a build/bin/coalesce
  - a screenshot of the window:        bash scripts/screenshot.sh
MSG
exec build/bin/coalesce-bench "$@"
