#include "coalesce/matrix.hpp"

#include <random>

namespace coalesce {

Matrix Matrix::random(std::size_t rows, std::size_t cols, std::uint64_t seed, float lo, float hi) {
    Matrix m(rows, cols);
    // A small xorshift keeps large inputs fast to generate and identical on every platform
    // (std::uniform_real_distribution is not specified bit-for-bit across libraries).
    std::uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
    const float scale = (hi - lo) / 16777216.0f;
    for (float& v : m.data_) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        v = lo + static_cast<float>(state >> 40) * scale;
    }
    return m;
}

Matrix Matrix::gradient(std::size_t rows, std::size_t cols) {
    Matrix m(rows, cols);
    const double span = static_cast<double>(rows + cols > 2 ? rows + cols - 2 : 1);
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c)
            m.at(r, c) = static_cast<float>(static_cast<double>(r + c) / span);
    return m;
}

Matrix Matrix::checkerboard(std::size_t rows, std::size_t cols, std::size_t square) {
    Matrix m(rows, cols);
    if (square == 0) square = 1;
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c)
            m.at(r, c) = ((r / square + c / square) % 2) ? 1.0f : 0.0f;
    return m;
}

}  // namespace coalesce
