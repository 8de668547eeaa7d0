# The whole scripts/gpu-check.sh on d0f5248 (build, every test binary, compute-sanitizer, the
# benchmark), first since eaffd76 changed u8 filter Y. From the repo root, no carry:
# timeout 590 bash bench/results/2026-11-27-h100-s25/lab/r92.sh
OUT=$OUT/gc COALESCE_CUDA_ARCH=90 COALESCE_GPU_CHECK_STEPS=build,tests,sanitize,bench \
  bash scripts/gpu-check.sh > $OUT/gc.txt 2>&1
echo "gpu-check rc $?"
sed -n '/== summary/,$p' $OUT/gc.txt
grep -E '^== \[' $OUT/gc.txt
