// scattered: out[i] = in[p(i)], p a fixed permutation in the manner of seed 003's testScattered
// (index * 121 mod n): inside each span of `span` floats, p(base + j) = base + (j * m) mod span;
// span 0 is the whole buffer. m is `multiplier` (121 by default), or the next odd number coprime
// with the span length when it is not, so p is a permutation; floats past the last whole span are
// copied straight. Span 32 (one 128-byte line) with multiplier 7 is testMixed's lane * 7 % 32.
#include "op_support.hpp"

#include <numeric>
#include <string>

namespace coalesce::ops {
namespace {

constexpr long long kMaxSpan = 1ll << 24;

struct Permutation {
    std::size_t span = 1;        // floats per span
    std::size_t whole = 0;       // floats in whole spans; the rest are copied straight
    std::size_t multiplier = 1;  // odd and coprime with span
};

Permutation permutation(Shape in, const OpParams& p) {
    Permutation perm;
    const std::size_t n = in.elements();
    const auto span = static_cast<std::size_t>(p.value("span"));
    perm.span = span == 0 ? n : span;
    perm.whole = perm.span == 0 ? 0 : n / perm.span * perm.span;
    std::size_t m = static_cast<std::size_t>(p.value("multiplier"));
    if (m % 2 == 0) ++m;
    while (perm.span > 0 && std::gcd(m, perm.span) != 1) m += 2;
    perm.multiplier = m;
    return perm;
}

// Outputs [i0, i1) from their permuted places.
void scattered_range(const Matrix& in, Matrix& out, const Permutation& perm, std::size_t i0,
                     std::size_t i1) {
    const float* src = in.data();
    float* dst = out.data();
    for (std::size_t i = i0; i < i1; ++i) {
        if (i >= perm.whole) {
            dst[i] = src[i];
            continue;
        }
        const std::size_t j = i % perm.span;
        dst[i] = src[i - j + (j * perm.multiplier) % perm.span];
    }
}

void scattered_host(const Matrix& in, Matrix& out, const OpParams& p) {
    scattered_range(in, out, permutation(in.shape(), p), 0, in.size());
}

bool power_of_two(long long v) { return v > 0 && (v & (v - 1)) == 0; }

}  // namespace

const OpDesc& describe_scattered() {
    static const OpDesc desc{
        .op = Op("scattered"),
        .aliases = {"scattered_read", "permuted"},
        .summary =
            "out[i] = in[p(i)], p = j * multiplier mod span inside each span of `span` "
            "floats (0: the whole buffer): reads scattered over a span",
        .filter = false,
        .exact = true,
        .params = {{"span", 0, kMaxSpan, 0,
                    "floats each permuted span holds: 0 (the whole buffer) or a power of two"},
                   {"multiplier", 1, 1023, 121,
                    "the permutation's factor (raised to the next odd number coprime with the "
                    "span)"}},
        .output_shape = same_shape,
        .bytes_moved = same_shape_bytes,
        .reference =
            [](const Matrix& in, const OpParams& p) {
                Matrix out(in.rows(), in.cols());
                const Permutation perm = permutation(in.shape(), p);
                parallel_for(in.size(), [&](std::size_t i0, std::size_t i1) {
                    scattered_range(in, out, perm, i0, i1);
                });
                return exact_reference(std::move(out));
            },
        .host = {{"cpu-naive",
                  "Host loop reading each float from its permuted place.",
                  scattered_host,
                  {}}},
        .check = [](Shape in, const OpParams& p) -> std::string {
            const long long span = p.value("span");
            if (span != 0 && !power_of_two(span))
                return "span=" + std::to_string(span) +
                       " is neither 0 (the whole buffer) nor a power of two";
            if (static_cast<std::size_t>(span) > in.elements())
                return "span=" + std::to_string(span) + " is longer than the buffer (" +
                       std::to_string(in.rows) + "x" + std::to_string(in.cols) + " = " +
                       std::to_string(in.elements()) + " elements); 0 spans the whole buffer";
            return {};
        },
    };
    return desc;
}

}  // namespace coalesce::ops
