# Sourced by this folder's r83, r84, r89 and r90 after the twentieth session's common.sh (step, $X).

# spans_summary: r82's LAB lines on stdin -> each launch's summary and its six slowest blocks.
spans_summary() { python3 -c '
import re,sys
for l in sys.stdin:
    if l.startswith("LAB ends"):
        v=[(int(a),float(b),int(c)) for a,b,c in re.findall(r" (\d+):([\d.]+)@(\d+)",l)]
        print(" slowest 6 (block,end,sm):", sorted(v,key=lambda x:-x[1])[:6])
    elif l.startswith("LAB"): print(l.rstrip())'; }

# build_peers: NPP's typed peers (bench/peers_native_typed) configured and built on the device into
# build-gpu; the binary's path on stdout.
build_peers() {
  step "NPP peers: configure + build" >&2
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOALESCE_BUILD_GUI=OFF \
    -DCOALESCE_WITH_OPENCV=OFF -DCMAKE_CUDA_ARCHITECTURES=90 -DCOALESCE_BUILD_BENCH=ON \
    > "$OUT/configure.log" 2>&1 &&
    cmake --build build-gpu -j 16 --target peers_native_typed > "$OUT/build.log" 2>&1 ||
    echo "peers build failed" >&2
  find build-gpu -name peers_native_typed -type f | head -1
}
