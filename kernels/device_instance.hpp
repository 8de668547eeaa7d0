// The Instance behind every built-in GPU variant: an input DeviceMatrix, an output DeviceMatrix
// (both dense or both pitched), an optional dense scratch matrix, and a launcher. Adding a variant
// is a kernel, a launcher and one make_device_variant(...) line in its op's register function.
#pragma once

#include "coalesce/cuda_raii.hpp"
#include "coalesce/operation.hpp"
#include "coalesce/variant.hpp"

#include <cuda_runtime_api.h>

#include <functional>
#include <string>
#include <vector>

namespace coalesce::gpu {

using Layout = DeviceMatrix::Layout;

// Launches the operation on `stream`: kernel launches only (no allocation, no synchronization).
using Launcher =
    std::function<void(MatView in, MatView out, const OpParams& params, cudaStream_t stream)>;

// For reductions that need a second pass: `scratch` is a dense device matrix of the shape the
// variant's ScratchShape asked for, allocated once in upload() and reused by every launch.
using ScratchLauncher = std::function<void(MatView in, MatView out, MatView scratch,
                                           const OpParams& params, cudaStream_t stream)>;
using ScratchShape = std::function<Shape(Shape input, const OpParams& params)>;

// Device memory of a typed run as bytes: the typed launcher reads it as the run's element types.
// A colour image's rows hold cols pixels of `channels` interleaved elements each.
struct RawView {
    void* data = nullptr;
    std::size_t rows = 0;
    std::size_t cols = 0;         // pixels
    std::size_t pitch_bytes = 0;  // [bytes] distance between row starts
    std::size_t channels = 1;     // elements per pixel
};

// Launches a u8 or u16 run (`type`) on `stream`: `in` holds `type` elements; `out` and `scratch`
// hold the output's elements (the input's type, or for sums the accumulator sum_width picks,
// uint32 or uint64: typed::output_elem_size). Kernel launches only, as Launcher.
using TypedLauncher = std::function<void(ElemType type, RawView in, RawView out, RawView scratch,
                                         const OpParams& params, cudaStream_t stream)>;

struct DeviceVariantSpec {
    std::string id;  // "<op>/<space>-<name>"
    Op op = Op::copy;
    const char* memory_space = space::global;
    std::string description;  // what it demonstrates and why it is fast or slow
    Layout layout = Layout::dense;
    Tier tier = Tier::classic;
    std::string kernel;  // the __global__ function(s) the launcher runs
    Limits limits;       // inputs outside these are skipped with the reason
    // The global-memory requests of a typical warp (sector model); may be empty.
    std::function<std::vector<WarpRequest>(Shape input, const OpParams& params)> access{};
    // The shared-memory and __constant__ requests of a typical warp (bank model); may be empty.
    std::function<std::vector<WarpRequest>(Shape input, const OpParams& params)> shared_access{};
    std::function<std::vector<WarpRequest>(Shape input, const OpParams& params)> constant_access{};
    // Longest chain of float additions behind one output (verification bound); empty: sequential.
    std::function<std::size_t(Shape input, std::size_t terms)> chain{};
    // Untimed set-up after the input is on the device (fills a second operand in the scratch
    // matrix, say); may be empty.
    std::function<void(MatView in, MatView scratch)> prepare{};
    // The channel counts a typed run may have (VariantInfo::channels): a launcher that takes 3 or
    // 4 gets interleaved rows (RawView::channels) exactly as the host holds them.
    std::vector<int> channels = {1};
};

// [bytes] between the starts of two rows, as the sector models assume: cols * 4 dense, rounded
// up to 512 pitched (cudaMallocPitch's alignment on the machines Coalesce targets).
inline long long row_bytes_of(std::size_t cols, bool pitched) {
    const long long dense = static_cast<long long>(cols) * 4;
    return pitched ? (dense + 511) / 512 * 512 : dense;
}

// A variant whose instances allocate in `spec.layout` and run `launcher`.
Variant make_device_variant(DeviceVariantSpec spec, Launcher launcher);
// The same, with a scratch matrix of scratch_shape(input, params) floats.
Variant make_device_variant(DeviceVariantSpec spec, ScratchShape scratch_shape,
                            ScratchLauncher launcher);

// The same variants taking u8 and u16 too (info.types {f32, u8, u16}): f32 runs go through
// `launcher` exactly as above, u8 and u16 runs through `typed`; a scratch matrix for a typed run
// holds the output's element type.
Variant make_device_variant(DeviceVariantSpec spec, Launcher launcher, TypedLauncher typed);
Variant make_device_variant(DeviceVariantSpec spec, ScratchShape scratch_shape,
                            ScratchLauncher launcher, TypedLauncher typed);

// A variant for u8 and u16 only (info.types {u8, u16}): tuned kernels written for bytes, beside
// the float32 tuned variants rather than inside them. Scratch-free.
Variant make_typed_device_variant(DeviceVariantSpec spec, TypedLauncher typed);

// Throws std::invalid_argument unless 0 <= radius <= kMaxRadius and the shape is at least 1x1.
void check_device_args(Op op, Shape input, const OpParams& params);

}  // namespace coalesce::gpu
