// Host matrices (float32, row-major, dense) and the one view type device code indexes through.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace coalesce {

struct Shape {
    std::size_t rows = 0;
    std::size_t cols = 0;
    std::size_t elements() const { return rows * cols; }
    bool operator==(const Shape&) const = default;
};

// A dense host matrix. Row r starts at data()[r * cols].
class Matrix {
public:
    Matrix() = default;
    Matrix(std::size_t rows, std::size_t cols, float fill = 0.0f)
        : shape_{rows, cols}, data_(rows * cols, fill) {}

    std::size_t rows() const { return shape_.rows; }
    std::size_t cols() const { return shape_.cols; }
    Shape shape() const { return shape_; }
    std::size_t size() const { return data_.size(); }
    bool empty() const { return data_.empty(); }

    float* data() { return data_.data(); }
    const float* data() const { return data_.data(); }
    float& at(std::size_t r, std::size_t c) { return data_[r * shape_.cols + c]; }
    float at(std::size_t r, std::size_t c) const { return data_[r * shape_.cols + c]; }
    float* row(std::size_t r) { return data_.data() + r * shape_.cols; }
    const float* row(std::size_t r) const { return data_.data() + r * shape_.cols; }

    // Uniform values in [lo, hi), reproducible from the seed.
    static Matrix random(std::size_t rows, std::size_t cols, std::uint64_t seed, float lo = -1.0f,
                         float hi = 1.0f);
    static Matrix gradient(std::size_t rows, std::size_t cols);
    static Matrix checkerboard(std::size_t rows, std::size_t cols, std::size_t square = 8);

private:
    Shape shape_;
    std::vector<float> data_;
};

// A 2-D view of float32 memory, dense or pitched; used by host and device code alike.
struct MatView {
    float* data = nullptr;
    std::size_t rows = 0;
    std::size_t cols = 0;
    std::size_t pitch_bytes = 0;  // [bytes] distance between row starts
};

}  // namespace coalesce
