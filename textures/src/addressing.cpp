#include "addressing.hpp"

#include "texture_error.hpp"

#include "coalesce/plugin_abi.h"
#include "texture_ops.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace coalesce::textures {

Addressing addressing_for(int op, int border) {
    if (op != TEX_OP_FILTER_X && op != TEX_OP_FILTER_Y) return {cudaAddressModeClamp, false};
    switch (border) {
    case COALESCE_BORDER_CLAMP: return {cudaAddressModeClamp, false};
    case COALESCE_BORDER_ZERO: return {cudaAddressModeBorder, true};
    case COALESCE_BORDER_WRAP: return {cudaAddressModeWrap, true};
    case COALESCE_BORDER_MIRROR: return {cudaAddressModeMirror, true};
    default: throw TextureError("unknown border mode " + std::to_string(border));
    }
}

const char* border_word(int border) {
    switch (border) {
    case COALESCE_BORDER_CLAMP: return "clamp";
    case COALESCE_BORDER_ZERO: return "zero";
    case COALESCE_BORDER_WRAP: return "wrap";
    case COALESCE_BORDER_MIRROR: return "mirror";
    default: return "unknown";
    }
}

long long reference_index(long long i, long long n, int border) {
    if (i >= 0 && i < n) return i;
    switch (border) {
    case COALESCE_BORDER_ZERO: return -1;
    case COALESCE_BORDER_WRAP: return ((i % n) + n) % n;
    case COALESCE_BORDER_MIRROR: {
        const long long m = ((i % (2 * n)) + 2 * n) % (2 * n);  // period 2n: a b c | c b a
        return m < n ? m : 2 * n - 1 - m;
    }
    default: return std::clamp(i, 0LL, n - 1);
    }
}

namespace {

// Where the texture unit's address mode puts normalized coordinate u, in texels ([0, n)), or a
// negative value for "outside, border colour".
double texel_position(float u, long long n, int border) {
    const double ud = u;
    const double fl = std::floor(ud);
    double f = ud - fl;  // exact in double
    switch (border) {
    case COALESCE_BORDER_ZERO:
        if (ud < 0.0 || ud >= 1.0) return -1.0;
        f = ud;
        break;
    case COALESCE_BORDER_MIRROR:
        if (std::fmod(std::fabs(fl), 2.0) == 1.0) f = 1.0 - f;
        break;
    default: break;  // wrap: the fraction
    }
    return f * static_cast<double>(n);
}

}  // namespace

void check_normalized_precision(long long n, int radius, int border, const char* axis) {
    constexpr double kSubTexel = 1.0 / 256.0;
    const float inv_n = 1.0f / static_cast<float>(n);
    for (long long i = -radius; i < n + radius; ++i) {
        const float u =
            (static_cast<float>(i) + 0.5f) * inv_n;  // as the kernels: __fadd_rn, __fmul_rn
        const long long want = reference_index(i, n, border);
        const double x = texel_position(u, n, border);
        long long got = -1;
        double margin = 1.0;
        if (x >= 0.0) {
            got = std::min(static_cast<long long>(std::floor(x)), n - 1);
            margin = std::min(x - std::floor(x), std::floor(x) + 1.0 - x);
        } else if (border == COALESCE_BORDER_ZERO) {
            // distance of the coordinate from the edge it crossed, in texels
            const double t = static_cast<double>(u) * static_cast<double>(n);
            margin = t < 0.0 ? -t : t - static_cast<double>(n);
        }
        if (got != want || margin < kSubTexel)
            throw TextureUnsupported(
                "normalized texture coordinates cannot address every texel exactly for " +
                std::string(border_word(border)) + " borders along " + axis + " of " +
                std::to_string(n) + " elements (index " + std::to_string(i) + " maps to texel " +
                std::to_string(got) + ", expected " + std::to_string(want) +
                "); this size and border mode are refused rather than computed wrongly");
    }
}

}  // namespace coalesce::textures
