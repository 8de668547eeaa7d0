// The cases the on-chip GPU suites (built-in and texture variants) run: small shapes, so the whole
// suite runs under compute-sanitizer memcheck and racecheck, and each operation's parameters over
// the values that change what its kernels do.
#pragma once

#include "coalesce/cuda_raii.hpp"
#include "coalesce/matrix.hpp"
#include "coalesce/operation.hpp"
#include "coalesce/variant.hpp"

#include <gtest/gtest.h>

#include <memory>

#include <string>
#include <vector>

namespace coalesce::test {

inline bool is_onchip(Op op) {
    for (const char* name : {"smem_copy_tile", "smem_transpose_tile", "constant_read",
                             "random_sample", "resample", "u8_to_float"})
        if (op.name() == name) return true;
    return false;
}

// 1x1 and a column (no whole tile), odd sizes, several whole tiles of both heights.
inline const std::vector<Shape>& onchip_shapes() {
    static const std::vector<Shape> shapes = {{1, 1},   {17, 1},  {1, 40},
                                              {33, 65}, {64, 96}, {100, 130}};
    return shapes;
}

inline OpParams named(std::initializer_list<std::pair<const char*, long long>> values) {
    OpParams p;
    for (const auto& [name, value] : values) p.values[name] = value;
    return p;
}

inline std::vector<OpParams> onchip_params(Op op) {
    std::vector<OpParams> out;
    const std::string name(op.name());
    if (name == "smem_copy_tile" || name == "smem_transpose_tile") {
        for (long long h : {16, 32})
            for (long long repeat : {1, 2, 3, 9})
                out.push_back(named({{"tile_rows", h}, {"repeat", repeat}}));
    } else if (name == "constant_read") {
        for (long long distinct : {0, 1, 3, 32})
            for (long long repeat : {1, 50})
                out.push_back(named({{"distinct", distinct}, {"repeat", repeat}}));
    } else if (name == "random_sample") {
        for (long long area : {1, 4, 8, 16, 32})
            for (long long samples : {1, 7})
                out.push_back(named({{"area", area}, {"samples", samples}}));
    } else if (name == "resample") {
        for (const auto& [scale, angle] : std::vector<std::pair<long long, long long>>{
                 {100, 0}, {150, 15}, {50, -30}, {200, 90}, {33, 180}, {400, 7}})
            out.push_back(named({{"scale", scale}, {"angle", angle}}));
    } else {
        out.push_back({});
    }
    return out;
}

// Random values; u8_to_float gets the range of images and beyond (saturation), the others [-1, 1).
inline Matrix onchip_input(Op op, Shape s) {
    const std::uint64_t seed = 7919u * s.rows + s.cols;
    if (op.name() == std::string_view("u8_to_float"))
        return Matrix::random(s.rows, s.cols, seed, -20.0f, 280.0f);
    return Matrix::random(s.rows, s.cols, seed);
}

inline std::string params_text(const OpParams& p) {
    std::string out;
    for (const auto& [name, value] : p.values)
        out += (out.empty() ? "" : " ") + name + "=" + std::to_string(value);
    return out.empty() ? "defaults" : out;
}

// The variant's output after two launches (the runner times repeated launches) on a poisoned
// output. Needs a CUDA device.
inline Matrix launched_twice(const Variant& v, const Matrix& input, const OpParams& params) {
    const Stream stream = Stream::create();
    std::unique_ptr<Instance> instance = v.make(input.shape(), params);
    instance->upload(input);
    instance->poison();
    instance->launch(stream.get());
    instance->launch(stream.get());
    stream.synchronize();
    return instance->download();
}

// Every shape of onchip_shapes() and every parameter set of the variant's operation, launched
// twice and checked against the CPU reference, each case named by a SCOPED_TRACE.
inline void expect_every_onchip_case_verifies(const Variant& v) {
    for (Shape shape : onchip_shapes()) {
        const Matrix input = onchip_input(v.info.op, shape);
        for (const OpParams& params : onchip_params(v.info.op)) {
            SCOPED_TRACE(std::to_string(shape.rows) + "x" + std::to_string(shape.cols) + " " +
                         params_text(params));
            const Matrix out = launched_twice(v, input, params);
            ASSERT_EQ(out.shape(), output_shape(v.info.op, shape, params));
            const Verification check =
                verify(v.info.op, cpu_reference(v.info.op, input, params), out);
            EXPECT_TRUE(check.ok) << check.message << " (max abs error " << check.max_abs_error
                                  << ")";
        }
    }
}

}  // namespace coalesce::test
