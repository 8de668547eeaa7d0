// Twenty-second session lab probe (not part of the build): does a 16-byte cp.async copy cost
// more when its shared-memory destination is 16 bytes off the source's phase mod 32? Each block
// stages 16 KiB of a 512 MiB buffer into shared memory at byte offset OFF (cp.async.cg, 16 bytes
// a thread, four a thread), waits, and writes it back out from shared memory (16-byte loads and
// global stores). Printed: offset, median ms of 20 after 3 warm-ups, GB/s (read + write), and
// the same for a device-to-device cudaMemcpy of the buffer. Build: nvcc -O3 -arch=sm_90
// async_offset.cu -o async_offset
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                              \
    do {                                                                                   \
        cudaError_t e = (x);                                                               \
        if (e != cudaSuccess) {                                                            \
            std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e));                   \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (0)

constexpr int kThreads = 256;
constexpr int kPer = 4;                              // 16-byte copies per thread
constexpr int kBlockBytes = kThreads * kPer * 16;    // 16 KiB

__global__ void __launch_bounds__(kThreads) stage(const unsigned char* in, unsigned char* out,
                                                  long long chunks, int off) {
    extern __shared__ __align__(128) unsigned char smem[];
    unsigned char* s = smem + off;
    for (long long c = blockIdx.x; c < chunks; c += gridDim.x) {
        const unsigned char* src = in + c * kBlockBytes;
        for (int i = 0; i < kPer; ++i) {
            const int b = (threadIdx.x + i * kThreads) * 16;
            const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(s + b));
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(d), "l"(src + b) : "memory");
        }
        asm volatile("cp.async.commit_group;" ::: "memory");
        asm volatile("cp.async.wait_group 0;" ::: "memory");
        __syncthreads();
        for (int i = 0; i < kPer; ++i) {
            const int b = (threadIdx.x + i * kThreads) * 16;
            uint4 v;
            // 16-byte shared loads need 16-byte alignment: off is a multiple of 16.
            v = *reinterpret_cast<const uint4*>(s + b);
            *reinterpret_cast<uint4*>(out + c * kBlockBytes + b) = v;
        }
        __syncthreads();
    }
}

int main() {
    const long long bytes = 512LL << 20;
    const long long chunks = bytes / kBlockBytes;
    unsigned char *in, *out;
    CK(cudaMalloc(&in, bytes));
    CK(cudaMalloc(&out, bytes));
    CK(cudaMemset(in, 1, bytes));
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const int smem = kBlockBytes + 256;
    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, stage, kThreads, smem));
    const int grid = sms * per_sm;
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    const auto time = [&](auto launch) {
        std::vector<float> ms;
        for (int k = 0; k < 23; ++k) {
            CK(cudaEventRecord(a));
            launch();
            CK(cudaEventRecord(b));
            CK(cudaEventSynchronize(b));
            float t = 0;
            CK(cudaEventElapsedTime(&t, a, b));
            if (k >= 3) ms.push_back(t);
        }
        std::sort(ms.begin(), ms.end());
        return ms[ms.size() / 2];
    };
    const float copy = time([&] { CK(cudaMemcpy(out, in, bytes, cudaMemcpyDeviceToDevice)); });
    std::printf("blocks %d (%d per SM)\ncopy      %.3f ms %.1f GB/s\n", grid, per_sm, copy,
                2.0 * bytes / copy / 1e6);
    for (int round = 0; round < 2; ++round)
        for (int off = 0; off <= 240; off += 16) {
            const float t = time([&] {
                stage<<<grid, kThreads, smem>>>(in, out, chunks, off);
                CK(cudaGetLastError());
            });
            std::printf("offset %3d %.3f ms %.1f GB/s %.1f%% of copy\n", off, t,
                        2.0 * bytes / t / 1e6, 100.0 * copy / t);
        }
    return 0;
}
