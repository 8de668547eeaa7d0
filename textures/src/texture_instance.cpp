#include "texture_instance.hpp"

#include "coalesce/operation.hpp"  // kMaxRadius only (a constant: no engine symbols)

#include <climits>
#include <cstring>
#include <string>

namespace coalesce::textures {

namespace {

bool is_filter_op(int op) { return op == TEX_OP_FILTER_X || op == TEX_OP_FILTER_Y; }

// A named parameter of ABI 2 (the host fills in every parameter the operation declares); throws
// TextureError naming it when it is missing or outside [min, max].
long long named_value(const coalesce_params& params, const char* name, long long min,
                      long long max) {
    if (params.struct_size < sizeof(coalesce_params))
        throw TextureError("parameters struct of " + std::to_string(params.struct_size) +
                           " bytes is too small");
    for (std::size_t i = 0; i < params.value_count; ++i) {
        const coalesce_named_value& v = params.values[i];
        if (v.name == nullptr || std::strcmp(v.name, name) != 0) continue;
        if (v.value < min || v.value > max)
            throw TextureError(std::string("parameter ") + name + "=" + std::to_string(v.value) +
                               " is outside " + std::to_string(min) + ".." + std::to_string(max));
        return v.value;
    }
    throw TextureError(std::string("parameter '") + name + "' was not given");
}

Shape output_shape_of(int op, std::size_t rows, std::size_t cols, const coalesce_params& params) {
    switch (op) {
    case TEX_OP_ROW_SUMS: return {rows, 1};
    case TEX_OP_COL_SUMS: return {1, cols};
    case TEX_OP_RESAMPLE:
        return onchip::resample_shape({rows, cols}, named_value(params, "scale", 10, 400));
    default: return {rows, cols};
    }
}

TexelFormat format_of(int op) {
    if (op == TEX_OP_RESAMPLE) return TexelFormat::float_linear;
    if (op == TEX_OP_U8_TO_FLOAT) return TexelFormat::u8_normalized;
    return TexelFormat::float_point;
}

int checked_radius(int op, const coalesce_params& params) {
    if (params.struct_size < sizeof(coalesce_params))
        throw TextureError("parameters struct of " + std::to_string(params.struct_size) +
                           " bytes is too small");
    if (!is_filter_op(op)) return 0;
    if (params.radius < 0 || params.radius > kMaxRadius)
        throw TextureError("radius " + std::to_string(params.radius) + " is outside 0.." +
                           std::to_string(kMaxRadius));
    return params.radius;
}

Addressing checked_addressing(int op, std::size_t rows, std::size_t cols,
                              const coalesce_params& params) {
    if (op < TEX_OP_COPY || op > TEX_OP_U8_TO_FLOAT)
        throw TextureError("unknown operation " + std::to_string(op));
    if (rows > INT_MAX || cols > INT_MAX)
        throw TextureUnsupported(
            "input larger than 2^31 - 1 in a dimension: beyond texture coordinates");
    const Addressing addressing = addressing_for(op, params.border);
    if (addressing.normalized && rows > 0 && cols > 0) {
        const bool along_x = op == TEX_OP_FILTER_X;
        check_normalized_precision(static_cast<long long>(cols), along_x ? params.radius : 0,
                                   params.border, "a row");
        check_normalized_precision(static_cast<long long>(rows), along_x ? 0 : params.radius,
                                   params.border, "a column");
    }
    return addressing;
}

// The unorm variants are filters only, and their texture is 16-bit until the first upload says
// otherwise: the widest texel, so the pitched size check in TextureSource is the strictest.
TexelFormat checked_format(int op, Texels texels) {
    if (texels == Texels::float32) return format_of(op);
    if (!is_filter_op(op))
        throw TextureError("integer texels are implemented for filter_x and filter_y only");
    return TexelFormat::u16_normalized;
}

}  // namespace

TextureInstance::TextureInstance(int op, Family family, std::size_t rows, std::size_t cols,
                                 const coalesce_params& params, Texels texels)
    : op_(op),
      texels_(texels),
      rows_(rows),
      cols_(cols),
      radius_(checked_radius(op, params)),
      out_shape_(output_shape_of(op, rows, cols, params)),
      source_(family, rows, cols, checked_addressing(op, rows, cols, params),
              checked_format(op, texels)),
      out_elements_(out_shape_.elements()) {
    if (op == TEX_OP_RANDOM_SAMPLE) {
        area_ = static_cast<int>(named_value(params, "area", 1, 64));
        samples_ = static_cast<int>(named_value(params, "samples", 1, 1024));
    }
    if (op == TEX_OP_RESAMPLE) {
        map_ = onchip::resample_map({rows, cols}, named_value(params, "scale", 10, 400),
                                    named_value(params, "angle", -360, 360));
        if (out_shape_.rows > INT_MAX || out_shape_.cols > INT_MAX)
            throw TextureUnsupported("the resampled output is larger than 2^31 - 1 in a dimension");
    }
}

void TextureInstance::upload(const float* h_input) {
    if (texels_ != Texels::float32) throw TextureError("this variant takes u8 and u16, not f32");
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
    COALESCE_CUDA(
        cudaMemset(d_out_.get(), 0xFF, out_elements_ * sizeof(float)));  // all-ones bytes: NaN
    COALESCE_CUDA(cudaDeviceSynchronize());
}

void TextureInstance::launch(cudaStream_t stream) {
    if (texels_ == Texels::unorm) return launch_unorm(source_.input(), stream);
    if (!d_out_) throw TextureError("launch before upload");
    const TexInput in = source_.input();
    switch (op_) {
    case TEX_OP_COPY: launch_copy(in, d_out_.get(), stream); break;
    case TEX_OP_TRANSPOSE: launch_transpose(in, d_out_.get(), stream); break;
    case TEX_OP_ROW_SUMS: launch_row_sums(in, d_out_.get(), stream); break;
    case TEX_OP_COL_SUMS: launch_col_sums(in, d_out_.get(), stream); break;
    case TEX_OP_FILTER_X: launch_filter_x(in, radius_, d_out_.get(), stream); break;
    case TEX_OP_FILTER_Y: launch_filter_y(in, radius_, d_out_.get(), stream); break;
    case TEX_OP_RANDOM_SAMPLE:
        launch_random_sample(in, area_, samples_, d_out_.get(), stream);
        break;
    case TEX_OP_RESAMPLE:
        launch_resample(in, map_, static_cast<int>(out_shape_.rows),
                        static_cast<int>(out_shape_.cols), d_out_.get(), stream);
        break;
    case TEX_OP_U8_TO_FLOAT: launch_u8_to_float(in, d_out_.get(), stream); break;
    default: throw TextureError("unknown operation " + std::to_string(op_));
    }
}

void TextureInstance::download(float* h_output) {
    if (!d_out_) throw TextureError("download before upload");
    if (h_output == nullptr) throw TextureError("download into a null buffer");
    COALESCE_CUDA(cudaDeviceSynchronize());  // the launch may have been on a non-blocking stream
    COALESCE_CUDA(
        cudaMemcpy(h_output, d_out_.get(), out_elements_ * sizeof(float), cudaMemcpyDeviceToHost));
}

}  // namespace coalesce::textures

namespace coalesce::textures {

void TextureInstance::upload_typed(const void* h_input, int elem_type, std::size_t rows,
                                   std::size_t cols) {
    if (texels_ != Texels::unorm) throw TextureError("this variant takes f32 only");
    if (elem_type != COALESCE_ELEM_U8 && elem_type != COALESCE_ELEM_U16)
        throw TextureError("element type " + std::to_string(elem_type) +
                           " is not one this variant takes (u8, u16)");
    if (rows != rows_ || cols != cols_)
        throw TextureError("upload of " + std::to_string(rows) + "x" + std::to_string(cols) +
                           " elements into an instance created for " + std::to_string(rows_) + "x" +
                           std::to_string(cols_));
    const bool u8 = elem_type == COALESCE_ELEM_U8;
    d_typed_out_.reset();
    typed_size_ = 0;
    source_.upload_texels(h_input, u8 ? TexelFormat::u8_normalized : TexelFormat::u16_normalized);
    const std::size_t size = u8 ? 1 : 2;
    void* d_out = nullptr;
    COALESCE_CUDA(cudaMalloc(&d_out, out_elements_ * size));
    d_typed_out_ = BytesPtr(d_out);
    typed_size_ = size;
}

std::size_t TextureInstance::output_bytes() const { return out_elements_ * typed_size_; }

void TextureInstance::poison_bytes(std::uint8_t byte) {
    if (!d_typed_out_) throw TextureError("poison_bytes before upload_typed");
    COALESCE_CUDA(cudaDeviceSynchronize());  // as poison(): no launch may still be writing
    COALESCE_CUDA(cudaMemset(d_typed_out_.get(), byte, output_bytes()));
    COALESCE_CUDA(cudaDeviceSynchronize());
}

void TextureInstance::launch_unorm(const TexInput& in, cudaStream_t stream) {
    if (!d_typed_out_) throw TextureError("launch before upload_typed");
    const bool along_x = op_ == TEX_OP_FILTER_X;
    if (typed_size_ == 1) {
        auto* d_out = static_cast<std::uint8_t*>(d_typed_out_.get());
        along_x ? launch_filter_x_unorm(in, radius_, d_out, stream)
                : launch_filter_y_unorm(in, radius_, d_out, stream);
    } else {
        auto* d_out = static_cast<std::uint16_t*>(d_typed_out_.get());
        along_x ? launch_filter_x_unorm(in, radius_, d_out, stream)
                : launch_filter_y_unorm(in, radius_, d_out, stream);
    }
}

void TextureInstance::download_typed(void* h_output, std::size_t rows, std::size_t cols,
                                     std::size_t out_elem_size) {
    if (!d_typed_out_) throw TextureError("download_typed before upload_typed");
    if (h_output == nullptr) throw TextureError("download into a null buffer");
    if (rows != out_shape_.rows || cols != out_shape_.cols || out_elem_size != typed_size_)
        throw TextureError("download of " + std::to_string(rows) + "x" + std::to_string(cols) +
                           " elements of " + std::to_string(out_elem_size) +
                           " bytes; the output is " + std::to_string(out_shape_.rows) + "x" +
                           std::to_string(out_shape_.cols) + " of " + std::to_string(typed_size_));
    COALESCE_CUDA(cudaDeviceSynchronize());  // the launch may have been on a non-blocking stream
    COALESCE_CUDA(cudaMemcpy(h_output, d_typed_out_.get(), output_bytes(), cudaMemcpyDeviceToHost));
}

}  // namespace coalesce::textures
