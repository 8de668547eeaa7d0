#include "texture_instance.hpp"

#include "coalesce/operation.hpp"  // kMaxRadius only (a constant: no engine symbols)

#include <climits>
#include <string>

namespace coalesce::textures {

namespace {

bool is_filter_op(int op) { return op == TEX_OP_FILTER_X || op == TEX_OP_FILTER_Y; }

std::size_t output_elements(int op, std::size_t rows, std::size_t cols) {
    switch (op) {
        case TEX_OP_ROW_SUMS: return rows;
        case TEX_OP_COL_SUMS: return cols;
        default: return rows * cols;
    }
}

int checked_radius(int op, const coalesce_params& params) {
    if (params.struct_size < sizeof(coalesce_params))
        throw TextureError("parameters struct of " + std::to_string(params.struct_size) + " bytes is too small");
    if (!is_filter_op(op)) return 0;
    if (params.radius < 0 || params.radius > kMaxRadius)
        throw TextureError("radius " + std::to_string(params.radius) + " is outside 0.." + std::to_string(kMaxRadius));
    return params.radius;
}

Addressing checked_addressing(int op, std::size_t rows, std::size_t cols, const coalesce_params& params) {
    if (op < TEX_OP_COPY || op > TEX_OP_FILTER_Y) throw TextureError("unknown operation " + std::to_string(op));
    if (rows > INT_MAX || cols > INT_MAX) throw TextureUnsupported("input larger than 2^31 - 1 in a dimension: beyond texture coordinates");
    const Addressing addressing = addressing_for(op, params.border);
    if (addressing.normalized && rows > 0 && cols > 0) {
        const bool along_x = op == TEX_OP_FILTER_X;
        check_normalized_precision(static_cast<long long>(cols), along_x ? params.radius : 0, params.border, "a row");
        check_normalized_precision(static_cast<long long>(rows), along_x ? 0 : params.radius, params.border, "a column");
    }
    return addressing;
}

}  // namespace

TextureInstance::TextureInstance(int op, Family family, std::size_t rows, std::size_t cols, const coalesce_params& params)
    : op_(op),
      rows_(rows),
      cols_(cols),
      radius_(checked_radius(op, params)),
      source_(family, rows, cols, checked_addressing(op, rows, cols, params)),
      out_elements_(output_elements(op, rows, cols)) {}

void TextureInstance::upload(const float* h_input) {
    source_.upload(h_input);
    void* d_out = nullptr;
    d_out_.reset();
    COALESCE_CUDA(cudaMalloc(&d_out, out_elements_ * sizeof(float)));
    d_out_ = DevicePtr(static_cast<float*>(d_out));
}

void TextureInstance::poison() {
    if (!d_out_) throw TextureError("poison before upload");
    // Untimed, so the whole device is synchronized: no launch on any stream may still be writing,
    // and no stream handle has to outlive the launch that used it.
    COALESCE_CUDA(cudaDeviceSynchronize());
    COALESCE_CUDA(cudaMemset(d_out_.get(), 0xFF, out_elements_ * sizeof(float)));  // all-ones bytes: NaN
    COALESCE_CUDA(cudaDeviceSynchronize());
}

void TextureInstance::launch(cudaStream_t stream) {
    if (!d_out_) throw TextureError("launch before upload");
    const TexInput in = source_.input();
    switch (op_) {
        case TEX_OP_COPY: launch_copy(in, d_out_.get(), stream); break;
        case TEX_OP_TRANSPOSE: launch_transpose(in, d_out_.get(), stream); break;
        case TEX_OP_ROW_SUMS: launch_row_sums(in, d_out_.get(), stream); break;
        case TEX_OP_COL_SUMS: launch_col_sums(in, d_out_.get(), stream); break;
        case TEX_OP_FILTER_X: launch_filter_x(in, radius_, d_out_.get(), stream); break;
        case TEX_OP_FILTER_Y: launch_filter_y(in, radius_, d_out_.get(), stream); break;
        default: throw TextureError("unknown operation " + std::to_string(op_));
    }
}

void TextureInstance::download(float* h_output) {
    if (!d_out_) throw TextureError("download before upload");
    if (h_output == nullptr) throw TextureError("download into a null buffer");
    COALESCE_CUDA(cudaDeviceSynchronize());  // the launch may have been on a non-blocking stream
    COALESCE_CUDA(cudaMemcpy(h_output, d_out_.get(), out_elements_ * sizeof(float), cudaMemcpyDeviceToHost));
}

}  // namespace coalesce::textures
