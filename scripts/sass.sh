#!/usr/bin/env bash
# The sm_90 SASS of one CUDA file of this repository, on a machine without a GPU, and its
# kernels' basic blocks by size (scripts/sass_blocks.py): to count what a loop issues per step
# before spending device time on it.
#   scripts/sass.sh kernels/fast_typed_filters.cu [kernel-name-substring]
# CUDA 13 ships no nvdisasm here. Debian's nvidia-cuda-toolkit 11.8 (non-free) has one that reads
# sm_90 code; it rejects CUDA 13's cubins only for their ELF header (OS/ABI 0x41 and ABI version 8
# where it expects 0x33 and 7; the architecture moved out of e_flags' low byte), so a copy of the
# cubin gets the old header. The listing goes to build-sass/<file>.sass. NVDISASM names the tool;
# otherwise it is taken from the Debian package, downloaded once into build-sass/ (needs the
# non-free component in the apt sources).
set -euo pipefail
cd "$(dirname "$0")/.."
src=${1:?usage: scripts/sass.sh file.cu [kernel-name-substring]}
export PATH="/usr/local/cuda/bin:$PATH"
mkdir -p build-sass
nvdisasm=${NVDISASM:-build-sass/deb/usr/bin/nvdisasm}
if [ ! -x "$nvdisasm" ]; then
  (cd build-sass && apt-get download nvidia-cuda-toolkit >/dev/null) || {
    echo "no nvdisasm: set NVDISASM, or add non-free to the apt sources (apt-get update) so that"
    echo "apt-get download nvidia-cuda-toolkit works"
    exit 1
  }
  dpkg -x build-sass/nvidia-cuda-toolkit_*.deb build-sass/deb
fi
base=build-sass/$(basename "$src" .cu)
nvcc -I kernels/include -I kernels -I engine/include -O3 -DNDEBUG -std=c++20 \
  --expt-relaxed-constexpr --extended-lambda -arch=sm_90 -cubin -o "$base.cubin" "$src"
python3 - "$base.cubin" "$base.old.cubin" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
b[7], b[8] = 0x33, 7                         # OS/ABI, ABI version of the 11.x toolkits
struct.pack_into('<I', b, 0x30, 0x005a055a)  # e_flags: sm_90, virtual sm_90, 64-bit, unified
open(sys.argv[2], 'wb').write(b)
PY
"$nvdisasm" -c "$base.old.cubin" >"$base.sass"
echo "listing: $base.sass"
python3 scripts/sass_blocks.py "$base.sass" "${2:-}"
