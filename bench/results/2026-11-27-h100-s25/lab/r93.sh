# Issue 14's whole table on d0f5248 with both peers in the same run: NPP's typed peers built on the
# device (build-gpu, left by r92 on the warm machine) and CuPy's uint8/uint16 peers
# (bench/peers_python.py, CuPy on the device image). From the repo root, no carry:
# timeout 590 bash bench/results/2026-11-27-h100-s25/lab/r93.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
source "$(dirname "$0")/../../2026-11-27-h100-s24/lab/s24.sh"
{
python3 -c "import cupy, numpy; print('cupy', cupy.__version__, 'numpy', numpy.__version__)" 2>&1 | tail -1
PEERS=$(build_peers)
step "issue 14's table (peers: $PEERS and CuPy)"
BENCH=build-gpu/bin/coalesce-bench PEERS=$PEERS OUT=$OUT/typed timeout 480 bash bench/typed_at_the_limit.sh
echo "typed_at_the_limit rc $?"
step done
} 2>&1 | tee $OUT/r93.txt
