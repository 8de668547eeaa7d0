// Diagnostic only (not part of the build): the u8 filter Y walk kernel with each block's start,
// end and SM stamped, to see why 8000x6000 is slower per byte than 8192x8192.
#include "fast_typed_filters.cuh"
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
using namespace coalesce;
namespace tf = typed_filters;
#define CK(x) do{cudaError_t e=(x); if(e){printf("%s: %s\n",#x,cudaGetErrorString(e)); exit(1);}}while(0)
__device__ unsigned long long gt(){unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;":"=l"(t)); return t;}
__device__ unsigned smid(){unsigned s; asm volatile("mov.u32 %0, %%smid;":"=r"(s)); return s;}
struct Stamp { unsigned long long t0, t1, tseed; unsigned sm, pad; };
template <class T, bool Unit, int Lanes, int G, int W, int L, int Ahead, int MinB>
__global__ void __launch_bounds__(Lanes* G, MinB)
    walk(const unsigned char* in, unsigned char* out, long long rows, long long cols, std::size_t pitch, Border border, tf::YWGeom g, Stamp* st_out) {
    unsigned long long t0 = gt();
    constexpr int kThreads = Lanes * G;
    extern __shared__ tf::Vec16 yw_smem[];
    unsigned char* ring = reinterpret_cast<unsigned char*>(yw_smem);
    std::uint32_t* xch = reinterpret_cast<std::uint32_t*>(ring + tf::yw_smem_bytes(g));
    const int t = static_cast<int>(threadIdx.x);
    const long long row_bytes = cols * static_cast<long long>(sizeof(T));
    const tf::YWalk w = tf::yw_walk(g, rows, blockIdx.x);
    const auto load = [&](int k) { long long p0, p1; tf::yw_group(g, G * L, k, p0, p1);
        tf::yw_load(in, rows, row_bytes, pitch, border, g, w, p0, p1, t, kThreads, ring); tf::commit_copies(); };
    for (int k = 0; k < Ahead; ++k) load(k);
    tf::wait_copies<Ahead - 1>();
    __syncthreads();
    tf::YWState<W, L> st;
    tf::yw_seed<T, W, G, L>(st, row_bytes, g, w, t, Lanes, ring, xch);
    __syncthreads();
    tf::yw_seed_out<T, Unit, W, G, L>(st, out, row_bytes, pitch, g, w, Lanes, xch);
    unsigned long long ts = gt();
    const int steps = static_cast<int>((w.n_out - 1 + G * L - 1) / (G * L));
    for (int k = 0; k < steps; ++k) {
        tf::wait_copies<Ahead - 1>(); __syncthreads(); load(k + Ahead);
        tf::yw_diff<T, W, G, L, 4 * W * Lanes>(st, g, Lanes, ring, xch);
        if constexpr (G > 1) __syncthreads();
        tf::yw_out<T, Unit, W, G, L>(st, out, row_bytes, pitch, g, w, Lanes, k, xch);
    }
    __syncthreads();
    if (t == 0) { Stamp s; s.t0 = t0; s.t1 = gt(); s.tseed = ts; s.sm = smid(); s.pad = 0; st_out[blockIdx.x] = s; }
}
template <class T, int Lanes, int G, int Ahead = 2, int L = 16, int MinB = 1>
void run(long long rows, long long cols_elems, int r, long long walks_override, const char* tag) {
    constexpr int W = 1; constexpr int kStrip = 4 * W * Lanes; const long long cols = cols_elems * sizeof(T);
    auto kernel = walk<T, false, Lanes, G, W, L, Ahead, MinB>;
    std::size_t smem = (std::size_t)tf::yw_ring_rows(r, G * L, Ahead) * kStrip + (std::size_t)Lanes * G * 8 * W;
    if (smem > 232448 - 1024) { printf("%-10s skip u%d L%d G%d A%d r=%d smem %zu\n", tag, (int)(8*sizeof(T)), Lanes, G, Ahead, r, smem); return; }
    CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    int sms = 0, per = 0; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, kernel, Lanes * G, smem));
    long long resident = (long long)sms * per;
    tf::YWGeom g = tf::yw_geometry(rows, cols, r, kStrip, G * L, Ahead, walks_override > 0 ? walks_override * ((cols + kStrip - 1) / kStrip) : resident, 2LL * G * L);
    unsigned blocks = (unsigned)g.strips * g.walks;
    unsigned char *in, *out; CK(cudaMalloc(&in, rows * cols)); CK(cudaMalloc(&out, rows * cols));
    CK(cudaMemset(in, 7, rows * cols));
    Stamp* d; CK(cudaMalloc(&d, sizeof(Stamp) * blocks));
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    std::vector<float> ms;
    for (int i = 0; i < 23; ++i) { cudaEventRecord(a); kernel<<<blocks, Lanes * G, smem>>>(in, out, rows, cols_elems, cols, Border::clamp, g, d); cudaEventRecord(b); CK(cudaEventSynchronize(b)); float m; cudaEventElapsedTime(&m, a, b); if (i >= 3) ms.push_back(m); }
    CK(cudaGetLastError());
    std::sort(ms.begin(), ms.end());
    // copy of the same bytes
    std::vector<float> cm;
    for (int i = 0; i < 23; ++i) { cudaEventRecord(a); CK(cudaMemcpyAsync(out, in, rows*cols, cudaMemcpyDeviceToDevice)); cudaEventRecord(b); CK(cudaEventSynchronize(b)); float m; cudaEventElapsedTime(&m, a, b); if (i >= 3) cm.push_back(m); }
    std::sort(cm.begin(), cm.end());
    std::vector<Stamp> h(blocks); CK(cudaMemcpy(h.data(), d, sizeof(Stamp) * blocks, cudaMemcpyDeviceToHost));
    unsigned long long T0 = ~0ull, T1 = 0; for (auto& s : h) { T0 = std::min(T0, s.t0); T1 = std::max(T1, s.t1); }
    std::vector<double> dur, start, end, seed; std::vector<int> persm(sms, 0);
    for (auto& s : h) { dur.push_back((s.t1 - s.t0) / 1e3); start.push_back((s.t0 - T0) / 1e3); end.push_back((s.t1 - T0) / 1e3); seed.push_back((s.tseed - s.t0)/1e3); persm[s.sm]++; }
    auto q = [](std::vector<double> v, double f) { std::sort(v.begin(), v.end()); return v[(size_t)(f * (v.size() - 1))]; };
    int mn = *std::min_element(persm.begin(), persm.end()), mx = *std::max_element(persm.begin(), persm.end());
    printf("%-10s u%d L%d A%d rows%d mb%d %lldx%lld r=%d G=%d per_sm=%d strips=%d walks=%d walk_rows=%lld blocks=%u | kernel %.1f us copy %.1f us = %.1f%% | span %.1f us | dur min/med/max %.1f/%.1f/%.1f | start max %.1f | end min/med %.1f/%.1f | seed med %.1f | blocks/SM %d..%d\n",
        tag, (int)(8*sizeof(T)), Lanes, Ahead, L, MinB, rows, cols_elems, r, G, per, g.strips, g.walks, g.walk_rows, blocks, ms[ms.size()/2]*1e3, cm[cm.size()/2]*1e3, 100*cm[cm.size()/2]/ms[ms.size()/2], (T1 - T0) / 1e3,
        q(dur, 0), q(dur, .5), q(dur, 1), q(start, 1), q(end, 0), q(end, .5), q(seed,.5), mn, mx);
    // duration by strip and by walk (means)
    if (walks_override == 0) {
      printf("   mean dur by strip:"); for (int s = 0; s < g.strips; ++s) { double a2 = 0; for (int k = 0; k < g.walks; ++k) a2 += dur[k * g.strips + s]; printf(" %.0f", a2 / g.walks);} printf("\n");
      printf("   mean dur by walk (dir):"); for (int k = 0; k < g.walks; ++k) printf(" %s", (k & 1) ? "up" : "dn"); printf("\n   "); for (int k = 0; k < g.walks; ++k) { double a2 = 0; for (int s = 0; s < g.strips; ++s) a2 += dur[k * g.strips + s]; printf(" %.0f", a2 / g.strips);} printf("\n");
    }
    cudaFree(in); cudaFree(out); cudaFree(d);
}
int main(int argc, char**) {
    using u8 = unsigned char; using u16 = unsigned short;
    run<u16, 128, 4, 2, 16, 1>(8192, 8192, 4, 0, "grey8192");
    run<u16, 128, 4, 2, 16, 1>(6000, 8000, 4, 0, "grey8000");
    run<u8, 128, 2, 2, 16, 2>(8192, 8192, 4, 0, "grey8192");
    run<u8, 128, 4, 2, 16, 1>(8192, 8192, 64, 0, "grey8192");
}
