#include "verification_bound.hpp"

namespace coalesce::gui {

// The engine states its bound only through verify(). Asking verify() itself, at one element of
// magnitude 1, gives the factor without restating (and one day contradicting) its formula here.
double bound_factor(Op op, std::size_t terms) {
    Reference one{Matrix(1, 1, 0.0f), Matrix(1, 1, 1.0f), terms};
    Matrix out(1, 1);
    const auto accepts = [&](double error) {
        out.at(0, 0) = static_cast<float>(error);
        return verify(op, one, out).ok;
    };
    if (!accepts(1e-30)) return 0.0;  // exact: only equality passes
    double lo = 0.0, hi = 1.0;
    while (accepts(hi) && hi < 1e6) hi *= 2.0;
    for (int i = 0; i < 64 && hi - lo > lo * 1e-6; ++i) {
        const double mid = 0.5 * (lo + hi);
        (accepts(mid) ? lo : hi) = mid;
    }
    return lo;
}

Matrix verification_bounds(Op op, const Reference& reference) {
    const double factor = bound_factor(op, reference.terms);
    Matrix bounds(reference.magnitude.rows(), reference.magnitude.cols());
    const float* magnitude = reference.magnitude.data();
    float* out = bounds.data();
    // verify() adds a reference's allowance (the texture unit's 8-bit weights) element by element.
    const bool allowance = reference.allowance.shape() == reference.magnitude.shape();
    for (std::size_t i = 0; i < bounds.size(); ++i)
        out[i] = static_cast<float>(factor * static_cast<double>(magnitude[i]) +
                                    (allowance ? reference.allowance.data()[i] : 0.0));
    return bounds;
}

}  // namespace coalesce::gui
