# Builds r121.sh's lab binaries here (no GPU needed) into .devrun/s29c: HEAD (sP), HEAD plus
# walk_front_split.patch (sF), and sF plus s28's walk_entry_grid.patch (sFL, each block's step 0
# and end). Run from the repo root with a clean kernels/.
source "$(dirname "$0")/build_lib.sh"
out=.devrun/s29c
lab_build "$out" sP
lab_patched "$out" sF "$lab/walk_front_split.patch"
lab_patched "$out" sFL "$lab/walk_front_split.patch $s28/walk_entry_grid.patch"
ls -l "$out"
