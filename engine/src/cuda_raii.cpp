#include "coalesce/cuda_raii.hpp"

#include <stdexcept>

namespace coalesce {

Stream Stream::create() {
    cudaStream_t s = nullptr;
    COALESCE_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    return Stream{UniqueHandle(s)};
}

void Stream::synchronize() const { COALESCE_CUDA(cudaStreamSynchronize(get())); }

Event Event::create() {
    cudaEvent_t e = nullptr;
    COALESCE_CUDA(cudaEventCreate(&e));
    return Event{UniqueHandle(e)};
}

void Event::record(cudaStream_t stream) const { COALESCE_CUDA(cudaEventRecord(get(), stream)); }

void Event::synchronize() const { COALESCE_CUDA(cudaEventSynchronize(get())); }

float Event::elapsed_ms(const Event& start, const Event& end) {
    COALESCE_CUDA(cudaEventSynchronize(end.get()));
    float ms = 0.0f;
    COALESCE_CUDA(cudaEventElapsedTime(&ms, start.get(), end.get()));
    return ms;
}

DeviceBuffer::DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
    if (bytes > 0) COALESCE_CUDA(cudaMalloc(&d_ptr_, bytes));
}

DeviceBuffer DeviceBuffer::adopt(void* d_ptr, std::size_t bytes) {
    DeviceBuffer b;
    b.d_ptr_ = d_ptr;
    b.bytes_ = bytes;
    return b;
}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
        if (d_ptr_) COALESCE_CUDA_NOTHROW(cudaFree(d_ptr_));
        d_ptr_ = std::exchange(o.d_ptr_, nullptr);
        bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
}

DeviceBuffer::~DeviceBuffer() {
    if (d_ptr_) COALESCE_CUDA_NOTHROW(cudaFree(d_ptr_));
}

namespace {

// `rows` rows of `row_bytes` each: one cudaMalloc (dense, pitch = row_bytes) or cudaMallocPitch.
DeviceBuffer allocate_rows(std::size_t row_bytes, std::size_t rows, DeviceMatrix::Layout layout,
                           std::size_t& pitch_bytes) {
    if (layout == DeviceMatrix::Layout::dense) {
        pitch_bytes = row_bytes;
        return DeviceBuffer(row_bytes * rows);
    }
    void* d_ptr = nullptr;
    std::size_t pitch = 0;
    COALESCE_CUDA(cudaMallocPitch(&d_ptr, &pitch, row_bytes, rows));
    pitch_bytes = pitch;
    return DeviceBuffer::adopt(d_ptr, pitch * rows);
}

}  // namespace

DeviceMatrix::DeviceMatrix(Shape shape, Layout layout) : shape_(shape) {
    if (shape.rows == 0 || shape.cols == 0)
        throw std::invalid_argument("DeviceMatrix: empty shape " + std::to_string(shape.rows) +
                                    "x" + std::to_string(shape.cols));
    buffer_ = allocate_rows(shape.cols * sizeof(float), shape.rows, layout, pitch_bytes_);
}

void DeviceMatrix::upload(const Matrix& host, cudaStream_t stream) {
    if (host.shape() != shape_) throw std::invalid_argument("DeviceMatrix::upload: shape mismatch");
    const std::size_t row_bytes = shape_.cols * sizeof(float);
    COALESCE_CUDA(cudaMemcpy2DAsync(buffer_.get(), pitch_bytes_, host.data(), row_bytes, row_bytes,
                                    shape_.rows, cudaMemcpyHostToDevice, stream));
    COALESCE_CUDA(cudaStreamSynchronize(stream));
}

Matrix DeviceMatrix::download(cudaStream_t stream) const {
    Matrix host(shape_.rows, shape_.cols);
    const std::size_t row_bytes = shape_.cols * sizeof(float);
    COALESCE_CUDA(cudaMemcpy2DAsync(host.data(), row_bytes, buffer_.get(), pitch_bytes_, row_bytes,
                                    shape_.rows, cudaMemcpyDeviceToHost, stream));
    COALESCE_CUDA(cudaStreamSynchronize(stream));
    return host;
}

void DeviceMatrix::fill_nan(cudaStream_t stream) {
    // All-ones bytes form 0xFFFFFFFF, a quiet NaN: no kernel needed, and padding stays untouched.
    COALESCE_CUDA(cudaMemset2DAsync(buffer_.get(), pitch_bytes_, 0xFF, shape_.cols * sizeof(float),
                                    shape_.rows, stream));
    COALESCE_CUDA(cudaStreamSynchronize(stream));
}

DeviceImage::DeviceImage(Shape shape, std::size_t elem_bytes, DeviceMatrix::Layout layout)
    : shape_(shape), elem_bytes_(elem_bytes) {
    if (shape.rows == 0 || shape.cols == 0 || elem_bytes == 0)
        throw std::invalid_argument("DeviceImage: empty shape " + std::to_string(shape.rows) + "x" +
                                    std::to_string(shape.cols) + " or element size " +
                                    std::to_string(elem_bytes));
    buffer_ = allocate_rows(shape.cols * elem_bytes, shape.rows, layout, pitch_bytes_);
}

void DeviceImage::upload(const void* h_data, cudaStream_t stream) {
    const std::size_t row_bytes = shape_.cols * elem_bytes_;
    COALESCE_CUDA(cudaMemcpy2DAsync(buffer_.get(), pitch_bytes_, h_data, row_bytes, row_bytes,
                                    shape_.rows, cudaMemcpyHostToDevice, stream));
    COALESCE_CUDA(cudaStreamSynchronize(stream));
}

void DeviceImage::download(void* h_data, cudaStream_t stream) const {
    const std::size_t row_bytes = shape_.cols * elem_bytes_;
    COALESCE_CUDA(cudaMemcpy2DAsync(h_data, row_bytes, buffer_.get(), pitch_bytes_, row_bytes,
                                    shape_.rows, cudaMemcpyDeviceToHost, stream));
    COALESCE_CUDA(cudaStreamSynchronize(stream));
}

void DeviceImage::fill_bytes(std::uint8_t byte, cudaStream_t stream) {
    COALESCE_CUDA(cudaMemset2DAsync(buffer_.get(), pitch_bytes_, byte, shape_.cols * elem_bytes_,
                                    shape_.rows, stream));
    COALESCE_CUDA(cudaStreamSynchronize(stream));
}

}  // namespace coalesce
