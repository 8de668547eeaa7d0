// What the GPU variant suites share: readable test names, and random inputs and CPU references
// computed once per process and reused by every variant checked against them.
#pragma once

#include "coalesce/cuda_raii.hpp"
#include "coalesce/device.hpp"
#include "coalesce/operation.hpp"
#include "coalesce/typed_run.hpp"
#include "coalesce/variant.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace coalesce::test {

// The six matrix operations every memory space implements (the access-pattern and on-chip
// experiments are operations too, but not in every memory space).
inline const std::vector<Op>& matrix_ops() {
    static const std::vector<Op> ops = {Op::copy,     Op::transpose, Op::row_sums,
                                        Op::col_sums, Op::filter_x,  Op::filter_y};
    return ops;
}

// "transpose/shared-padded" -> "transpose_shared_padded": gtest names allow [A-Za-z0-9_] only.
inline std::string sanitized(const std::string& text) {
    std::string out = text;
    std::replace_if(
        out.begin(), out.end(), [](unsigned char ch) { return !std::isalnum(ch); }, '_');
    return out;
}

// Uniform [-1, 1) input of this shape; its seed depends on the shape, so every shape is fresh data.
inline const Matrix& cached_input(Shape shape) {
    static std::map<std::pair<std::size_t, std::size_t>, Matrix> cache;
    const auto key = std::make_pair(shape.rows, shape.cols);
    auto it = cache.find(key);
    if (it == cache.end())
        it = cache
                 .emplace(key, Matrix::random(shape.rows, shape.cols,
                                              1000003u * shape.rows + shape.cols))
                 .first;
    return it->second;
}

// The CPU reference of `op` on cached_input(shape).
inline const Reference& cached_reference(Op op, Shape shape, const OpParams& params) {
    static std::map<std::string, Reference> cache;
    std::string key = std::string(op_name(op)) + " " + std::to_string(shape.rows) + "x" +
                      std::to_string(shape.cols);
    if (is_filter(op))
        key += " " + std::to_string(params.radius) + " " + std::string(border_name(params.border));
    auto it = cache.find(key);
    if (it == cache.end())
        it = cache.emplace(key, cpu_reference(op, cached_input(shape), params)).first;
    return it->second;
}

// "transpose/fast-x" at 33x65 -> "transpose_fast_x_33x65": a case name gtest accepts.
inline std::string case_name(const std::string& id, Shape shape) {
    return sanitized(id) + "_" + std::to_string(shape.rows) + "x" + std::to_string(shape.cols);
}

// A parametrized suite whose cases need a CUDA device: each skips, saying why, without one.
template <class Param>
class GpuTestWithParam : public testing::TestWithParam<Param> {
protected:
    void SetUp() override {
        if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device: " << no_device_reason();
    }
};

// A typed variant's output for `input` on an output poisoned with `poison` in every byte, after
// two launches on one instance (as the runner repeats launches while timing).
inline AnyImage run_once(const Variant& variant, const AnyImage& input, const OpParams& params,
                         std::uint8_t poison) {
    std::unique_ptr<Instance> instance = variant.make(typed::shape_of(input), params);
    instance->upload_typed(input);
    instance->poison_bytes(poison);
    const Stream stream = Stream::create();
    instance->launch(stream.get());
    instance->launch(stream.get());
    stream.synchronize();
    return instance->download_typed();
}

}  // namespace coalesce::test
