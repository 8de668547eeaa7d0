#!/usr/bin/env bash
# Builds the desktop app and its GUI tests here and packs them, with everything they need to run
# offscreen on the GPU machine (which has no Qt and no OpenCV), into one tar.xz:
#   bin/       coalesce, the three GUI test binaries, plugins/ (the texture plugin), and
#              coalesce-bench (the window's hardware counters pass profiles it under ncu)
#   lib/       their shared-library closure (ldd), less libc, libm, libstdc++, libgcc_s and the
#              dynamic loader, which the GPU machine's newer ones serve
#   qt-plugins/platforms/libqoffscreen.so, fonts/ (DejaVu), share/coalesce/images, docs/
#   gpu-gui-check.sh, which unpacks nothing: it runs from the unpacked folder
# Usage: scripts/pack-gui-for-gpu.sh [tarball]   (default: coalesce-gui-gpu.tar.xz here)
# Environment: BUILD_DIR (default build), MAX_MIB (default 60: the device tool carries 64 MiB).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tarball="$(realpath -m "${1:-coalesce-gui-gpu.tar.xz}")"
build="${BUILD_DIR:-$here/build}"
max_mib="${MAX_MIB:-60}"
export PATH="/usr/local/cuda/bin:$PATH"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-/work}" CCACHE_DIR="${CCACHE_DIR:-/work/.ccache}"

if [[ ! -f "$build/CMakeCache.txt" ]]; then
    launcher=()
    command -v ccache > /dev/null &&
        launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
    # sm_90: the H100 and the H200 of the GPU machine.
    cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CUDA_ARCHITECTURES=90 "${launcher[@]}"
fi
cmake --build "$build" -j "${JOBS:-2}" \
    --target coalesce_gui coalesce_gui_tests coalesce_gui_results_tests \
    coalesce_gui_responsiveness_tests coalesce_textures coalesce-bench

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
root="$stage/coalesce-gui-gpu"
mkdir -p "$root/bin/plugins" "$root/lib" "$root/qt-plugins/platforms" "$root/fonts" \
    "$root/share/coalesce/images" "$root/docs"

cp "$build/bin/coalesce" "$build/bin/coalesce_gui_tests" "$build/bin/coalesce_gui_results_tests" \
    "$build/bin/coalesce_gui_responsiveness_tests" "$build/bin/coalesce-bench" "$root/bin/"
cp "$build/bin/plugins/"*.so "$root/bin/plugins/"
offscreen="$(qtpaths6 --query QT_INSTALL_PLUGINS 2> /dev/null ||
    echo /usr/lib/x86_64-linux-gnu/qt6/plugins)"
cp "$offscreen/platforms/libqoffscreen.so" "$root/qt-plugins/platforms/"

# Every library the binaries and plugins load, followed to the file (so names stay sonames).
elves=("$root"/bin/coalesce* "$root"/bin/plugins/*.so "$root"/qt-plugins/platforms/*.so)
ldd "${elves[@]}" | awk '/=> \// { print $1, $3 }' | sort -u |
    grep -v -E '^(libc\.so|libm\.so|libstdc\+\+\.so|libgcc_s\.so|ld-linux|linux-vdso)' |
    while read -r soname path; do cp -L "$path" "$root/lib/$soname"; done
if ldd "${elves[@]}" | grep -q 'not found'; then
    echo "pack-gui-for-gpu: a library is missing here:" >&2
    ldd "${elves[@]}" | grep 'not found' >&2
    exit 1
fi
# Ours carry symbol tables the tests do not need; the system's are stripped already.
strip --strip-unneeded "$root"/bin/coalesce* "$root"/bin/plugins/*.so

fonts=/usr/share/fonts/truetype/dejavu
cp "$fonts/DejaVuSans.ttf" "$fonts/DejaVuSans-Bold.ttf" "$fonts/DejaVuSans-Oblique.ttf" \
    "$fonts/DejaVuSansMono.ttf" "$root/fonts/"
cp "$here"/images/*.png "$here"/images/*.pgm "$here"/images/*.ppm "$root/share/coalesce/images/"
cp "$here/docs/h200-bench.json" "$here/docs/h100-counters-8192.json" "$root/docs/"
cp "$here/scripts/gpu-gui-check.sh" "$root/"
{
    modified="$(git -C "$here" diff --quiet || echo ' (modified)')"
    echo "commit $(git -C "$here" rev-parse HEAD)$modified"
    echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n), $(grep PRETTY_NAME /etc/os-release)"
    echo "CUDA architectures $(grep CMAKE_CUDA_ARCHITECTURES: "$build/CMakeCache.txt" |
        cut -d= -f2)"
} > "$root/MANIFEST"

tar -C "$stage" -cf - coalesce-gui-gpu | xz -9e -T "${JOBS:-2}" > "$tarball.tmp"
mv "$tarball.tmp" "$tarball"
bytes=$(stat -c %s "$tarball")
libraries=$(find "$root/lib" -type f | wc -l)
echo "pack-gui-for-gpu: $tarball: $((bytes / 1048576)) MiB ($bytes bytes), $libraries libraries"
if ((bytes > max_mib * 1048576)); then
    echo "pack-gui-for-gpu: larger than $max_mib MiB" >&2
    exit 1
fi
