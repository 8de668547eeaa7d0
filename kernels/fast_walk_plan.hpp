// How the strip walks cover a matrix. WalkKernels holds a walk kernel's instances, one per strip
// width, for filter_y/fast-walk, -walk-scan and -walk-prefix. walk_shape is the prefix walk's
// plan: the strip width, 128, 96 or 64 columns (32, 24 or 16 float4 lanes), and the rows each
// block walks. About one wave: each strip cut into as many walks as the resident blocks hold, of
// at least min_rows output rows (a walk's halo and pipeline fill cost once per walk) and at most
// max_rows (0: no limit). Of the widths, the one whose walks keep the most of the resident
// blocks busy, the wider unless a narrower one does 2% better (a wider strip reads longer runs of
// each row); blocks idle in a last partial wave count against a width. At 6000 columns and r =
// 64, 47 strips of 128 x 2 walks fill 94 of 132 blocks, 63 strips of 96 x 2 walks 126.
// (filter_y/fast-walk and -walk-scan plan equal runs across strips instead: fast_walk_runs.cuh.)
#pragma once

#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_index.cuh"
#include "fast_common.cuh"

#include <algorithm>
#include <array>
#include <cstddef>
#include <mutex>
#include <type_traits>

namespace coalesce::fast {

// The widest strip, in float4 lanes (128 columns): a plan's width until it chooses one.
constexpr int kWideLanes = 32;

struct WalkShape {
    int lanes = kWideLanes;  // float4 columns per strip
    unsigned strips = 1;
    std::size_t walk_rows = 1;  // output rows per block
};

// resident_of(lanes): the blocks of that width's kernel the device holds at once; `widths`, the
// lane counts to choose from, widest first.
template <class ResidentOf, class Widths>
WalkShape walk_shape(Shape s, ResidentOf resident_of, const Widths& widths, std::size_t min_rows,
                     std::size_t max_rows = 0) {
    WalkShape best;
    double best_busy = -1;
    for (int lanes : widths) {
        WalkShape p;
        p.lanes = lanes;
        p.strips =
            static_cast<unsigned>(gpu::ceil_div(s.cols, static_cast<std::size_t>(lanes) * 4));
        const std::size_t resident = std::max<std::size_t>(1, resident_of(lanes));
        const std::size_t most = std::max<std::size_t>(1, s.rows / min_rows);
        const std::size_t fewest =
            max_rows == 0 ? 1 : s.rows / max_rows + (s.rows % max_rows != 0 ? 1 : 0);
        const std::size_t walks =
            std::max(fewest, std::clamp<std::size_t>(resident / p.strips, 1, most));
        p.walk_rows = gpu::ceil_div(s.rows, walks);
        const std::size_t blocks = p.strips * gpu::ceil_div(s.rows, p.walk_rows);
        const std::size_t waves = gpu::ceil_div(blocks, resident);
        const double busy = static_cast<double>(blocks) / static_cast<double>(waves * resident);
        if (busy > best_busy + 0.02) {
            best = p;
            best_busy = busy;
        }
    }
    return best;
}

// A walk kernel template's instances, one per strip width in Lanes (float4 lanes). `Smem` is the
// kernel file's smem_bytes(radius, lanes), `Threads` its threads per block (lanes).
template <class Kernel, std::size_t (*Smem)(int, int), int (*Threads)(int), int... Lanes>
class WalkKernels {
public:
    static constexpr std::array<int, sizeof...(Lanes)> kLanes{Lanes...};

    // of(std::integral_constant<int, L>{}) returns the instance of L lanes.
    template <class Of>
    explicit WalkKernels(Of of) : kernels_{of(std::integral_constant<int, Lanes>{})...} {}

    Kernel operator()(int lanes) const {
        for (std::size_t i = 0; i < kLanes.size(); ++i)
            if (kLanes[i] == lanes) return kernels_[i];
        return kernels_[0];
    }

    static int threads(int lanes) { return Threads(lanes); }

    // Raises every instance's dynamic shared memory to what max_radius needs, once per object
    // and process (a host call between the timing events would count as kernel time).
    void allow_smem(int max_radius) const {
        std::call_once(smem_once_, [&] {
            for (int lanes : kLanes)
                COALESCE_CUDA(cudaFuncSetAttribute((*this)(lanes),
                                                   cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                   static_cast<int>(Smem(max_radius, lanes))));
        });
    }

    // walk_shape with the instances' resident blocks at this radius.
    WalkShape shape(Shape s, int radius, std::size_t min_rows, std::size_t max_rows = 0) const {
        return walk_shape(
            s,
            [&](int lanes) {
                return resident_blocks((*this)(lanes), threads(lanes), Smem(radius, lanes));
            },
            kLanes, min_rows, max_rows);
    }

    // The instance of plan.lanes over plan.strips strips times the walks of plan.walk_rows that
    // cover `rows`, with this radius's shared memory; `name` goes into the launch check's message.
    template <class Plan, class... Args>
    void launch(const Plan& plan, std::size_t rows, int radius, cudaStream_t stream,
                const char* name, const Args&... args) const {
        const auto walks = static_cast<unsigned>(gpu::ceil_div(rows, plan.walk_rows));
        launch_grid(plan.lanes, plan.strips * walks, radius, stream, name, args...);
    }

    // The instance of `lanes` lanes on `blocks` blocks with this radius's shared memory.
    template <class... Args>
    void launch_grid(int lanes, unsigned blocks, int radius, cudaStream_t stream, const char* name,
                     const Args&... args) const {
        (*this)(lanes)<<<blocks, threads(lanes), Smem(radius, lanes), stream>>>(args...);
        COALESCE_CHECK_LAUNCH(name);
    }

private:
    std::array<Kernel, sizeof...(Lanes)> kernels_;
    mutable std::once_flag smem_once_;
};

// Threads(lanes) of blocks with PerLane threads per lane.
template <int PerLane>
int threads_per_lane(int lanes) {
    return PerLane * lanes;
}

// Strips of 128, 96 and 64 columns, widest first.
template <class Kernel, std::size_t (*Smem)(int, int), int (*Threads)(int)>
using StripWalkKernels = WalkKernels<Kernel, Smem, Threads, kWideLanes, 24, 16>;

}  // namespace coalesce::fast
