# scripts/gpu-check.sh's build and tests on the final tree (after the warning fixes: colour_interleaved's
# x_load lost a parameter, test names rebuilt). From the repo root, no carry:
# timeout 590 bash bench/results/2026-11-27-h100-s26/lab/r107.sh
OUT=$OUT/gc COALESCE_CUDA_ARCH=90 COALESCE_GPU_CHECK_STEPS=build,tests \
  bash scripts/gpu-check.sh > $OUT/gc.txt 2>&1
echo "gpu-check rc $?"
sed -n '/== summary/,$p' $OUT/gc.txt | head -12; echo "build warnings: $(grep -c "warning:" $OUT/gc/build.log)"; grep "warning:" $OUT/gc/build.log | sed "s/.*warning: //" | sort | uniq -c
grep -E '^== \[' $OUT/gc.txt
