#!/usr/bin/env bash
# bench/run.sh: the whole bandwidth comparison in one call on the GPU machine.
#   build (GUI and OpenCV off, sm_90, Release, peers on) -> the fast variants' GPU tests ->
#   compute-sanitizer memcheck/racecheck on small cases -> resource report and SASS of the fast
#   kernels -> Coalesce (coalesce-bench) and every peer at 8192x8192 and 8000x6000, r = 4 and 32 ->
#   the size sweep of the best variants -> one report, results.md (+ sweep.png), under $OUT.
# STAGES picks parts (default: all): build test sanitize sass bench peers sweep report; `ncu` (not in
# the default) profiles NCU_VARIANTS with Nsight Compute's counters (bench/ncu.sh).
# VARIANTS (id prefixes, comma-separated) narrows the bench stage's r = 4 run; default every variant.
# The peers stage also measures the u8/u16 peers (NPP, CuPy) at TYPED_RADII into
# peers_*_typed.jsonl in the logs; results.md does not show them yet (make_table.py has no "type").
# Logs and raw JSON are kept outside $OUT and packed into $OUT/logs.tgz after every stage, so a run
# stopped at its time limit still brings back what it measured.
set -uo pipefail

OUT=${OUT:-$PWD/build-bench/out}  # $OUT is set on the GPU machine; build-* is git-ignored
BUILD=${BUILD:-build-bench}
STAGES=${STAGES:-"build test sanitize sass bench peers sweep report"}
SIZES=${SIZES:-8192x8192,8000x6000}
SWEEP=${SWEEP:-256x256,512x512,1024x1024,2048x2048,4096x4096,8192x8192,16384x16384,65536x1024,1024x65536}
REPS=${REPS:-50}
TYPED_RADII=${TYPED_RADII:-4,32}  # the u8/u16 peers' radii (peers_native_typed, peers_python --types)
LOG=${LOG:-/tmp/coalesce-bench-logs}
rm -rf "$LOG"; mkdir -p "$LOG" "$OUT"
t0=$(date +%s)
pack() { tar czf "$OUT/logs.tgz" -C "$(dirname "$LOG")" "$(basename "$LOG")"; }
step() { pack; echo "== [$(( $(date +%s) - t0 ))s] $*"; }
want() { [[ " $STAGES " == *" $1 "* ]]; }
BIN=$BUILD/bin
# The sweep: the best variant of each operation (bench/NOTES.md), and the plain copy kernel.
BEST=${BEST:-copy/global,transpose/fast-quad-swizzle,row_sums/fast-block-occ8,col_sums/fast-strip-float4,filter_x/fast-seg4096-quad,filter_y/fast-tile-float4}

{
  echo "### Environment"; echo
  echo '```'
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv 2>&1
  nvcc --version | tail -2
  python3 -c "import torch, cupy; print('torch', torch.__version__, '| cupy', cupy.__version__)" 2>&1 | tail -1
  echo '```'
} > "$LOG/env.md"
cat "$LOG/env.md"

if want build; then
  step "configure + build ($BUILD)"
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCOALESCE_BUILD_GUI=OFF -DCOALESCE_WITH_OPENCV=OFF -DCOALESCE_BUILD_BENCH=ON > "$LOG/configure.log" 2>&1 \
    || { tail -40 "$LOG/configure.log"; exit 1; }
  grep -i "bench:" "$LOG/configure.log"
  ninja -C "$BUILD" coalesce-bench coalesce_textures coalesce_gpu_tests coalesce_fast_variant_tests > "$LOG/build.log" 2>&1 \
    || { grep -B2 -A12 -m3 "error" "$LOG/build.log"; exit 1; }
  # NPP's half of the peers is written against headers this repository never compiled with: if it
  # does not build, fall back to the cuBLAS half rather than losing every native peer.
  if ! ninja -C "$BUILD" peers_native >> "$LOG/build.log" 2>&1; then
    echo "peers_native with NPP did not build; retrying without NPP's row/column filters"
    grep -m5 "error" "$LOG/build.log"
    cmake -S . -B "$BUILD" -DCOALESCE_BENCH_NPP_ROWCOL=OFF >> "$LOG/configure.log" 2>&1
    if ! ninja -C "$BUILD" peers_native >> "$LOG/build.log" 2>&1; then
      echo "retrying without NPP"
      cmake -S . -B "$BUILD" -DCOALESCE_BENCH_NPP=OFF >> "$LOG/configure.log" 2>&1
      ninja -C "$BUILD" peers_native >> "$LOG/build.log" 2>&1 || echo "peers_native did not build"
    fi
  fi
  # The u8/u16 peers, under whatever NPP configuration peers_native settled on.
  ninja -C "$BUILD" peers_native_typed > "$LOG/build_typed.log" 2>&1 \
    || { grep -m5 "error" "$LOG/build_typed.log"; echo "peers_native_typed did not build"; }
fi

if want test; then
  step "GPU tests of the fast variants"
  timeout 100 "$BIN/coalesce_gpu_tests" --gtest_filter='*fast*:BuiltinGpuVariants.*' --gtest_brief=1 \
    > "$LOG/gpu_tests.log" 2>&1; echo "coalesce_gpu_tests (fast variants): rc=$?"
  tail -4 "$LOG/gpu_tests.log"
  timeout 100 "$BIN/coalesce_fast_variant_tests" --gtest_brief=1 > "$LOG/fast_tests.log" 2>&1
  echo "coalesce_fast_variant_tests: rc=$?"
  tail -4 "$LOG/fast_tests.log"
fi

if want sanitize; then
  step "compute-sanitizer"
  # One test per variant and shape, every radius and border inside it (fast_variants_test.cpp).
  t=Fast/FastVariantTest
  small="$t.*_33x65:$t.*_4097x3:$t.*_3x4097:$t.*_37x4:$t.*_2x8192"
  timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/coalesce_fast_variant_tests" \
    --gtest_filter="$small" --gtest_brief=1 > "$LOG/memcheck.log" 2>&1; echo "memcheck: rc=$?"
  tail -3 "$LOG/memcheck.log"
  timeout 80 compute-sanitizer --tool racecheck --error-exitcode 9 "$BIN/coalesce_fast_variant_tests" \
    --gtest_filter="$t.*filter*_33x65:$t.*transpose*_4097x3:$t.*col_sums*_4100x36:$t.*col_sums*_4097x3" \
    --gtest_brief=1 > "$LOG/racecheck.log" 2>&1; echo "racecheck: rc=$?"
  tail -3 "$LOG/racecheck.log"
fi

if want sass; then
  step "SASS of the fast kernels"
  mkdir -p "$LOG/sass"
  for o in "$BUILD"/kernels/CMakeFiles/coalesce_kernels.dir/fast_*.cu.o; do
    f=$(basename "$o" .cu.o)
    cuobjdump -sass "$o" > "$LOG/sass/$f.sass" 2>&1
    printf "%-16s LDG.128 %3d  STG.128 %3d  LDG(32) %3d  STG(32) %3d  LDS %3d  STS %3d  LDL/STL %d\n" "$f" \
      "$(grep -c 'LDG.E.128' "$LOG/sass/$f.sass")" "$(grep -c 'STG.E.128' "$LOG/sass/$f.sass")" \
      "$(grep -E -c 'LDG\.E(\.CONSTANT)? ' "$LOG/sass/$f.sass")" "$(grep -E -c 'STG\.E ' "$LOG/sass/$f.sass")" \
      "$(grep -c ' LDS' "$LOG/sass/$f.sass")" "$(grep -c ' STS' "$LOG/sass/$f.sass")" \
      "$(grep -E -c ' (LDL|STL)' "$LOG/sass/$f.sass")"
  done | tee "$LOG/sass_summary.txt"
fi

if want bench; then
  step "Coalesce, every GPU variant, $SIZES, r = 4"
  timeout 150 "$BIN/coalesce-bench" ${VARIANTS:+--variants "$VARIANTS"} --sizes "$SIZES" --radius 4 --border clamp --reps "$REPS" --warmups 5 \
    --json "$LOG/coalesce_r4.json" > "$LOG/coalesce_r4.txt" 2> "$LOG/coalesce_r4.err"; echo "rc=$?"
  grep -i "fast\|memcpy\|copy" "$LOG/coalesce_r4.txt" | head -40
  step "Coalesce filters, r = 32"
  timeout 80 "$BIN/coalesce-bench" --ops filter_x,filter_y --sizes "$SIZES" --radius 32 --border clamp \
    --reps "$REPS" --warmups 5 --json "$LOG/coalesce_r32.json" > "$LOG/coalesce_r32.txt" 2> "$LOG/coalesce_r32.err"
  echo "rc=$?"; grep -i "fast" "$LOG/coalesce_r32.txt" | head
fi

if want peers; then
  step "peers: cuBLAS, NPP"
  timeout 90 "$BIN/peers_native" --sizes "$SIZES" --radii 4,32 --reps "$REPS" > "$LOG/peers_native.jsonl" \
    2> "$LOG/peers_native.err"; echo "rc=$?"; cat "$LOG/peers_native.err" | head
  if [ -x "$BIN/peers_native_typed" ]; then
    step "peers: NPP u8/u16"
    timeout 120 "$BIN/peers_native_typed" --types u8,u16 --sizes "$SIZES" --radii "$TYPED_RADII" --reps "$REPS" \
      > "$LOG/peers_native_typed.jsonl" 2> "$LOG/peers_native_typed.err"; echo "rc=$?"
    head "$LOG/peers_native_typed.err"
  fi
  step "peers: PyTorch, CuPy"
  PYTHONUNBUFFERED=1 timeout 150 python3 bench/peers_python.py --sizes "$SIZES" --radii 4,32 --reps "$REPS" \
    > "$LOG/peers_python.jsonl" 2> "$LOG/peers_python.err"; echo "rc=$?"; tail -5 "$LOG/peers_python.err"
  step "peers: CuPy u8/u16"
  PYTHONUNBUFFERED=1 timeout 120 python3 bench/peers_python.py --only cupy --types u8,u16 --sizes "$SIZES" \
    --radii "$TYPED_RADII" --reps "$REPS" > "$LOG/peers_python_typed.jsonl" 2> "$LOG/peers_python_typed.err"
  echo "rc=$?"; tail -5 "$LOG/peers_python_typed.err"
fi

if want sweep; then
  step "size sweep of the best variants"
  timeout 200 "$BIN/coalesce-bench" --variants "$BEST" --sizes "$SWEEP" --radius 4 --border clamp --reps 30 \
    --warmups 5 --json "$LOG/sweep.json" > "$LOG/sweep.txt" 2> "$LOG/sweep.err"; echo "rc=$?"
  python3 bench/plot_sweep.py "$LOG/sweep.json" "$OUT/sweep.png" || echo "no chart"
fi

if want ncu; then
  step "Nsight Compute counters"
  timeout 240 bash bench/ncu.sh "$BIN/coalesce-bench" "$SIZES" "${NCU_VARIANTS:-copy/global}" > "$LOG/ncu.txt" 2>&1
  echo "rc=$?"; cat "$LOG/ncu.txt" | tail -40
fi

if want report; then
  step report
  {
    cat "$LOG/env.md"; echo
    for f in sass_summary.txt; do [ -f "$LOG/$f" ] && { echo "### SASS of the fast kernels (counts per object file)"; echo; echo '```'; cat "$LOG/$f"; echo '```'; echo; }; done
    for f in gpu_tests fast_tests memcheck racecheck; do
      [ -f "$LOG/$f.log" ] && { echo "### $f (last lines)"; echo; echo '```'; tail -4 "$LOG/$f.log"; echo '```'; echo; }
    done
  } > "$LOG/extra.md"
  python3 bench/make_table.py --coalesce "$LOG/coalesce_r4.json" "$LOG/coalesce_r32.json" \
    --peers "$LOG/peers_native.jsonl" "$LOG/peers_python.jsonl" --sweep "$LOG/sweep.json" --chart sweep.png \
    --extra "$LOG/extra.md" > "$OUT/results.md"
  sed -n '/## Goals/,/## Every/p' "$OUT/results.md"
fi

step done
