#!/usr/bin/env bash
# bench/lessons_check.sh: are the classic variants the course's lessons, on this GPU?
#   builds coalesce-bench and bench/textbook_reference.cu (the same ideas written the textbook way,
#   outside Coalesce) -> runs both at 8192x8192 and 16384x16384 -> one table: each idea's % of the
#   same process's device copy in Coalesce and in the textbook version, the difference (the goal is
#   3 points or less), and the lessons' orderings (padded > tiled > naive transpose; naive column
#   sums faster than naive row sums). Needs CUDA, CMake, Ninja and python3 (standard library only).
# Environment: BUILD (default build-lessons), SIZES (default 8192x8192,16384x16384), REPS
# (default 30, at least 20), OUT (where the raw CSV/JSON and the table go; default $BUILD/out).
set -euo pipefail

BUILD=${BUILD:-build-lessons}
SIZES=${SIZES:-8192x8192,16384x16384}
REPS=${REPS:-30}
OUT=${OUT:-$BUILD/out}
mkdir -p "$OUT"
t0=$(date +%s)
step() { echo "== [$(( $(date +%s) - t0 ))s] $*"; }

# The classic variant that stands for each textbook kernel: textbook name=Coalesce id.
PAIRS="transposeNaive=transpose/global-naive
transposeCoalesced=transpose/shared-tile
transposeNoBankConflicts=transpose/shared-padded
rowSums (thread per row)=row_sums/global-thread-per-row
colSums (thread per col)=col_sums/global-thread-per-col
filterXShared (r=4)=filter_x/shared-tile
filterYShared (r=4)=filter_y/shared-tile"
VARIANTS=$(echo "$PAIRS" | sed 's/.*=//' | paste -sd, -)

step "configure + build ($BUILD)"
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCOALESCE_BUILD_GUI=OFF -DCOALESCE_WITH_OPENCV=OFF -DCOALESCE_BUILD_TESTS=OFF \
  -DCOALESCE_BUILD_BENCH=ON > "$OUT/configure.log" 2>&1 \
  || { tail -30 "$OUT/configure.log"; exit 1; }
ninja -C "$BUILD" coalesce-bench textbook_reference > "$OUT/build.log" 2>&1 \
  || { grep -B2 -A12 -m3 error "$OUT/build.log"; exit 1; }

step "textbook reference"
"$BUILD/bin/textbook_reference" --reps "$REPS" --csv "$OUT/textbook.csv" ${SIZES//,/ } \
  | tee "$OUT/textbook.txt"

step "coalesce-bench: $VARIANTS"
"$BUILD/bin/coalesce-bench" --variants "$VARIANTS" --sizes "$SIZES" --reps "$REPS" \
  --json "$OUT/coalesce.json" > "$OUT/coalesce.txt" 2> "$OUT/coalesce.err" \
  || { cat "$OUT/coalesce.txt" "$OUT/coalesce.err"; exit 1; }
head -1 "$OUT/coalesce.txt"

step "table"
PAIRS="$PAIRS" python3 - "$OUT/textbook.csv" "$OUT/coalesce.json" <<'EOF' \
  | tee "$OUT/lessons_check.md"
import csv, json, os, sys

pairs = [line.rsplit("=", 1) for line in os.environ["PAIRS"].splitlines()]
textbook = {(r["kernel"], int(r["rows"]), int(r["cols"])): r
            for r in csv.DictReader(open(sys.argv[1]))}
record = json.load(open(sys.argv[2]))
runs = {(r["variant"], r["rows"], r["cols"]): r for r in record["runs"]}
sizes = sorted({(rows, cols) for (_, rows, cols) in textbook})

print(f"device: {record['device'].get('name', '?')}\n")
print("| size | idea (textbook kernel) | Coalesce variant | Coalesce % of copy | textbook % of copy"
      " | difference | within 3 points |")
print("|---|---|---|---:|---:|---:|---|")
worst = 0.0
for rows, cols in sizes:
    for name, variant in pairs:
        t = textbook.get((name, rows, cols))
        c = runs.get((variant, rows, cols))
        ok = c is not None and c.get("status") == "ok" and c.get("verified")
        if t is None or not ok:
            why = "not measured" if c is None else (c.get("error") or c.get("status"))
            tp = t["pct_of_copy"] if t else "-"
            print(f"| {rows}x{cols} | {name} | {variant} | {why} | {tp} | - | - |")
            worst = float("inf")
            continue
        cp, tp = float(c["pct_of_copy"]), float(t["pct_of_copy"])
        worst = max(worst, tp - cp)
        print(f"| {rows}x{cols} | {name} | {variant} | {cp:.1f} | {tp:.1f} | {cp - tp:+.1f} |"
              f" {'yes' if tp - cp <= 3.0 else '**no**'} |")

def ms(variant, rows, cols):
    r = runs.get((variant, rows, cols))
    return r["median_ms"] if r and r.get("status") == "ok" and r.get("verified") else None

print("\n| size | lesson | Coalesce | holds |")
print("|---|---|---|---|")
for rows, cols in sizes:
    naive, tile, padded = (ms(f"transpose/{v}", rows, cols)
                           for v in ("global-naive", "shared-tile", "shared-padded"))
    row = ms("row_sums/global-thread-per-row", rows, cols)
    col = ms("col_sums/global-thread-per-col", rows, cols)
    if None not in (naive, tile, padded):
        holds = padded < tile < naive
        print(f"| {rows}x{cols} | padded < tiled < naive transpose (ms) |"
              f" {padded:.4f} < {tile:.4f} < {naive:.4f} | {'yes' if holds else '**no**'} |")
    if None not in (row, col):
        print(f"| {rows}x{cols} | naive column sums faster than naive row sums (ms) |"
              f" {col:.4f} vs {row:.4f} | {'yes' if col < row else '**no**'} |")
print(f"\nlargest shortfall against the textbook: {worst:+.1f} points" if worst != float("inf")
      else "\nsome pairs were not measured")
EOF
step "done: $OUT/lessons_check.md"
