// The sum of a typed box filter's window from its definition: each of the 2r + 1 samples through
// the border rule (Border::zero's outside samples count as 0), summed exactly. For tests that judge
// the references and OpenCV against it.
#pragma once

#include "coalesce/operation.hpp"
#include "coalesce/typed_image.hpp"

#include <cstddef>
#include <cstdint>

namespace coalesce::test {

// Element (r, c, ch)'s window along rows (along_x) or along columns.
template <class T>
std::uint64_t window_sum(const TypedImage<T>& in, std::size_t r, std::size_t c, std::size_t ch,
                         int radius, Border border, bool along_x) {
    const auto n = static_cast<long long>(along_x ? in.cols() : in.rows());
    const auto i = static_cast<long long>(along_x ? c : r);
    std::uint64_t sum = 0;
    for (long long j = i - radius; j <= i + radius; ++j) {
        const long long at = border_index(j, n, border);
        if (at < 0) continue;
        const auto a = static_cast<std::size_t>(at);
        sum += along_x ? in.at(r, a, ch) : in.at(a, c, ch);
    }
    return sum;
}

}  // namespace coalesce::test
