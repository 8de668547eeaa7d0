// The operations Coalesce measures: names, output shapes, the bytes-moved model and the CPU reference.
#pragma once

#include "coalesce/matrix.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace coalesce {

enum class Op { copy, transpose, row_sums, col_sums, filter_x, filter_y };

// What a filter reads outside the matrix. clamp repeats the edge; zero reads 0; wrap is periodic;
// mirror reflects with the edge repeated (… c b a | a b c … , CUDA's cudaAddressModeMirror).
enum class Border { clamp, zero, wrap, mirror };

inline constexpr int kMaxRadius = 64;  // filters accept radius 0..kMaxRadius

struct OpParams {
    int radius = 4;               // filters: mean of the 2r+1 neighbours
    Border border = Border::clamp;
};

const std::vector<Op>& all_ops();
const std::vector<Border>& all_borders();
std::string_view op_name(Op op);          // "copy", "transpose", "row_sums", ...
std::string_view border_name(Border b);   // "clamp", "zero", "wrap", "mirror"
std::optional<Op> parse_op(std::string_view name);        // also accepts "rowsums", "row-sums"
std::optional<Border> parse_border(std::string_view name);
bool is_filter(Op op);

Shape output_shape(Op op, Shape in);

// Bytes the operation must move at least: each input element read once plus each output
// element written once, 4 bytes each. [bytes]
std::size_t bytes_moved(Op op, Shape in);
inline constexpr const char* kBandwidthFormula =
    "gbps = (input_elements + output_elements) * 4 bytes / median_seconds / 1e9";

#if defined(__CUDACC__)
#define COALESCE_HOST_DEVICE __host__ __device__
#else
#define COALESCE_HOST_DEVICE
#endif

// Index of the element a filter reads at position i (may be outside [0, n)) for a border mode;
// -1 means "outside, reads zero" (Border::zero). One definition for the CPU reference and the GPU
// filters, so both read exactly the same neighbours; wrap and mirror are periodic, so radii wider
// than the line still land inside it.
COALESCE_HOST_DEVICE inline long long border_index(long long i, long long n, Border b) {
    if (i >= 0 && i < n) return i;
    switch (b) {
    case Border::clamp: return i < 0 ? 0 : n - 1;
    case Border::zero: return -1;
    case Border::wrap: return ((i % n) + n) % n;
    case Border::mirror: {
        const long long period = 2 * n;
        const long long m = ((i % period) + period) % period;
        return m < n ? m : period - 1 - m;
    }
    }
    return -1;
}

// CPU reference in double. `magnitude` receives, per output element, the sum of |terms| that built
// it (the scale of the rounding error a float32 implementation may make).
struct Reference {
    Matrix value;
    Matrix magnitude;
    std::size_t terms = 1;  // number of summands per output element
};
Reference cpu_reference(Op op, const Matrix& in, const OpParams& params);

// Verification: exact for copy and transpose; otherwise
// |out - ref| <= (2 * sqrt(terms) + 2) * FLT_EPSILON * magnitude, the typical growth of float32
// rounding in a sum of `terms` values (tight enough that one missing element fails).
struct Verification {
    bool ok = false;
    double max_abs_error = 0.0;
    std::string message;  // empty when ok; otherwise the first bad element and why
};
Verification verify(Op op, const Reference& ref, const Matrix& out);

}  // namespace coalesce
