# Twenty-ninth session, issue 15, prepared and not run: does moving the split between a strip's two
# runs even out the fronts? r119's per-front timing (this folder's README, section 2) had the upper
# front at wrap start step 0 2.8 us after the lower one and end 2.5 us later (its halo is the
# strip's last 128 rows); at clamp both fronts ended together. If that lag is the walk's, a lower
# run longer by ~40 rows (the upper one shorter) would end both fronts together and gain ~1 us.
#   sP  = HEAD;
#   sF  = lab/walk_front_split.patch: COALESCE_LAB_SHIFT=n starts each strip's lower run n rows
#         early (negative: late); without it (or 0) the same runs as HEAD, as a control of the code;
#   sFL = sF plus ../../2026-11-28-h100-s28/lab/walk_entry_grid.patch: each front's step 0 and end.
# Build here with lab/build_r121.sh (.devrun/s29c, about 17 MiB); on the device, carry
# [".devrun/s29c"]: timeout 400 bash bench/results/2026-12-07-h100-s29/lab/r121.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/s29c
PICK='filter_y/fast-walk(-pitched)?'
A="--ops filter_y --variants filter_y/fast-walk --tier tuned --radius 64 --reps 30 --warmups 3"
# fronts BORDER SHIFT: each front's mean and latest step 0 and end (sFL, 8000x6000 pitched).
fronts() {
  COALESCE_LAB_SHIFT=$2 COALESCE_LAB_STEPS=1 COALESCE_LAB_GRID=1 timeout 60 $X/bench_sFL \
    --ops filter_y --variants filter_y/fast-walk-pitched --tier tuned --sizes 8000x6000 \
    --radius 64 --border $1 --reps 20 --warmups 3 2>&1 | grep -E '^LABGRID' | tr ' ' '\n' |
    grep -E '^[0-9]+:' |
    awk -F: -v b=$1 -v sh=$2 '{f=$1%2; n[f]++; s[f]+=$3; e[f]+=$4; if ($3>ms[f]) ms[f]=$3; if ($4>me[f]) me[f]=$4}
      END {for (f=0; f<2; f++) printf "%s shift %s %s front: mean step0 %.2f (max %.2f), mean end %.1f (max %.1f), %d block-launches\n",
        b, sh, f ? "lower" : "upper", s[f]/n[f], ms[f], e[f]/n[f], me[f], n[f]}'
}
{
nvidia-smi --query-gpu=name --format=csv,noheader
step "fronts at the split HEAD uses"
for b in mirror zero wrap clamp; do fronts $b 0; done
for round in 1 2; do
  for b in wrap mirror clamp; do
    one "round $round $b sP" $X/bench_sP $A --sizes 8000x6000 --border $b
    for sh in 0 -32 32 64; do
      one "round $round $b sF shift $sh" COALESCE_LAB_SHIFT=$sh $X/bench_sF $A --sizes 8000x6000 --border $b
    done
  done
done
step "8192x8192: the code's cost without a shift"
one "8192 sP" $X/bench_sP $A --sizes 8192x8192
one "8192 sF shift 0" COALESCE_LAB_SHIFT=0 $X/bench_sF $A --sizes 8192x8192
step "fronts at wrap and mirror with the shifts"
for sh in 32 64; do fronts wrap $sh; fronts mirror $sh; done
step done
} 2>&1 | tee $OUT/r121.txt
