// Scratch: how many clusters of 1/2/4/8 blocks of 512 threads with 135 KB (or 68 KB) of shared
// memory can be resident at once on this GPU.
#include <cuda_runtime.h>
#include <cstdio>
__global__ void dummy(float* p) { extern __shared__ float s[]; if (p) p[threadIdx.x] = s[threadIdx.x]; }
int main() {
  cudaDeviceProp prop; cudaGetDeviceProperties(&prop, 0);
  printf("%s: %d SMs\n", prop.name, prop.multiProcessorCount);
  cudaFuncSetAttribute(dummy, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024);
  cudaFuncSetAttribute(dummy, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  for (size_t smem : {size_t(135168), size_t(67584)})
    for (int threads : {512, 256})
      for (int cs : {1, 2, 4, 8, 16}) {
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(132 / cs * cs); cfg.blockDim = dim3(threads); cfg.dynamicSmemBytes = smem;
        cudaLaunchAttribute attr; attr.id = cudaLaunchAttributeClusterDimension;
        attr.val.clusterDim.x = cs; attr.val.clusterDim.y = 1; attr.val.clusterDim.z = 1;
        cfg.attrs = &attr; cfg.numAttrs = 1;
        int n = -1; cudaError_t e = cudaOccupancyMaxActiveClusters(&n, dummy, &cfg);
        printf("smem %6zu threads %3d cluster %2d: max active clusters %3d (%3d blocks) %s\n", smem, threads, cs, n, n * cs, e == cudaSuccess ? "" : cudaGetErrorString(e));
      }
  return 0;
}
