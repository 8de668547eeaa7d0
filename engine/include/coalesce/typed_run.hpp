// Typed runs: what the runner needs to run the six operations on u8 and u16 images beside its
// float32 path, which stays as it is: reproducible random inputs, the typed reference
// (typed_reference.hpp), the bytes model by element size, and exact verification.
#pragma once

#include "coalesce/operation.hpp"
#include "coalesce/typed_image.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace coalesce::typed {

// The six operations (copy, transpose, row_sums, col_sums, filter_x, filter_y) have typed
// semantics; the lesson operations are float32 experiments and take f32 only.
bool has_typed_semantics(Op op);

// Why `op` cannot run on `type` elements of an `input` shape (empty: it can): an operation without
// typed semantics, or sums whose total could overflow even a 64-bit accumulator (sum_width's
// message). f32 always can.
std::string type_problem(Op op, ElemType type, Shape input);

// Uniform over the whole range of u8 (0..255) or u16 (0..65535), reproducible from the seed with
// Matrix::random's generator, `channels` (1, 3 or 4) interleaved channels drawn in memory order;
// f32 is Matrix::random's [-1, 1) itself and single-channel (std::invalid_argument otherwise).
AnyImage random_input(ElemType type, Shape shape, std::uint64_t seed, int channels = 1);

// [bytes] of one output element: the element's own size, or for u8/u16 sums the accumulator's
// (4 for uint32, 8 for uint64, per sum_width). Throws as sum_width does.
std::size_t output_elem_size(Op op, ElemType type, Shape input);

// [bytes] each input element read once (its size) + each output element written once (its size),
// `channels` elements per pixel. For f32 this is the operation's own bytes_moved (one channel).
std::size_t bytes_moved(Op op, ElemType type, Shape input, const OpParams& params,
                        int channels = 1);

// The typed reference of a u8, u16 or f32 single-channel image (sums of f32 in double).
// Throws std::invalid_argument for an operation without typed semantics, and what the references
// throw (sum_width's std::overflow_error, a bad radius).
AnyImage reference(Op op, const AnyImage& input, const OpParams& params);

Shape shape_of(const AnyImage& image);  // in pixels: rows x cols, channels apart
int channels_of(const AnyImage& image);
std::string_view type_name_of(const AnyImage& image);  // "u8", "u16", "f32", "u32", "u64"

// Bit-exact comparison of a typed output with its reference, every channel. The message (empty
// when ok) names the first mismatching position (row, col, and the channel of a colour image),
// the expected value and the value got, or the shapes, channel counts or element types when they
// differ. max_abs_error is the largest |expected - got|.
Verification verify_exact(const AnyImage& expected, const AnyImage& got);

}  // namespace coalesce::typed
