// Scratch harness of the fifteenth session: u8 column sums at 8192x8192, where does the time go
// (README.md beside it has the figures). Not built by CMake:
//   nvcc -O3 -std=c++20 -arch=sm_90 colsums_lab.cu -o lab && ./lab [rows cols]
// main()'s run list was edited between device calls; the kernels behind the README's rows:
//   stream_read                       a plain one-wave stream read, no output
//   colsums<U, 0>                     the replica of the shipped kernel (ticket 0 stores first)
//   colsums<U, 1> / <U, 2>            last block adds the partials (dependent loop) / no combine
//   colsums_wide<S, U, true, _, 0>    loads and adds only, xor of the sums (S pieces of 512 B)
//   colsums_wide<1, 8, true, _, 3/4>  + one store per thread / + one __syncthreads
//   colsums_wide<1, 8, true, _, 1>    + the block epilogue (shared memory, barrier, store)
//   colsums_wide<1, 8, true, _, 5/7>  the shipped combine / last block, all loads in flight
//   colsums_wide<1, 8, true, _, 8>    zero first (the combine kept in the real kernel)
//   colsums_narrow<W, U>              strips of 16 W bytes, each walked whole by one block
#include <cuda_runtime.h>
#include <cuda/atomic>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cstdint>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)
constexpr int kThreads = 256, kWarps = 8;
template <int H = 0>
__device__ __forceinline__ uint4 load16(const unsigned char* p) {
  if constexpr (H == 0) return __ldg(reinterpret_cast<const uint4*>(p));
  uint4 v;
  if constexpr (H == 1)
    asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  else
    asm volatile("ld.global.nc.L1::no_allocate.L2::128B.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  return v;
}
// A plain one-wave stream read (the row-sums pattern): each warp 4 KB contiguous per batch.
__global__ void __launch_bounds__(256) stream_read(const uint4* in, size_t n, unsigned* out) {
  unsigned s = 0;
  const size_t stride = (size_t)gridDim.x * 256 * 8;
  for (size_t i = (size_t)blockIdx.x * 256 * 8 + (threadIdx.x & ~31u) * 8 + (threadIdx.x & 31); i < n; i += stride) {
    uint4 v[8];
#pragma unroll
    for (int k = 0; k < 8; ++k) v[k] = i + 32 * k < n ? __ldg(in + i + 32 * k) : make_uint4(0,0,0,0);
#pragma unroll
    for (int k = 0; k < 8; ++k) s += v[k].x ^ v[k].y ^ v[k].z ^ v[k].w;
  }
  if (s == 0x12345678u) out[0] = s;
}

struct Plan { unsigned strips, chunks, chunk_rows; };

template <int U, int H = 0>
__device__ __forceinline__ void batch(unsigned (&acc)[8], const unsigned char* p, size_t step, unsigned valid) {
  uint4 v[U];
#pragma unroll
  for (int k = 0; k < U; ++k) v[k] = k < (int)valid ? load16<H>(p + k * step) : make_uint4(0, 0, 0, 0);
#pragma unroll
  for (int k = 0; k < U; ++k) {
    const unsigned w[4] = {v[k].x, v[k].y, v[k].z, v[k].w};
#pragma unroll
    for (int q = 0; q < 4; ++q) { acc[2*q] += __byte_perm(w[q], 0, 0x4240); acc[2*q+1] += __byte_perm(w[q], 0, 0x4341); }
  }
}

// Mode 0: shipped epilogue (ticket/flag/atomicAdd). Mode 1: last block reduces partials.
// Mode 2: no combine (each block stores its partials to scratch; wrong output, timing only).
template <int U, int Mode, int H = 0, bool Wide = false>
__global__ void __launch_bounds__(kThreads) colsums(const unsigned char* in, size_t pitch, unsigned rows, unsigned cols,
    unsigned* out, unsigned* tickets, unsigned* flags, unsigned* scratch, Plan plan, unsigned epoch) {
  constexpr int kCols = 512;
  __shared__ unsigned part[kWarps][kCols];
  __shared__ unsigned ticket;
  const unsigned strip = blockIdx.x % plan.strips, chunk = blockIdx.x / plan.strips;
  unsigned my_ticket = 0;
  if (Mode == 0 && threadIdx.x == 0) my_ticket = atomicInc(&tickets[strip], plan.chunks - 1);
  const unsigned warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const unsigned strip_col = strip * kCols, col = strip_col + lane * 16;
  unsigned r = chunk * plan.chunk_rows + warp;
  const unsigned r_end = min((chunk + 1) * plan.chunk_rows, rows);
  unsigned acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  if (col < cols && r < r_end) {
    const size_t step = Wide ? 512 : kWarps * pitch;
    const unsigned char* p = in + (size_t)r * pitch + col;
    if (Wide) {  // timing only: each warp reads U*512 contiguous bytes of row r, then row r + kWarps
      const unsigned char* q = in + (size_t)r * pitch + (col % (cols / U));
      for (; r < r_end; r += kWarps) { batch<U, H>(acc, q, step, U); q += kWarps * pitch; }
    } else {
    for (; r + (U - 1) * kWarps < r_end; r += U * kWarps) { batch<U, H>(acc, p, step, U); p += U * step; }
    if (r < r_end) batch<U, H>(acc, p, step, (r_end - r + kWarps - 1) / kWarps);
    }
  }
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    unsigned* d = &part[warp][lane * 16];
    d[4*q] = acc[2*q] & 0xffff; d[4*q+1] = acc[2*q+1] & 0xffff; d[4*q+2] = acc[2*q] >> 16; d[4*q+3] = acc[2*q+1] >> 16;
  }
  if (threadIdx.x == 0) ticket = my_ticket;
  __syncthreads();
  unsigned sums[2];
#pragma unroll
  for (int i = 0; i < 2; ++i) { const unsigned c = threadIdx.x + i * kThreads; sums[i] = 0;
#pragma unroll
    for (int k = 0; k < kWarps; ++k) sums[i] += part[k][c]; }
  if (Mode == 0) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> flag(flags[strip]);
    if (ticket == 0) {
      for (int i = 0; i < 2; ++i) { unsigned c = strip_col + threadIdx.x + i * kThreads; if (c < cols) out[c] = sums[i]; }
      __threadfence(); __syncthreads();
      if (threadIdx.x == 0) flag.store(epoch, cuda::memory_order_release);
      return;
    }
    if (threadIdx.x == 0) while (flag.load(cuda::memory_order_acquire) != epoch) __nanosleep(64);
    __syncthreads();
    for (int i = 0; i < 2; ++i) { unsigned c = strip_col + threadIdx.x + i * kThreads; if (c < cols) atomicAdd(out + c, sums[i]); }
  } else {
    for (int i = 0; i < 2; ++i) scratch[(size_t)chunk * cols + strip_col + threadIdx.x + i * kThreads] = sums[i];
    if (Mode == 2) return;
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) ticket = atomicInc(&tickets[strip], plan.chunks - 1);
    __syncthreads();
    if (ticket != plan.chunks - 1) return;
    __threadfence();
    for (int i = 0; i < 2; ++i) {
      const unsigned c = strip_col + threadIdx.x + i * kThreads;
      unsigned s = 0;
      for (unsigned k = 0; k < plan.chunks; ++k) s += __ldcg(scratch + (size_t)k * cols + c);
      if (c < cols) out[c] = s;
    }
  }
}


// S 512-byte segments of one row per thread-load group: a warp reads S*512 contiguous bytes of a
// row, U/S rows per batch. Strip = S*512 bytes. Combine: the shipped ticket/flag/atomicAdd.
template <int S, int U, bool NoCombine = false, bool StripMajor = false, int Epi = 0>
__global__ void __launch_bounds__(kThreads) colsums_wide(const unsigned char* in, size_t pitch, unsigned rows, unsigned cols,
    unsigned* out, unsigned* tickets, unsigned* flags, Plan plan, unsigned epoch, unsigned* scratch) {
  constexpr int kCols = 512 * S;
  constexpr int RB = U / S;  // rows per batch
  __shared__ unsigned part[kCols];
  __shared__ unsigned ticket;
  const unsigned strip = StripMajor ? blockIdx.x / plan.chunks : blockIdx.x % plan.strips;
  const unsigned chunk = StripMajor ? blockIdx.x % plan.chunks : blockIdx.x / plan.strips;
  unsigned my_ticket = 0;
  if ((!NoCombine || Epi == 5 || Epi == 8) && threadIdx.x == 0) my_ticket = atomicInc(&tickets[strip], plan.chunks - 1);
  const unsigned warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const unsigned strip_col = strip * kCols;
  unsigned r = chunk * plan.chunk_rows + warp;
  const unsigned r_end = min((chunk + 1) * plan.chunk_rows, rows);
  unsigned acc[S][8];
#pragma unroll
  for (int c = 0; c < S; ++c)
#pragma unroll
    for (int q = 0; q < 8; ++q) acc[c][q] = 0;
  if (!NoCombine && Epi == 0) { for (int i = threadIdx.x; i < kCols; i += kThreads) part[i] = 0;
  __syncthreads(); }
  const size_t step = kWarps * pitch;
  const unsigned char* p = in + (size_t)r * pitch + strip_col + lane * 16;
  for (; r < r_end; r += RB * kWarps, p += RB * step) {
    uint4 v[RB][S];
#pragma unroll
    for (int k = 0; k < RB; ++k)
#pragma unroll
      for (int c = 0; c < S; ++c)
        v[k][c] = r + k * kWarps < r_end && strip_col + c * 512 + lane * 16 < cols ? load16(p + k * step + c * 512) : make_uint4(0, 0, 0, 0);
    if (Epi == 8 && warp == 0 && r == chunk * plan.chunk_rows) {
      const unsigned t0 = __shfl_sync(0xffffffffu, my_ticket, 0);
      if (t0 == 0) {
        for (int i = lane; i < kCols; i += 32) if (strip_col + i < cols) out[strip_col + i] = 0;
        __threadfence();
        __syncwarp();
        if (lane == 0) { cuda::atomic_ref<unsigned, cuda::thread_scope_device> flag(flags[strip]); flag.store(epoch, cuda::memory_order_release); }
      }
    }
#pragma unroll
    for (int k = 0; k < RB; ++k)
#pragma unroll
      for (int c = 0; c < S; ++c) {
        const unsigned w[4] = {v[k][c].x, v[k][c].y, v[k][c].z, v[k][c].w};
#pragma unroll
        for (int q = 0; q < 4; ++q) { acc[c][2*q] += __byte_perm(w[q], 0, 0x4240); acc[c][2*q+1] += __byte_perm(w[q], 0, 0x4341); }
      }
  }
  if (NoCombine && Epi == 1) {
    __shared__ unsigned p8[kWarps][512];
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      unsigned* d = &p8[warp][lane * 16];
      d[4*q] = acc[0][2*q] & 0xffff; d[4*q+1] = acc[0][2*q+1] & 0xffff; d[4*q+2] = acc[0][2*q] >> 16; d[4*q+3] = acc[0][2*q+1] >> 16;
    }
    __syncthreads();
    for (int i = 0; i < 2; ++i) { const unsigned c = threadIdx.x + i * kThreads; unsigned sum = 0;
#pragma unroll
      for (int k = 0; k < kWarps; ++k) sum += p8[k][c];
      scratch[(size_t)chunk * cols + strip_col + c] = sum; }
    return;
  }
  if (Epi == 5 || Epi == 7 || Epi == 8) {  // correct results: smem per-warp partials, then a global combine
    __shared__ unsigned p8[kWarps][512];
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      unsigned* d = &p8[warp][lane * 16];
      d[4*q] = acc[0][2*q] & 0xffff; d[4*q+1] = acc[0][2*q+1] & 0xffff; d[4*q+2] = acc[0][2*q] >> 16; d[4*q+3] = acc[0][2*q+1] >> 16;
    }
    if (threadIdx.x == 0) ticket = my_ticket;
    __syncthreads();
    unsigned sums[2];
    for (int i = 0; i < 2; ++i) { const unsigned c = threadIdx.x + i * kThreads; sums[i] = 0;
#pragma unroll
      for (int k = 0; k < kWarps; ++k) sums[i] += p8[k][c]; }
    if (Epi == 8) {
      if (threadIdx.x == 0) { cuda::atomic_ref<unsigned, cuda::thread_scope_device> flag(flags[strip]);
        while (flag.load(cuda::memory_order_acquire) != epoch) __nanosleep(32); }
      __syncthreads();
      for (int i = 0; i < 2; ++i) { unsigned c = strip_col + threadIdx.x + i * kThreads; if (c < cols) atomicAdd(out + c, sums[i]); }
      return;
    }
    if (Epi == 5) {  // the shipped combine: ticket 0 stores and raises the flag, the others add after it
      cuda::atomic_ref<unsigned, cuda::thread_scope_device> flag(flags[strip]);
      if (ticket == 0) {
        for (int i = 0; i < 2; ++i) { unsigned c = strip_col + threadIdx.x + i * kThreads; if (c < cols) out[c] = sums[i]; }
        __threadfence(); __syncthreads();
        if (threadIdx.x == 0) flag.store(epoch, cuda::memory_order_release);
        return;
      }
      if (threadIdx.x == 0) while (flag.load(cuda::memory_order_acquire) != epoch) __nanosleep(64);
      __syncthreads();
      for (int i = 0; i < 2; ++i) { unsigned c = strip_col + threadIdx.x + i * kThreads; if (c < cols) atomicAdd(out + c, sums[i]); }
      return;
    }
    // Epi 7: partials to scratch, the last block of the strip adds them (all loads in flight)
    for (int i = 0; i < 2; ++i) scratch[(size_t)chunk * cols + strip_col + threadIdx.x + i * kThreads] = sums[i];
    __syncthreads();
    if (threadIdx.x == 0) {
      cuda::atomic_ref<unsigned, cuda::thread_scope_device> t(tickets[strip]);
      ticket = t.fetch_add(1, cuda::memory_order_acq_rel);
      if (ticket == plan.chunks - 1) t.store(0, cuda::memory_order_relaxed);
    }
    __syncthreads();
    if (ticket != plan.chunks - 1) return;
    __threadfence();
    for (int i = 0; i < 2; ++i) {
      const unsigned c = strip_col + threadIdx.x + i * kThreads;
      unsigned v[32];
#pragma unroll
      for (int k = 0; k < 32; ++k) v[k] = k < (int)plan.chunks ? __ldcg(scratch + (size_t)k * cols + c) : 0u;
      unsigned s2 = 0;
#pragma unroll
      for (int k = 0; k < 32; ++k) s2 += v[k];
      for (unsigned k = 32; k < plan.chunks; ++k) s2 += __ldcg(scratch + (size_t)k * cols + c);
      if (c < cols) out[c] = s2;
    }
    return;
  }
  if (NoCombine && Epi == 2) {
    unsigned* d = scratch + ((size_t)chunk * kWarps + warp) * cols + strip_col + lane * 16;
#pragma unroll
    for (int q = 0; q < 4; ++q) { d[4*q] = acc[0][2*q] & 0xffff; d[4*q+1] = acc[0][2*q+1] & 0xffff; d[4*q+2] = acc[0][2*q] >> 16; d[4*q+3] = acc[0][2*q+1] >> 16; }
    return;
  }
  if (NoCombine) {  // timing only: one word per thread so the sums stay live
    unsigned x = 0;
#pragma unroll
    for (int c = 0; c < S; ++c)
#pragma unroll
      for (int q = 0; q < 8; ++q) x ^= acc[c][q];
    if (Epi == 3) { scratch[(size_t)blockIdx.x * kThreads + threadIdx.x] = x; return; }
    if (Epi == 4) { __syncthreads(); if (x == 0x9e3779b9u) out[0] = x; return; }
    if (x == 0x9e3779b9u) out[0] = x;
    return;
  }
#pragma unroll
  for (int c = 0; c < S; ++c)
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      unsigned* d = &part[c * 512 + lane * 16];
      atomicAdd(d + 4*q, acc[c][2*q] & 0xffff); atomicAdd(d + 4*q+1, acc[c][2*q+1] & 0xffff);
      atomicAdd(d + 4*q+2, acc[c][2*q] >> 16); atomicAdd(d + 4*q+3, acc[c][2*q+1] >> 16);
    }
  if (threadIdx.x == 0) ticket = my_ticket;
  __syncthreads();
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> flag(flags[strip]);
  if (ticket == 0) {
    for (int i = threadIdx.x; i < kCols; i += kThreads) if (strip_col + i < cols) out[strip_col + i] = part[i];
    __threadfence(); __syncthreads();
    if (threadIdx.x == 0) flag.store(epoch, cuda::memory_order_release);
    return;
  }
  if (threadIdx.x == 0) while (flag.load(cuda::memory_order_acquire) != epoch) __nanosleep(64);
  __syncthreads();
  for (int i = threadIdx.x; i < kCols; i += kThreads) if (strip_col + i < cols) atomicAdd(out + strip_col + i, part[i]);
}


// Narrow strips walked whole: a strip of 16*W bytes (W threads per row), a 256-thread block takes
// 256/W rows per step and walks all rows of its strip with U loads in flight per thread; the block
// meets in shared memory and stores its strip's sums (no combine across blocks).
template <int W, int U>
__global__ void __launch_bounds__(256) colsums_narrow(const unsigned char* in, size_t pitch, unsigned rows, unsigned cols, unsigned* out) {
  constexpr int R = 256 / W;           // rows per step
  constexpr int kC = 16 * W;           // strip columns (bytes)
  __shared__ unsigned part[R][kC + 1];
  const unsigned tw = threadIdx.x % W, tr = threadIdx.x / W;
  const unsigned col = blockIdx.x * kC + tw * 16;
  unsigned acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  if (col < cols) {
    const unsigned char* p = in + (size_t)tr * pitch + col;
    const size_t step = (size_t)R * pitch;
    unsigned r = tr;
    for (; r + (U - 1) * R < rows; r += U * R, p += U * step) {
      uint4 v[U];
#pragma unroll
      for (int k = 0; k < U; ++k) v[k] = load16(p + k * step);
#pragma unroll
      for (int k = 0; k < U; ++k) {
        const unsigned w[4] = {v[k].x, v[k].y, v[k].z, v[k].w};
#pragma unroll
        for (int q = 0; q < 4; ++q) { acc[2*q] += __byte_perm(w[q], 0, 0x4240); acc[2*q+1] += __byte_perm(w[q], 0, 0x4341); }
      }
    }
    for (; r < rows; r += R, p += step) {
      const uint4 v = load16(p);
      const unsigned w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
      for (int q = 0; q < 4; ++q) { acc[2*q] += __byte_perm(w[q], 0, 0x4240); acc[2*q+1] += __byte_perm(w[q], 0, 0x4341); }
    }
  }
  unsigned* d = &part[tr][tw * 16];
#pragma unroll
  for (int q = 0; q < 4; ++q) { d[4*q] = acc[2*q] & 0xffff; d[4*q+1] = acc[2*q+1] & 0xffff; d[4*q+2] = acc[2*q] >> 16; d[4*q+3] = acc[2*q+1] >> 16; }
  __syncthreads();
  // kC columns x R partial rows: 256 threads, 256/kC threads per column, then a shuffle-free tree in smem
  constexpr int TPC = 256 / kC;  // threads per column
  const unsigned c = threadIdx.x % kC, g = threadIdx.x / kC;
  unsigned s = 0;
  for (int k = g; k < R; k += TPC) s += part[k][c];
  __syncthreads();
  part[g][c] = s;
  __syncthreads();
  if (g == 0) {
    for (int k = 1; k < TPC; ++k) s += part[k][c];
    if (blockIdx.x * kC + c < cols) out[blockIdx.x * kC + c] = s;
  }
}

template <class K>
float time_it(K launch, int reps = 50) {
  for (int i = 0; i < 5; ++i) launch();
  cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  std::vector<float> ms;
  for (int i = 0; i < reps; ++i) { CK(cudaEventRecord(a)); launch(); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b)); float m; CK(cudaEventElapsedTime(&m, a, b)); ms.push_back(m); }
  CK(cudaGetLastError());
  std::sort(ms.begin(), ms.end()); return ms[ms.size() / 2];
}

int main(int argc, char** argv) {
  const unsigned rows = argc > 1 ? atoi(argv[1]) : 8192, cols = argc > 2 ? atoi(argv[2]) : 8192;
  const size_t bytes = (size_t)rows * cols;
  unsigned char *in, *dst; unsigned *out, *tickets, *flags, *scratch;
  CK(cudaMalloc(&in, bytes)); CK(cudaMalloc(&dst, bytes));
  std::vector<unsigned char> h(bytes); uint64_t x = 88172645463325252ull;
  for (auto& c : h) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; c = (unsigned char)x; }
  CK(cudaMemcpy(in, h.data(), bytes, cudaMemcpyHostToDevice));
  std::vector<unsigned> ref(cols, 0);
  for (size_t r = 0; r < rows; ++r) for (size_t c = 0; c < cols; ++c) ref[c] += h[r * cols + c];
  CK(cudaMalloc(&out, cols * 4)); CK(cudaMalloc(&tickets, 4096)); CK(cudaMalloc(&flags, 4096));
  CK(cudaMemset(tickets, 0, 4096)); CK(cudaMemset(flags, 0, 4096));
  CK(cudaMalloc(&scratch, (size_t)cols * 4 * 4096));
  const float copy_ms = time_it([&] { CK(cudaMemcpyAsync(dst, in, bytes, cudaMemcpyDeviceToDevice)); });
  const double copy_gbs = 2.0 * bytes / copy_ms / 1e6;
  printf("copy %.4f ms %.1f GB/s\n", copy_ms, copy_gbs);
  unsigned epoch = 0;
  auto run_narrow = [&](const char* name, auto kernel, int W) {
    const unsigned blocks = (cols + 16 * W - 1) / (16 * W);
    auto launch = [&] { kernel<<<blocks, 256>>>(in, cols, rows, cols, out); };
    CK(cudaMemset(out, 0xff, cols * 4)); launch(); CK(cudaDeviceSynchronize());
    std::vector<unsigned> got(cols); CK(cudaMemcpy(got.data(), out, cols * 4, cudaMemcpyDeviceToHost));
    const bool ok = got == ref;
    const float ms = time_it(launch);
    printf("%-28s blocks %4u               %.4f ms  %.1f GB/s  %.1f%% of copy  %s\n", name, blocks, ms, bytes / ms / 1e6, 100.0 * bytes / ms / 1e6 / copy_gbs, ok ? "ok" : "WRONG");
  };
  auto run_wide = [&](const char* name, auto kernel, int S, int blocks_per_sm) {
    Plan p; p.strips = (cols + 512 * S - 1) / (512 * S);
    unsigned chunks = std::max(1u, blocks_per_sm * 132u / p.strips);
    unsigned cr = ((rows + chunks - 1) / chunks + 7) / 8 * 8;
    p.chunk_rows = cr; p.chunks = (rows + cr - 1) / cr;
    CK(cudaMemset(tickets, 0, 4096));
    auto launch = [&] { kernel<<<p.strips * p.chunks, kThreads>>>(in, cols, rows, cols, out, tickets, flags, p, ++epoch, scratch); };
    CK(cudaMemset(out, 0xff, cols * 4)); launch(); CK(cudaDeviceSynchronize());
    std::vector<unsigned> got(cols); CK(cudaMemcpy(got.data(), out, cols * 4, cudaMemcpyDeviceToHost));
    const bool ok = got == ref;
    const float ms = time_it(launch);
    printf("%-28s chunks %3u x %4u rows  %.4f ms  %.1f GB/s  %.1f%% of copy  %s\n", name, p.chunks, p.chunk_rows, ms, bytes / ms / 1e6, 100.0 * bytes / ms / 1e6 / copy_gbs, ok ? "ok" : "WRONG");
  };
  auto run = [&](const char* name, auto kernel, int blocks_per_sm, unsigned chunk_rows_req) {
    Plan p; p.strips = (cols + 511) / 512;
    unsigned capacity = blocks_per_sm * 132;
    unsigned chunks = std::max(1u, capacity / p.strips);
    unsigned cr = chunk_rows_req ? chunk_rows_req : ((rows + chunks - 1) / chunks + 7) / 8 * 8;
    p.chunk_rows = cr; p.chunks = (rows + cr - 1) / cr;
    auto launch = [&] { kernel<<<p.strips * p.chunks, kThreads>>>(in, cols, rows, cols, out, tickets, flags, scratch, p, ++epoch); };
    CK(cudaMemset(out, 0xff, cols * 4)); launch(); CK(cudaDeviceSynchronize());
    std::vector<unsigned> got(cols); CK(cudaMemcpy(got.data(), out, cols * 4, cudaMemcpyDeviceToHost));
    const bool ok = got == ref;
    const float ms = time_it(launch);
    printf("%-28s chunks %3u x %4u rows  %.4f ms  %.1f GB/s  %.1f%% of copy  %s\n", name, p.chunks, p.chunk_rows, ms, bytes / ms / 1e6, 100.0 * bytes / ms / 1e6 / copy_gbs, ok ? "ok" : "WRONG");
  };
  {
    for (int bps : {2, 4, 8}) {
      const unsigned blocks = 132 * bps;
      auto launch = [&] { stream_read<<<blocks, 256>>>((const uint4*)in, bytes / 16, out); };
      const float ms = time_it(launch);
      printf("stream_read %2d/SM                                  %.4f ms  %.1f GB/s  %.1f%% of copy\n", bps, ms, bytes / ms / 1e6, 100.0 * bytes / ms / 1e6 / copy_gbs);
    }
  }
  for (int rep = 0; rep < 2; ++rep) {
  run("shipped U8 4/SM", colsums<8, 0>, 4, 0);
  run_narrow("narrow W4 U8", colsums_narrow<4, 8>, 4);
  run_narrow("narrow W4 U16", colsums_narrow<4, 16>, 4);
  run_narrow("narrow W2 U8", colsums_narrow<2, 8>, 2);
  run_narrow("narrow W2 U16", colsums_narrow<2, 16>, 2);
  run_narrow("narrow W8 U16", colsums_narrow<8, 16>, 8);
  }
  return 0;
}
