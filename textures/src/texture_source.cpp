#include "texture_source.hpp"

#include <climits>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace coalesce::textures {

namespace {

int device_attribute(cudaDeviceAttr attribute, int device) {
    int value = 0;
    COALESCE_CUDA(cudaDeviceGetAttribute(&value, attribute, device));
    return value;
}

std::string shape_text(std::size_t rows, std::size_t cols) {
    return std::to_string(rows) + "x" + std::to_string(cols);
}

std::size_t round_up(std::size_t value, std::size_t multiple) {
    return multiple == 0 ? value : (value + multiple - 1) / multiple * multiple;
}

}  // namespace

TextureSource::TextureSource(Family family, std::size_t rows, std::size_t cols,
                             Addressing addressing, TexelFormat format)
    : family_(family), rows_(rows), cols_(cols), addressing_(addressing), format_(format) {
    if (rows == 0 || cols == 0)
        throw TextureError("an empty input (" + shape_text(rows, cols) + ") has no texture");
    int device = 0;
    COALESCE_CUDA(cudaGetDevice(&device));
    if (family == Family::array) {
        const auto max_w =
            static_cast<std::size_t>(device_attribute(cudaDevAttrMaxTexture2DWidth, device));
        const auto max_h =
            static_cast<std::size_t>(device_attribute(cudaDevAttrMaxTexture2DHeight, device));
        if (cols > max_w || rows > max_h)
            throw TextureUnsupported(
                shape_text(rows, cols) +
                " exceeds this device's 2-D cudaArray texture limit (width <= " +
                std::to_string(max_w) + " columns, height <= " + std::to_string(max_h) + " rows)");
        return;
    }
    pitch_alignment_ =
        static_cast<std::size_t>(device_attribute(cudaDevAttrTexturePitchAlignment, device));
    texture_alignment_ =
        static_cast<std::size_t>(device_attribute(cudaDevAttrTextureAlignment, device));
    max_pitch_ =
        static_cast<std::size_t>(device_attribute(cudaDevAttrMaxTexture2DLinearPitch, device));
    const auto max_w =
        static_cast<std::size_t>(device_attribute(cudaDevAttrMaxTexture2DLinearWidth, device));
    const auto max_h =
        static_cast<std::size_t>(device_attribute(cudaDevAttrMaxTexture2DLinearHeight, device));
    const std::size_t pitch = round_up(cols * texel_bytes(), pitch_alignment_);
    if (cols > max_w || rows > max_h || pitch > max_pitch_)
        throw TextureUnsupported(
            shape_text(rows, cols) + " exceeds this device's 2-D pitched texture limit (width <= " +
            std::to_string(max_w) + " columns, height <= " + std::to_string(max_h) +
            " rows, pitch <= " + std::to_string(max_pitch_) + " bytes)");
}

void TextureSource::upload(const float* h_input) {
    if (h_input == nullptr) throw TextureError("upload of a null input");
    if (format_ == TexelFormat::u16_normalized)
        throw TextureError("a 16-bit texture takes 16-bit texels, not floats");
    if (format_ != TexelFormat::u8_normalized) return upload_texels(h_input, format_);
    std::vector<unsigned char> pixels(rows_ * cols_);
    for (std::size_t i = 0; i < pixels.size(); ++i) pixels[i] = onchip::to_u8(h_input[i]);
    upload_texels(pixels.data(), format_);
}

void TextureSource::upload_texels(const void* h_texels, TexelFormat format) {
    if (h_texels == nullptr) throw TextureError("upload of a null input");
    texture_.reset();
    array_.reset();
    pitched_.reset();
    pitch_bytes_ = 0;
    format_ = format;
    if (family_ == Family::array)
        upload_array(h_texels);
    else
        upload_pitched(h_texels);
}

std::size_t TextureSource::texel_bytes() const {
    switch (format_) {
    case TexelFormat::u8_normalized: return 1;
    case TexelFormat::u16_normalized: return 2;
    default: return sizeof(float);
    }
}

cudaChannelFormatDesc TextureSource::channel() const {
    switch (format_) {
    case TexelFormat::u8_normalized:
        return cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
    case TexelFormat::u16_normalized:
        return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindUnsigned);
    default: return cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    }
}

void TextureSource::upload_array(const void* h_texels) {
    const cudaChannelFormatDesc format = channel();
    cudaArray_t array = nullptr;
    COALESCE_CUDA(cudaMallocArray(&array, &format, cols_, rows_));
    array_ = ArrayPtr(array);
    const std::size_t row_bytes = cols_ * texel_bytes();
    COALESCE_CUDA(cudaMemcpy2DToArray(array, 0, 0, h_texels, row_bytes, row_bytes, rows_,
                                      cudaMemcpyHostToDevice));

    cudaResourceDesc resource;
    std::memset(&resource, 0, sizeof resource);
    resource.resType = cudaResourceTypeArray;
    resource.res.array.array = array;
    create_texture(resource);
}

void TextureSource::upload_pitched(const void* h_texels) {
    const std::size_t row_bytes = cols_ * texel_bytes();
    void* d_ptr = nullptr;
    std::size_t pitch = 0;
    COALESCE_CUDA(cudaMallocPitch(&d_ptr, &pitch, row_bytes, rows_));
    pitched_ = DevicePtr(static_cast<float*>(d_ptr));
    pitch_bytes_ = pitch;
    // cudaMallocPitch aligns for coalescing; a texture over pitched memory has its own rules.
    // Both hold on every device seen so far, and a violation is an error, never a silent copy.
    if (pitch_alignment_ != 0 && pitch % pitch_alignment_ != 0)
        throw TextureError("cudaMallocPitch returned a pitch of " + std::to_string(pitch) +
                           " bytes, not a multiple of the texture pitch alignment " +
                           std::to_string(pitch_alignment_));
    if (texture_alignment_ != 0 &&
        reinterpret_cast<std::uintptr_t>(d_ptr) % texture_alignment_ != 0)
        throw TextureError(
            "cudaMallocPitch returned memory not aligned to the texture alignment of " +
            std::to_string(texture_alignment_) + " bytes");
    if (pitch > max_pitch_)
        throw TextureUnsupported("the pitch of " + std::to_string(pitch) +
                                 " bytes exceeds this device's pitched texture limit of " +
                                 std::to_string(max_pitch_) + " bytes");
    COALESCE_CUDA(
        cudaMemcpy2D(d_ptr, pitch, h_texels, row_bytes, row_bytes, rows_, cudaMemcpyHostToDevice));

    cudaResourceDesc resource;
    std::memset(&resource, 0, sizeof resource);
    resource.resType = cudaResourceTypePitch2D;
    resource.res.pitch2D.devPtr = d_ptr;
    resource.res.pitch2D.desc = channel();
    resource.res.pitch2D.width = cols_;
    resource.res.pitch2D.height = rows_;
    resource.res.pitch2D.pitchInBytes = pitch;
    create_texture(resource);
}

void TextureSource::create_texture(const cudaResourceDesc& resource) {
    cudaTextureDesc desc;
    std::memset(&desc, 0, sizeof desc);  // border colour 0: Border::zero reads 0 outside
    desc.addressMode[0] = addressing_.mode;
    desc.addressMode[1] = addressing_.mode;
    desc.filterMode =
        format_ == TexelFormat::float_linear ? cudaFilterModeLinear : cudaFilterModePoint;
    const bool integer_texels =
        format_ == TexelFormat::u8_normalized || format_ == TexelFormat::u16_normalized;
    desc.readMode = integer_texels ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
    desc.normalizedCoords = addressing_.normalized ? 1 : 0;
    cudaTextureObject_t texture = 0;
    COALESCE_CUDA(cudaCreateTextureObject(&texture, &resource, &desc, nullptr));
    texture_ = TexturePtr(texture);
}

TexInput TextureSource::input() const {
    if (!texture_) throw TextureError("the input was not uploaded");
    TexInput in;
    in.texture = texture_.get();
    in.rows = static_cast<int>(rows_);
    in.cols = static_cast<int>(cols_);
    in.normalized = addressing_.normalized;
    in.inv_cols = 1.0f / static_cast<float>(cols_);
    in.inv_rows = 1.0f / static_cast<float>(rows_);
    return in;
}

}  // namespace coalesce::textures
