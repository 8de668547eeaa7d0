// Diagnostic only: the typed filter Y walk before (old_tf.cuh) and after (fast_typed_filters.cuh) a change, same process.
#include "fast_typed_filters.cuh"
#include "old_tf.cuh"
#include "u1_tf.cuh"
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
using namespace coalesce;
#define CK(x) do{cudaError_t e=(x); if(e){printf("%s: %s\n",#x,cudaGetErrorString(e)); exit(1);}}while(0)
template <class T, bool Unit, int Lanes, int G, int W, int L, int Ahead, int MinB, int Ver>
__global__ void __launch_bounds__(Lanes* G, MinB)
    walk(const unsigned char* in, unsigned char* out, long long rows, long long cols, std::size_t pitch, Border border, typed_filters::YWGeom g) {
    namespace tf = typed_filters;
    namespace to = typed_filters_old;
    constexpr int kThreads = Lanes * G;
    extern __shared__ tf::Vec16 yw_smem[];
    unsigned char* ring = reinterpret_cast<unsigned char*>(yw_smem);
    std::uint32_t* xch = reinterpret_cast<std::uint32_t*>(ring + tf::yw_smem_bytes(g));
    const int t = static_cast<int>(threadIdx.x);
    const long long row_bytes = cols * static_cast<long long>(sizeof(T));
    const tf::YWalk w = tf::yw_walk(g, rows, blockIdx.x);
    tf::YWGroup group;
    typed_filters_u1::YWGroup gu;
    const auto load = [&](int k) {
        if constexpr (Ver == 1) { group.next(g, G * L, k); tf::yw_load<4 * W * Lanes, kThreads>(in, rows, row_bytes, pitch, border, g, w, group, t, ring); }
        else if constexpr (Ver == 2) { namespace tu = typed_filters_u1; gu.next(reinterpret_cast<const tu::YWGeom&>(g), G * L, k); tu::yw_load<4 * W * Lanes, kThreads>(in, rows, row_bytes, pitch, border, reinterpret_cast<const tu::YWGeom&>(g), reinterpret_cast<const tu::YWalk&>(w), gu, t, ring); }
        else { long long p0, p1; to::yw_group(reinterpret_cast<const to::YWGeom&>(g), G * L, k, p0, p1); to::yw_load(in, rows, row_bytes, pitch, border, reinterpret_cast<const to::YWGeom&>(g), reinterpret_cast<const to::YWalk&>(w), p0, p1, t, kThreads, ring); }
        tf::commit_copies(); };
    for (int k = 0; k < Ahead; ++k) load(k);
    tf::wait_copies<Ahead - 1>();
    __syncthreads();
    tf::YWState<W, L> st;
    tf::yw_seed<T, W, G, L>(st, row_bytes, g, w, t, Lanes, ring, xch);
    __syncthreads();
    tf::yw_seed_out<T, Unit, W, G, L>(st, out, row_bytes, pitch, g, w, Lanes, xch);
    const int steps = static_cast<int>((w.n_out - 1 + G * L - 1) / (G * L));
    for (int k = 0; k < steps; ++k) {
        tf::wait_copies<Ahead - 1>(); __syncthreads(); load(k + Ahead);
        tf::yw_diff<T, W, G, L, 4 * W * Lanes>(st, g, Lanes, ring, xch);
        if constexpr (G > 1) __syncthreads();
        tf::yw_out<T, Unit, W, G, L>(st, out, row_bytes, pitch, g, w, Lanes, k, xch);
    }
}
template <class T, int Lanes, int G, int L, int MinB, int New>
float time_walk(const unsigned char* in, unsigned char* out, long long rows, long long cols_elems, int r) {
    namespace tf = typed_filters;
    constexpr int W = 1, Ahead = 2, kStrip = 4 * W * Lanes; const long long cols = cols_elems * sizeof(T);
    auto kernel = walk<T, false, Lanes, G, W, L, Ahead, MinB, New>;
    std::size_t smem = (std::size_t)tf::yw_ring_rows(r, G * L, Ahead) * kStrip + (std::size_t)Lanes * G * 8 * W;
    CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    int sms = 0, per = 0; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, kernel, Lanes * G, smem));
    tf::YWGeom g = tf::yw_geometry(rows, cols, r, kStrip, G * L, Ahead, (long long)sms * per, 2LL * G * L);
    unsigned blocks = (unsigned)g.strips * g.walks;
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    std::vector<float> ms;
    for (int i = 0; i < 33; ++i) { cudaEventRecord(a); kernel<<<blocks, Lanes * G, smem>>>(in, out, rows, cols_elems, cols, Border::clamp, g); cudaEventRecord(b); CK(cudaEventSynchronize(b)); float m; cudaEventElapsedTime(&m, a, b); if (i >= 3) ms.push_back(m); }
    CK(cudaGetLastError());
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2] * 1e3f;
}
float time_copy(unsigned char* out, const unsigned char* in, size_t n) {
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b); std::vector<float> cm;
    for (int i = 0; i < 33; ++i) { cudaEventRecord(a); CK(cudaMemcpyAsync(out, in, n, cudaMemcpyDeviceToDevice)); cudaEventRecord(b); CK(cudaEventSynchronize(b)); float m; cudaEventElapsedTime(&m, a, b); if (i >= 3) cm.push_back(m); }
    std::sort(cm.begin(), cm.end()); return cm[cm.size() / 2] * 1e3f;
}
template <class T, int Lanes, int G, int L, int MinB>
void ab(long long rows, long long cols, int r, const char* tag) {
    size_t n = rows * cols * sizeof(T);
    unsigned char *in, *out; CK(cudaMalloc(&in, n)); CK(cudaMalloc(&out, n)); CK(cudaMemset(in, 7, n));
    float c0 = time_copy(out, in, n);
    float o1 = time_walk<T, Lanes, G, L, MinB, 0>(in, out, rows, cols, r);
    float n1 = time_walk<T, Lanes, G, L, MinB, 1>(in, out, rows, cols, r);
    float u1 = time_walk<T, Lanes, G, L, MinB, 2>(in, out, rows, cols, r);
    float o2 = time_walk<T, Lanes, G, L, MinB, 0>(in, out, rows, cols, r);
    float n2 = time_walk<T, Lanes, G, L, MinB, 1>(in, out, rows, cols, r);
    float u2 = time_walk<T, Lanes, G, L, MinB, 2>(in, out, rows, cols, r);
    float c1 = time_copy(out, in, n);
    float c = (c0 + c1) / 2;
    printf("%-9s u%d G%d L%d %lldx%lld r=%2d | copy %.1f us | old %.1f %.1f us (%.1f%%) | new %.1f %.1f us (%.1f%%) | kslot %.1f %.1f (%.1f%%)\n", tag, (int)(8*sizeof(T)), G, L, rows, cols, r, c, o1, o2, 100*c/std::min(o1,o2), n1, n2, 100*c/std::min(n1,n2), u1, u2, 100*c/std::min(u1,u2));
    cudaFree(in); cudaFree(out);
}
int main() {
    using u8 = unsigned char; using u16 = unsigned short;
    for (int r : {1, 64}) {
        ab<u8, 128, 2, 16, 2>(8192, 8192, r, "grey8192");
        ab<u16, 128, 4, 16, 1>(8192, 8192, r, "grey8192");
        ab<u16, 128, 4, 16, 1>(6000, 8000, r, "grey8000");
        ab<u16, 128, 1, 8, 1>(6000, 24000, r, "colour");
    }
}
