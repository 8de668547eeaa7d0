#!/usr/bin/env bash
# Sets up a fresh machine, builds everything (GUI included) and runs the whole test suite.
# Without a GPU the tests labelled `gpu` skip themselves; run scripts/gpu-check.sh on a GPU machine.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/cuda/bin:$PATH"

bash scripts/install-deps.sh
# One CUDA architecture keeps the build short on two cores; the GPU machine builds `native`.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90
cmake --build build -j "$(nproc)"
export QT_QPA_PLATFORM=offscreen
ctest --test-dir build --output-on-failure -j "$(nproc)"
