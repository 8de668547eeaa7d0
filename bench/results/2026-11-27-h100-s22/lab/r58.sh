# Twenty-second session, fourth call (H100). r57: u8 filter X at 8192x8192 runs at 96-98% of copy
# for r = 48..63 and at 85-88 at r = 32 and 64, same geometry and blocks per SM. What changes is
# the staged line's lead lo = -round16((r + 1) size): -64 for r = 48..63, -48 at r = 32 and -80 at
# 64, where a global 32-byte sector lands across two 32-byte pieces of shared memory. bench_lo32
# rounds the lead to 32 bytes (and stages the edges two a pass, as bench_e2). Carry
# [".devrun/next38", ".devrun/bin"].
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/next38
{
PICK='filter_x/fast-int-running(-pitched)?'
G="--ops filter_x --variants filter_x/fast-int-running --sizes 8192x8192,8000x6000 --reps 20 --warmups 3"
abc() {
  one "$1 before" $X/bench_base "${@:2}"
  one "$1 edges two a pass" $X/bench_e2 "${@:2}"
  one "$1 lead of 32" $X/bench_lo32 "${@:2}"
}
for round in 1 2; do
  for r in 64 32; do abc "u8 r $r ($round)" $G --type u8 --radius $r; done
done
for r in 1 4 16 24 48 63; do abc "u8 r $r" $G --type u8 --radius $r; done
for b in zero wrap mirror; do abc "u8 r 64 $b" $G --type u8 --radius 64 --border $b; done
for r in 1 32 64; do abc "u16 r $r" $G --type u16 --radius $r; done
PICK='filter_x/fast-planar'
abc "u8 colour r 64" --ops filter_x --variants filter_x/fast-planar --sizes 8000x6000 --channels 3 --type u8 --radius 64 --reps 20 --warmups 3
step done
} 2>&1 | tee $OUT/r58.txt
