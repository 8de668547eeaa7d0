# Issue 14's whole table a third time on 00e5c52 (NPP built here on the device, CuPy), then four
# rounds of its two lowest points: u8 column sums and u8 filter Y at r = 64, both at 8192x8192.
# From the repo root, no carry: timeout 590 bash bench/results/2026-11-27-h100-s26/lab/r105.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
source "$(dirname "$0")/../../2026-11-27-h100-s24/lab/s24.sh"
{
PEERS=$(build_peers)
step "build coalesce-bench"
cmake --build build-gpu -j 16 --target coalesce-bench > $OUT/build-bench.log 2>&1 || { tail -20 $OUT/build-bench.log; exit 1; }
step "issue 14's table, pass 3 (peers: $PEERS and CuPy)"
BENCH=build-gpu/bin/coalesce-bench PEERS=$PEERS OUT=$OUT/typed3 timeout 240 bash bench/typed_at_the_limit.sh > $OUT/typed3.log 2>&1
echo "typed_at_the_limit rc $?"
grep -E "^\| col_sums \| u8 \| 1 \| 8192|^\| filter_y \| u8 \| 1 \| 8192x8192 \| 64|\| no \|" $OUT/typed3/typed_at_the_limit.md
echo "rows at 90 or more: $(grep -c "| yes |" $OUT/typed3/typed_at_the_limit.md), below: $(grep -c "| no |" $OUT/typed3/typed_at_the_limit.md)"
B=build-gpu/bin/coalesce-bench
for round in 1 2 3 4; do
  PICK='col_sums/fast-typed-strip(-pitched)?'
  one "u8 column sums 8192x8192 ($round)" $B --type u8 --tier tuned --ops col_sums --variants col_sums/fast-typed-strip --sizes 8192x8192 --reps 20 --warmups 3
  PICK='filter_y/fast-int-running(-pitched)?'
  one "u8 filter Y r = 64 8192x8192 ($round)" $B --type u8 --tier tuned --ops filter_y --variants filter_y/fast-int-running --sizes 8192x8192 --radius 64 --reps 20 --warmups 3
done
step done
} 2>&1 | tee $OUT/r105.txt
