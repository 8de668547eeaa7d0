# Builds r120.sh's lab binaries here (no GPU needed) into .devrun/s29b: HEAD, then HEAD plus each
# arm's patch, the kernels restored after each. Run from the repo root with a clean kernels/.
source "$(dirname "$0")/build_lib.sh"
out=.devrun/s29b
lab_build "$out" sP
lab_patched "$out" s3 "$s28/walk_stream_offset.patch"
lab_patched "$out" s4 "$lab/walk_offset_s4.patch" tests
lab_patched "$out" s5 "$lab/walk_offset_s5.patch" tests
lab_patched "$out" s6 "$lab/walk_offset_s6.patch" tests
ls -l "$out"
du -sb "$out" | awk '{printf "%.1f MiB to carry\n", $1 / 1048576}'
