// matrix_add: out = a + b on a 2-D grid of 32x32 blocks, as seed 002's notebook writes it
// (x, y = cuda.grid(2)). Coalesced, x runs along a row: a warp's three requests are 4 sectors
// each. Uncoalesced, x runs down a column: its 32 lanes sit a row apart, one sector each, 32 per
// request, and 7 of every 8 bytes the sectors bring go unused unless a later warp finds them
// still in the cache.
#include "coalesce/cuda_check.hpp"
#include "coalesce/registry.hpp"
#include "device_instance.hpp"

#include <algorithm>

namespace coalesce {
namespace {

constexpr int kTile = 32;  // the notebook's threads_per_block = (32, 32)
constexpr std::size_t kMaxGridY = 65535;

struct Pitches {
    std::size_t a, b, out;  // [floats] between row starts
};

// Coalesced: x = column, y = row; out[y][x] = a[y][x] + b[y][x].
__global__ void matrix_add_coalesced_kernel(const float* __restrict__ a,
                                            const float* __restrict__ b, float* __restrict__ out,
                                            int rows, int cols, Pitches pitch) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < cols && y < rows) out[y * pitch.out + x] = a[y * pitch.a + x] + b[y * pitch.b + x];
}

// Uncoalesced: x = row, y = column; out[x][y] = a[x][y] + b[x][y].
__global__ void matrix_add_uncoalesced_kernel(const float* __restrict__ a,
                                              const float* __restrict__ b, float* __restrict__ out,
                                              int rows, int cols, Pitches pitch) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < rows && y < cols) out[x * pitch.out + y] = a[x * pitch.a + y] + b[x * pitch.b + y];
}

std::size_t blocks_for(std::size_t n) { return (n + kTile - 1) / kTile; }

Pitches pitches(MatView a, MatView b, MatView out) {
    return {a.pitch_bytes / sizeof(float), b.pitch_bytes / sizeof(float),
            out.pitch_bytes / sizeof(float)};
}

// gridDim.y holds at most 65535 blocks: the dimension y runs along goes in chunks of that many
// tiles, each launch's pointers moved to its chunk, so the kernel body stays the notebook's.
void launch_coalesced(MatView a, MatView out, MatView b, const OpParams&, cudaStream_t stream) {
    const Pitches pitch = pitches(a, b, out);
    const dim3 block(kTile, kTile);
    for (std::size_t row0 = 0; row0 < a.rows; row0 += kMaxGridY * kTile) {
        const std::size_t rows = std::min(kMaxGridY * kTile, a.rows - row0);
        const dim3 grid(static_cast<unsigned>(blocks_for(a.cols)),
                        static_cast<unsigned>(blocks_for(rows)));
        matrix_add_coalesced_kernel<<<grid, block, 0, stream>>>(
            a.data + row0 * pitch.a, b.data + row0 * pitch.b, out.data + row0 * pitch.out,
            static_cast<int>(rows), static_cast<int>(a.cols), pitch);
        COALESCE_CHECK_LAUNCH("matrix_add_coalesced_kernel");
    }
}

void launch_uncoalesced(MatView a, MatView out, MatView b, const OpParams&, cudaStream_t stream) {
    const Pitches pitch = pitches(a, b, out);
    const dim3 block(kTile, kTile);
    for (std::size_t col0 = 0; col0 < a.cols; col0 += kMaxGridY * kTile) {
        const std::size_t cols = std::min(kMaxGridY * kTile, a.cols - col0);
        const dim3 grid(static_cast<unsigned>(blocks_for(a.rows)),
                        static_cast<unsigned>(blocks_for(cols)));
        matrix_add_uncoalesced_kernel<<<grid, block, 0, stream>>>(
            a.data + col0, b.data + col0, out.data + col0, static_cast<int>(a.rows),
            static_cast<int>(cols), pitch);
        COALESCE_CHECK_LAUNCH("matrix_add_uncoalesced_kernel");
    }
}

// b = the input with its rows rotated by half the matrix, in the scratch matrix (a buffer of
// its own, with rows as far apart as its shape says: the pitched variant pads them like a).
void prepare_second_operand(MatView in, MatView b) {
    const std::size_t half = in.rows / 2;
    const std::size_t width = in.cols * sizeof(float);
    const auto copy_rows = [&](std::size_t dst_row, std::size_t src_row, std::size_t rows) {
        if (rows == 0) return;
        COALESCE_CUDA(cudaMemcpy2D(b.data + dst_row * (b.pitch_bytes / sizeof(float)),
                                   b.pitch_bytes,
                                   in.data + src_row * (in.pitch_bytes / sizeof(float)),
                                   in.pitch_bytes, width, rows, cudaMemcpyDeviceToDevice));
    };
    copy_rows(0, half, in.rows - half);
    copy_rows(in.rows - half, 0, half);
}

// Coalesced: warp 1 of row 1 reads a and b and writes out at the row start plus 128 bytes.
std::vector<WarpRequest> coalesced_access(Shape in, bool pitched) {
    const long long row_bytes = gpu::row_bytes_of(in.cols, pitched);
    const int lanes = static_cast<int>(std::min<std::size_t>(32, in.cols));
    const WarpRequest load = affine_request(false, row_bytes + 128, 4, 4, lanes);
    return {load, load, affine_request(true, row_bytes + 128, 4, 4, lanes)};
}

// Uncoalesced: warp 1 of column 0 (rows 32..63), its lanes a row apart.
std::vector<WarpRequest> uncoalesced_access(Shape in) {
    const long long row_bytes = in.cols * 4ll;
    const long long warp = in.rows > 32 ? 1 : 0;
    const int lanes =
        static_cast<int>(std::min<long long>(32, static_cast<long long>(in.rows) - 32 * warp));
    const WarpRequest load = affine_request(false, 32 * warp * row_bytes, row_bytes, 4, lanes);
    return {load, load, affine_request(true, 32 * warp * row_bytes, row_bytes, 4, lanes)};
}

gpu::DeviceVariantSpec matrix_add_spec(std::string id, const char* memory_space, gpu::Layout layout,
                                       std::string kernel, std::string description) {
    gpu::DeviceVariantSpec spec;
    spec.id = std::move(id);
    spec.op = Op("matrix_add");
    spec.memory_space = memory_space;
    spec.description = std::move(description);
    spec.layout = layout;
    spec.kernel = std::move(kernel);
    spec.chain = [](Shape, std::size_t) { return std::size_t{1}; };
    spec.prepare = prepare_second_operand;
    return spec;
}

}  // namespace

void register_matrix_add(Registry& registry) {
    const auto same = [](Shape in, const OpParams&) { return in; };
    gpu::DeviceVariantSpec coalesced = matrix_add_spec(
        "matrix_add/coalesced", space::global, gpu::Layout::dense, "matrix_add_coalesced_kernel",
        "The notebook's coalesced branch, out[y][x] with x along the row: a warp reads 128 "
        "contiguous bytes of a and of b and writes 128 of out, 4 sectors each.");
    coalesced.access = [](Shape in, const OpParams&) { return coalesced_access(in, false); };
    registry.add(gpu::make_device_variant(std::move(coalesced), same, launch_coalesced));

    gpu::DeviceVariantSpec uncoalesced = matrix_add_spec(
        "matrix_add/uncoalesced", space::global, gpu::Layout::dense,
        "matrix_add_uncoalesced_kernel",
        "The notebook's uncoalesced branch, out[x][y] with x down the column: a warp's 32 lanes "
        "are a row apart, 32 sectors per request for 128 useful bytes.");
    uncoalesced.access = [](Shape in, const OpParams&) { return uncoalesced_access(in); };
    registry.add(gpu::make_device_variant(std::move(uncoalesced), same, launch_uncoalesced));

    gpu::DeviceVariantSpec pitched = matrix_add_spec(
        "matrix_add/pitched", space::pitched, gpu::Layout::pitched, "matrix_add_coalesced_kernel",
        "The coalesced kernel on cudaMallocPitch rows (b's rows padded alike): every warp "
        "starts on a line whatever the width, so odd widths cost no fifth sector.");
    pitched.access = [](Shape in, const OpParams&) { return coalesced_access(in, true); };
    registry.add(gpu::make_device_variant(
        std::move(pitched),
        [](Shape in, const OpParams&) {
            return Shape{in.rows, (in.cols + 127) / 128 * 128};
        },
        launch_coalesced));
}

}  // namespace coalesce
