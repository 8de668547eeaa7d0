# Issue 14's whole table on 00e5c52, twice, with NPP's typed peers (built here on the device) and
# CuPy's uint8/uint16 peers in the same run. From the repo root, no carry:
# timeout 590 bash bench/results/2026-11-27-h100-s26/lab/r104.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
source "$(dirname "$0")/../../2026-11-27-h100-s24/lab/s24.sh"
{
python3 -c "import cupy, numpy; print('cupy', cupy.__version__, 'numpy', numpy.__version__)" 2>&1 | tail -1
PEERS=$(build_peers)
step "build coalesce-bench"
cmake --build build-gpu -j 16 --target coalesce-bench > $OUT/build-bench.log 2>&1 || { tail -20 $OUT/build-bench.log; exit 1; }
for pass in 1 2; do
  step "issue 14's table, pass $pass (peers: $PEERS and CuPy)"
  BENCH=build-gpu/bin/coalesce-bench PEERS=$PEERS OUT=$OUT/typed$pass timeout 240 bash bench/typed_at_the_limit.sh > $OUT/typed$pass.log 2>&1
  echo "typed_at_the_limit rc $?"
  grep -E "^\| col_sums \| u8 \| 1 \| 8192|\| no \|" $OUT/typed$pass/typed_at_the_limit.md; echo "rows at 90 or more: $(grep -c "| yes |" $OUT/typed$pass/typed_at_the_limit.md), below: $(grep -c "| no |" $OUT/typed$pass/typed_at_the_limit.md)"
done
step done
} 2>&1 | tee $OUT/r104.txt
