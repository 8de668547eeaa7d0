#!/usr/bin/env bash
# Installs the Debian packages Coalesce builds with (skips those already there).
# nvcc (CUDA 13) is expected at /usr/local/cuda/bin; it is not a Debian package here.
set -euo pipefail

packages=(cmake ninja-build g++ qt6-base-dev libqt6opengl6-dev qt6-charts-dev qt6-svg-dev
  libopencv-core-dev libopencv-imgproc-dev libopencv-imgcodecs-dev zlib1g-dev nlohmann-json3-dev
  libcli11-dev
  libgtest-dev libgmock-dev xvfb xauth)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing: ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "error: nvcc (CUDA 13) not found; install the CUDA toolkit first" >&2
  exit 1
fi
