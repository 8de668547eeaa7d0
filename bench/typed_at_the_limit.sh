#!/usr/bin/env bash
# bench/typed_at_the_limit.sh: issue 14's table on the GPU machine, in one call: the tuned u8 and
# u16 variants of the six operations at 8192x8192 and 8000x6000 (grey) and at 8000x6000 with 3
# channels (colour), each against the same run's device copy of the same bytes, beside NPP's 8u/16u
# peers (bench/peers_native_typed) and CuPy on uint8/uint16 (bench/peers_python.py, where python3
# has CuPy) at the same sizes; then one table: the best Coalesce variant per (operation, type,
# channels, size[, r]), its % of copy, the fastest peer and the ratio.
#   BENCH=path/to/coalesce-bench PEERS=path/to/peers_native_typed (built with
#   -DCOALESCE_BUILD_BENCH=ON) RADII="1 4 64" (filters) REPS=20 WARMUPS=3 OUT=folder
# Output under $OUT: typed_at_the_limit.md and typed-json.tgz (every run).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/build-typed/out}
BENCH=${BENCH:-build-gpu/bin/coalesce-bench}
PEERS=${PEERS:-$(find build-gpu -name peers_native_typed -type f 2>/dev/null | head -1)}
REPS=${REPS:-20}
WARMUPS=${WARMUPS:-3}
RADII=${RADII:-"1 4 64"}
GREY=${GREY:-8192x8192,8000x6000}
COLOUR=${COLOUR:-8000x6000}
JSON=$(mktemp -d)
mkdir -p "$OUT"
status=0
run() {  # name, coalesce-bench arguments...
  local name=$1; shift
  echo "== $name"
  "$BENCH" --type u8,u16 --tier tuned --reps "$REPS" --warmups "$WARMUPS" "$@" \
    --json "$JSON/$name.json" > "$JSON/$name.txt" 2> "$JSON/$name.err" \
    || { status=1; tail -3 "$JSON/$name.err"; }
}
run grey --ops copy,transpose,row_sums,col_sums --sizes "$GREY"
[ -n "$COLOUR" ] && run colour --ops copy,transpose,row_sums,col_sums --sizes "$COLOUR" --channels 3
for r in $RADII; do
  run "grey_r$r" --ops filter_x,filter_y --sizes "$GREY" --radius "$r"
  [ -n "$COLOUR" ] && run "colour_r$r" --ops filter_x,filter_y --sizes "$COLOUR" --radius "$r" \
    --channels 3
done
if [ -n "$PEERS" ] && [ -x "$PEERS" ]; then
  echo "== peers"
  "$PEERS" --types u8,u16 --sizes "$GREY" --radii "${RADII// /,}" --reps "$REPS" \
    > "$JSON/peers.jsonl" 2> "$JSON/peers.err" || { status=1; tail -3 "$JSON/peers.err"; }
else
  echo "== peers: no peers_native_typed ($PEERS): no NPP peers"
fi
if python3 -c "import cupy" 2> /dev/null; then
  echo "== CuPy peers"
  python3 "$(dirname "$0")/peers_python.py" --only cupy --types u8,u16 --sizes "$GREY" \
    --radii "${RADII// /,}" --reps "$REPS" >> "$JSON/peers.jsonl" 2>> "$JSON/peers.err" ||
    { status=1; tail -3 "$JSON/peers.err"; }
else
  echo "== CuPy peers: python3 has no cupy"
fi
python3 "$(dirname "$0")/typed_table.py" "$JSON" > "$OUT/typed_at_the_limit.md" || status=1
tar czf "$OUT/typed-json.tgz" -C "$JSON" .
cat "$OUT/typed_at_the_limit.md"
exit $status
