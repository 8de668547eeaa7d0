# The whole scripts/gpu-check.sh on 00e5c52 (build, every test binary, compute-sanitizer, the
# benchmark), first since the column sums' swizzle and flag waiter. From the repo root, no carry:
# timeout 590 bash bench/results/2026-11-27-h100-s26/lab/r103.sh
OUT=$OUT/gc COALESCE_CUDA_ARCH=90 COALESCE_GPU_CHECK_STEPS=build,tests,sanitize,bench \
  bash scripts/gpu-check.sh > $OUT/gc.txt 2>&1
echo "gpu-check rc $?"
sed -n '/== summary/,$p' $OUT/gc.txt
grep -E '^== \[' $OUT/gc.txt
