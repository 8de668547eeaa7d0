#!/usr/bin/env bash
# bench/filters_at_every_radius.sh: the tuned box filters at every radius and border, and the
# dense tuned variants of every operation at an odd width, on the GPU machine, in one call.
#   build coalesce-bench (GUI and OpenCV off, CMAKE_CUDA_ARCHITECTURES=native) ->
#   filter X and Y, r in {1, 4, 16, 32, 64} x {clamp, zero, wrap, mirror} x {8192x8192, 8000x6000}
#   (one coalesce-bench call per radius and border; each measures its own device copy) ->
#   every operation's tuned variants at 4097x3001 dense (rows start on every 4-byte phase), r = 4 ->
#   one table: variant, size, r, border, % of copy; then the best per (op, size, r, border).
# Every figure is the median of REPS (>= 20) event-timed launches after WARMUPS, verified first.
# Peers (cuBLAS, NPP, PyTorch, CuPy) are bench/run.sh's job. About 3-4 minutes on an H100 (the
# build about 1.5 of them); to split it over two calls on a warm machine, run with
# BORDERS="clamp zero" and then SKIP_BUILD=1 BORDERS="wrap mirror" ODD= .
# Output under $OUT: filters_at_every_radius.md (the tables) and radius-json.tgz (every run).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/cuda/bin:$PATH"
OUT=${OUT:-$PWD/build-radius/out}
BUILD=${BUILD:-build-radius}
REPS=${REPS:-20}
WARMUPS=${WARMUPS:-3}
RADII=${RADII:-"1 4 16 32 64"}
BORDERS=${BORDERS:-"clamp zero wrap mirror"}
SIZES=${SIZES:-8192x8192,8000x6000}
ODD=${ODD-4097x3001}  # ODD= (empty) skips the odd-width runs
# The tuned filters and, beside them, the running sums (experiments; the bulk-copy ring is left
# out). --variants matches id prefixes, so filter_y/fast-walk also brings the scan walk
# (experiment). Variants outside their limits at a radius (the quad kernels above r = 8) are
# skipped by the runner and leave no row.
FX=filter_x/fast-running-sum,filter_x/fast-seg4096-quad,filter_x/fast-seg4096-quad-pitched
FX=$FX,filter_x/fast-seg4096-occ5
FY=filter_y/fast-running-sum,filter_y/fast-tile-float4,filter_y/fast-tile-pitched
FY=$FY,filter_y/fast-walk,filter_y/fast-walk-pitched,filter_y/fast-walk-prefix,filter_y/fast-walk-prefix-pitched
FILTERS=${FILTERS:-$FX,$FY}
# Dense tuned variants of every operation (the pitched twins, for comparison, are not dense).
D=copy/fast-float4,transpose/fast-tile64-float4,transpose/fast-quad-swizzle
D=$D,transpose/fast-odd-scalar64-sheared
D=$D,row_sums/fast-warp-float4,row_sums/fast-block-occ8,col_sums/fast-strip-float4
D=$D,col_sums/fast-strip-occ8,col_sums/fast-strip-deep,col_sums/fast-strip-deep8
D=$D,col_sums/fast-strip-whole
D=$D,filter_x/fast-running-sum,filter_x/fast-seg4096-occ5,filter_x/fast-seg4096-quad
D=$D,filter_y/fast-running-sum,filter_y/fast-tile-float4,filter_y/fast-walk-prefix
DENSE=${DENSE:-$D}
JSON=$(mktemp -d)
mkdir -p "$OUT"
t0=$(date +%s)
step() { echo "== [$(( $(date +%s) - t0 ))s] $*"; }

step "configure + build coalesce-bench ($BUILD)"
if [ -n "${SKIP_BUILD:-}" ] && [ -x "$BUILD/bin/coalesce-bench" ]; then
  echo "SKIP_BUILD: using $BUILD/bin/coalesce-bench"
elif ! cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
       -DCMAKE_CUDA_ARCHITECTURES=native \
       -DCOALESCE_BUILD_GUI=OFF -DCOALESCE_WITH_OPENCV=OFF -DCOALESCE_BUILD_TESTS=OFF \
       > "$JSON/configure.log" 2>&1 ||
   ! cmake --build "$BUILD" -j "$(nproc)" --target coalesce-bench > "$JSON/build.log" 2>&1; then
  tail -n 30 "$JSON/configure.log" "$JSON/build.log"
  exit 1
fi
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader \
  || true
BENCH="$BUILD/bin/coalesce-bench"
status=0

for r in $RADII; do
  for b in $BORDERS; do
    step "filters r = $r, $b"
    run="$JSON/filters_r${r}_$b"
    "$BENCH" --ops filter_x,filter_y --variants "$FILTERS" --sizes "$SIZES" --radius "$r" \
      --border "$b" --reps "$REPS" --warmups "$WARMUPS" --json "$run.json" > "$run.txt" \
      2> "$run.err" || { status=1; tail -3 "$run.err"; }
  done
done

if [ -n "$ODD" ]; then
  step "every operation, dense $ODD, r = 4"
  run="$JSON/dense_$ODD"
  "$BENCH" --variants "$DENSE" --sizes "$ODD" --radius 4 --border clamp --reps "$REPS" \
    --warmups "$WARMUPS" --json "$run.json" > "$run.txt" 2> "$run.err" \
    || { status=1; tail -3 "$run.err"; }
fi

step "tables"
# --variants matches id prefixes, so the odd-width run also measures the pitched twins of the
# dense ids (filter_x/fast-seg4096-quad brings filter_x/fast-seg4096-quad-pitched); the tables
# keep only the ids named in DENSE there, since the odd-width mark is for dense rows.
DENSE="$DENSE" python3 - "$JSON" > "$OUT/filters_at_every_radius.md" <<'EOF'
import glob, json, os, sys
dense = set(os.environ["DENSE"].split(","))
runs = []
for path in sorted(glob.glob(sys.argv[1] + "/*.json")):
    doc = json.load(open(path))
    device = doc.get("device", {}).get("name", "?")
    odd_run = os.path.basename(path).startswith("dense_")
    for r in doc["runs"]:
        if r.get("gpu") is False or r["variant"].startswith("copy/memcpy"):
            continue
        if odd_run and r["variant"] not in dense:
            continue
        runs.append(r)
filters = lambda r: r["op"] in ("filter_x", "filter_y")
def key(r):
    f = filters(r)
    return (r["op"], -r["rows"] * r["cols"], r["rows"], r["radius"] if f else -1,
            r["border"] if f else "")
def size(r):
    return f'{r["rows"]}x{r["cols"]}'
def fig(r):
    if r["status"] != "ok":
        return r["status"] + (": " + r.get("error", "")[:60] if r.get("error") else "")
    return f'{r["pct_of_copy"]:.1f}'
print(f"# Tuned filters at every radius and border; dense variants at an odd width"
      f" ({device})\n")
print("% of the same call's device-to-device copy; median of event-timed launches, verified"
      " first.\n")
print("| variant | size | r | border | % of copy | median ms |")
print("|---|---|---:|---|---:|---:|")
for r in sorted(runs, key=lambda r: (key(r), r["variant"])):
    if r["status"] == "skipped":
        continue
    rr, bb = (r["radius"], r["border"]) if filters(r) else ("-", "-")
    ms = f'{r["median_ms"]:.4f}' if r["status"] == "ok" else "-"
    print(f'| {r["variant"]} | {size(r)} | {rr} | {bb} | {fig(r)} | {ms} |')
print("\n## Best per (operation, size, r, border)\n")
print("| op | size | r | border | best variant | % of copy | >= 95% (filters) / 90% (odd width) |")
print("|---|---|---:|---|---|---:|---|")
best = {}
for r in runs:
    if r["status"] != "ok":
        continue
    k = key(r)
    if k not in best or r["pct_of_copy"] > best[k]["pct_of_copy"]:
        best[k] = r
failed = [r for r in runs if r["status"] == "failed"]
for k in sorted(best):
    r = best[k]
    odd = r["cols"] % 4 != 0
    goal = 90.0 if odd else 95.0
    rr, bb = (r["radius"], r["border"]) if filters(r) else ("-", "-")
    print(f'| {r["op"]} | {size(r)} | {rr} | {bb} | {r["variant"]} | {r["pct_of_copy"]:.1f} | '
          f'{"yes" if r["pct_of_copy"] >= goal else "**no**"} |')
if failed:
    print("\n## Failed runs\n")
    for r in failed:
        print(f'- {r["variant"]} {size(r)} r={r["radius"]} {r["border"]}: {r.get("error", "")}')
EOF
tar czf "$OUT/radius-json.tgz" -C "$JSON" .
cat "$OUT/filters_at_every_radius.md"
step "done (exit $status)"
exit $status
