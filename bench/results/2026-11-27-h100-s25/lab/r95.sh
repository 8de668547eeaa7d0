# r94 again on a fresh machine (r94 found none warm: no build-gpu), the build first. Issue 14's table a second time with NPP and CuPy in the same run, now ranked by GB/s (build-gpu
# and the peers from r92/r93 on the warm machine); CuPy's own copy at each size and type three
# times over (is r93's 1664 GB/s u16 8000x6000 memcpyAsync its own or an accident?); then
# gpu-check's counters step. From the repo root, no carry:
# timeout 590 bash bench/results/2026-11-27-h100-s25/lab/r95.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
source "$(dirname "$0")/../../2026-11-27-h100-s24/lab/s24.sh"
{
PEERS=$(build_peers)
step "build: everything (the texture plugin for the counters pass)"
cmake --build build-gpu -j 16 > $OUT/build-all.log 2>&1 || tail -20 $OUT/build-all.log
step "issue 14's table (NPP and CuPy)"
BENCH=build-gpu/bin/coalesce-bench PEERS=build-gpu/bin/peers_native_typed OUT=$OUT/typed \
  timeout 300 bash bench/typed_at_the_limit.sh
echo "typed_at_the_limit rc $?"
step "CuPy's copies, three passes"
for i in 1 2 3; do
  timeout 60 python3 bench/peers_python.py --only cupy --types u8,u16 --sizes 8192x8192,8000x6000 \
    --radii 1 --reps 20 2>/dev/null | grep memcpyAsync | python3 -c '
import json,sys
print(" ".join("%s %dx%d %.0f" % (d["type"], d["rows"], d["cols"], d["gbps"]) for d in map(json.loads, sys.stdin)))'
done
step "counters"
OUT=$OUT/gc COALESCE_CUDA_ARCH=90 COALESCE_GPU_CHECK_STEPS=counters timeout 250 bash scripts/gpu-check.sh > $OUT/gc-counters.txt 2>&1
echo "rc $?"; sed -n '/== summary/,/^$/p' $OUT/gc-counters.txt
step done
} 2>&1 | tee $OUT/r95.txt
