# CuPy's u8/u16 peers (bench/peers_python.py, issue 14's "CuPy on uint8") on the device, if the
# machine has CuPy. From the repo root: timeout 230 bash bench/results/2026-11-27-h100-s24/lab/r91.sh
python3 -c "import cupy, numpy; print('cupy', cupy.__version__, 'numpy', numpy.__version__)" 2>&1 | tail -1
python3 -c "import cupy" 2>/dev/null || { echo "no CuPy on this machine"; exit 0; }
timeout 200 python3 bench/peers_python.py --only cupy --types u8,u16 --sizes 8192x8192,8000x6000 \
  --radii 1,4,64 --reps 20 > "$OUT/cupy.jsonl" 2> "$OUT/cupy.err"
echo "rc $?"; tail -3 "$OUT/cupy.err"
python3 - "$OUT/cupy.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    print(d.get("op"), d.get("type"), d.get("size"), d.get("radius", "-"), d.get("peer") or d.get("name"),
          d.get("pct_of_copy") or d.get("pct"), d.get("ms"))
PY
