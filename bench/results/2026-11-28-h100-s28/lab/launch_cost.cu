// Lab (s28): what an event pair around one launch costs for the walk's launch shape, back to back
// with two launches in flight as coalesce-bench times them.
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
__global__ void empty_k(float* p) { extern __shared__ float s[]; if (p && threadIdx.x == 9999) p[0] = s[0]; }
__global__ void copy_k(const float4* __restrict__ a, float4* __restrict__ b, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) b[i] = a[i];
}
template <class F> double med(F launch, cudaStream_t st, int reps = 50) {
  std::vector<cudaEvent_t> a(reps), b(reps);
  for (int i = 0; i < reps; ++i) { cudaEventCreate(&a[i]); cudaEventCreate(&b[i]); }
  for (int i = 0; i < 3; ++i) launch();
  for (int i = 0; i < reps; ++i) {
    if (i >= 2) cudaEventSynchronize(b[i - 2]);
    cudaEventRecord(a[i], st); launch(); cudaEventRecord(b[i], st);
  }
  cudaDeviceSynchronize();
  std::vector<float> ms(reps);
  for (int i = 0; i < reps; ++i) cudaEventElapsedTime(&ms[i], a[i], b[i]);
  std::sort(ms.begin(), ms.end());
  return ms[reps / 2] * 1000.0;
}
int main() {
  cudaStream_t st; CK(cudaStreamCreate(&st));
  const size_t n = 8000ull * 6000;
  float *a, *b; CK(cudaMalloc(&a, n * 4)); CK(cudaMalloc(&b, n * 4));
  CK(cudaMemset(a, 0, n * 4));
  const int big = 180 * 1024;
  CK(cudaFuncSetAttribute(empty_k, cudaFuncAttributeMaxDynamicSharedMemorySize, big));
  printf("empty <<<126,576,0>>>        %.2f us\n", med([&] { empty_k<<<126, 576, 0, st>>>(nullptr); }, st));
  printf("empty <<<126,576,180KB>>>    %.2f us\n", med([&] { empty_k<<<126, 576, big, st>>>(nullptr); }, st));
  printf("empty <<<132,1024,0>>>       %.2f us\n", med([&] { empty_k<<<132, 1024, 0, st>>>(nullptr); }, st));
  printf("empty <<<1,32,0>>>           %.2f us\n", med([&] { empty_k<<<1, 32, 0, st>>>(nullptr); }, st));
  printf("memcpy d2d 8000x6000 f32     %.2f us\n", med([&] { cudaMemcpyAsync(b, a, n * 4, cudaMemcpyDeviceToDevice, st); }, st));
  printf("copy_k <<<132*8,256>>>       %.2f us\n", med([&] { copy_k<<<132 * 8, 256, 0, st>>>((const float4*)a, (float4*)b, n / 4); }, st));
  printf("copy_k half size             %.2f us\n", med([&] { copy_k<<<132 * 8, 256, 0, st>>>((const float4*)a, (float4*)b, n / 8); }, st));
  printf("memcpy half size             %.2f us\n", med([&] { cudaMemcpyAsync(b, a, n * 2, cudaMemcpyDeviceToDevice, st); }, st));
  return 0;
}
