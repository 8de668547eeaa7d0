// Move-only owners for CUDA handles. Each frees in its destructor without throwing.
#pragma once

#include "coalesce/cuda_check.hpp"
#include "coalesce/matrix.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <utility>

namespace coalesce {

template <class Handle, class Deleter>
class UniqueHandle {
public:
    UniqueHandle() = default;
    explicit UniqueHandle(Handle h) : h_(h) {}
    UniqueHandle(UniqueHandle&& o) noexcept : h_(std::exchange(o.h_, Handle{})) {}
    UniqueHandle& operator=(UniqueHandle&& o) noexcept {
        if (this != &o) {
            reset();
            h_ = std::exchange(o.h_, Handle{});
        }
        return *this;
    }
    UniqueHandle(const UniqueHandle&) = delete;
    UniqueHandle& operator=(const UniqueHandle&) = delete;
    ~UniqueHandle() { reset(); }

    Handle get() const { return h_; }
    explicit operator bool() const { return h_ != Handle{}; }
    void reset() {
        if (h_ != Handle{}) Deleter{}(h_);
        h_ = Handle{};
    }

private:
    Handle h_{};
};

struct StreamDeleter {
    void operator()(cudaStream_t s) const noexcept { COALESCE_CUDA_NOTHROW(cudaStreamDestroy(s)); }
};
struct EventDeleter {
    void operator()(cudaEvent_t e) const noexcept { COALESCE_CUDA_NOTHROW(cudaEventDestroy(e)); }
};
struct ArrayDeleter {
    void operator()(cudaArray_t a) const noexcept { COALESCE_CUDA_NOTHROW(cudaFreeArray(a)); }
};
struct TextureDeleter {
    void operator()(cudaTextureObject_t t) const noexcept {
        COALESCE_CUDA_NOTHROW(cudaDestroyTextureObject(t));
    }
};

class Stream : public UniqueHandle<cudaStream_t, StreamDeleter> {
public:
    static Stream create();  // non-blocking with respect to the legacy default stream
    void synchronize() const;
};

class Event : public UniqueHandle<cudaEvent_t, EventDeleter> {
public:
    static Event create();
    void record(cudaStream_t stream) const;
    void synchronize() const;  // waits until the work recorded before it has finished
    // [ms] between two recorded events; synchronizes on `end`.
    static float elapsed_ms(const Event& start, const Event& end);
};

using CudaArray = UniqueHandle<cudaArray_t, ArrayDeleter>;
using TextureObject = UniqueHandle<cudaTextureObject_t, TextureDeleter>;

// Linear device memory from cudaMalloc.
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(std::size_t bytes);
    DeviceBuffer(DeviceBuffer&& o) noexcept
        : d_ptr_(std::exchange(o.d_ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    ~DeviceBuffer();

    // Takes ownership of memory from cudaMalloc or cudaMallocPitch.
    static DeviceBuffer adopt(void* d_ptr, std::size_t bytes);

    void* get() const { return d_ptr_; }
    float* floats() const { return static_cast<float*>(d_ptr_); }
    std::size_t bytes() const { return bytes_; }  // [bytes]

private:
    void* d_ptr_ = nullptr;
    std::size_t bytes_ = 0;
};

// A device matrix: dense (cudaMalloc, pitch = cols * 4) or pitched (cudaMallocPitch).
class DeviceMatrix {
public:
    enum class Layout { dense, pitched };
    DeviceMatrix() = default;
    DeviceMatrix(Shape shape, Layout layout);
    DeviceMatrix(DeviceMatrix&&) noexcept = default;
    DeviceMatrix& operator=(DeviceMatrix&&) noexcept = default;

    MatView view() const {
        return {static_cast<float*>(buffer_.get()), shape_.rows, shape_.cols, pitch_bytes_};
    }
    Shape shape() const { return shape_; }
    std::size_t pitch_bytes() const { return pitch_bytes_; }  // [bytes]

    void upload(const Matrix& host, cudaStream_t stream = nullptr);  // shapes must match
    Matrix download(cudaStream_t stream = nullptr) const;            // synchronizes the stream
    void fill_nan(cudaStream_t stream = nullptr);                    // poison before verification

private:
    DeviceBuffer
        buffer_;  // for pitched layouts it owns the cudaMallocPitch pointer (cudaFree frees both)
    Shape shape_;
    std::size_t pitch_bytes_ = 0;
};

// DeviceMatrix for elements of any size (the typed runs' u8, u16, uint32 and uint64): dense
// (cudaMalloc, pitch = cols * elem_bytes) or pitched (cudaMallocPitch). The host side is dense
// rows of cols * elem_bytes bytes.
class DeviceImage {
public:
    DeviceImage() = default;
    DeviceImage(Shape shape, std::size_t elem_bytes, DeviceMatrix::Layout layout);
    DeviceImage(DeviceImage&&) noexcept = default;
    DeviceImage& operator=(DeviceImage&&) noexcept = default;

    void* data() const { return buffer_.get(); }
    Shape shape() const { return shape_; }
    std::size_t elem_bytes() const { return elem_bytes_; }    // [bytes]
    std::size_t pitch_bytes() const { return pitch_bytes_; }  // [bytes]

    void upload(const void* h_data, cudaStream_t stream = nullptr);    // synchronizes the stream
    void download(void* h_data, cudaStream_t stream = nullptr) const;  // synchronizes the stream
    // Every byte of every element set to `byte` (integers have no NaN); padding stays untouched.
    void fill_bytes(std::uint8_t byte, cudaStream_t stream = nullptr);

private:
    DeviceBuffer buffer_;
    Shape shape_;
    std::size_t elem_bytes_ = 0;
    std::size_t pitch_bytes_ = 0;
};

}  // namespace coalesce
