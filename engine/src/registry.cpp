#include "coalesce/registry.hpp"

#include <algorithm>
#include <stdexcept>

namespace coalesce {

bool VariantInfo::supports(Border b) const {
    return std::find(borders.begin(), borders.end(), b) != borders.end();
}

std::string_view tier_name(Tier t) {
    switch (t) {
    case Tier::classic: return "classic";
    case Tier::tuned: return "tuned";
    case Tier::experiment: return "experiment";
    }
    return "?";
}

const std::vector<Tier>& all_tiers() {
    static const std::vector<Tier> tiers = {Tier::classic, Tier::tuned, Tier::experiment};
    return tiers;
}

std::optional<Tier> parse_tier(std::string_view name) {
    for (Tier t : all_tiers())
        if (tier_name(t) == name) return t;
    return std::nullopt;
}

std::string Limits::unsupported_reason(Op op, Shape input, const OpParams& params) const {
    if (cols_multiple > 1 && input.cols % cols_multiple != 0)
        return "needs a column count that is a multiple of " + std::to_string(cols_multiple) +
               " (this input has " + std::to_string(input.cols) + ")";
    if (is_filter(op) && (params.radius < min_radius || params.radius > max_radius))
        return "compiled for radii " + std::to_string(min_radius) + ".." +
               std::to_string(max_radius) + " (asked for " + std::to_string(params.radius) + ")";
    if (max_rows && input.rows > max_rows)
        return "handles at most " + std::to_string(max_rows) + " rows (this input has " +
               std::to_string(input.rows) + ")";
    if (max_cols && input.cols > max_cols)
        return "handles at most " + std::to_string(max_cols) + " columns (this input has " +
               std::to_string(input.cols) + ")";
    return {};
}

void Registry::add(Variant variant) {
    if (variant.info.id.empty()) throw std::invalid_argument("variant with an empty id");
    if (!variant.make)
        throw std::invalid_argument("variant '" + variant.info.id + "' has no factory");
    if (const Variant* existing = find(variant.info.id))
        throw std::invalid_argument("variant '" + variant.info.id + "' already exists (from " +
                                    existing->info.origin + ")");
    // Every instance sees its operation's parameters resolved (declared defaults filled in),
    // whoever calls the factory: the runner, a test, the window.
    const Op op = variant.info.op;
    variant.make = [op, make = std::move(variant.make)](Shape input, const OpParams& params) {
        return make(input, resolved_params(op, params));
    };
    variants_.push_back(std::move(variant));
}

const Variant* Registry::find(std::string_view id) const {
    for (const Variant& v : variants_)
        if (v.info.id == id) return &v;
    return nullptr;
}

std::vector<const Variant*> Registry::for_op(Op op) const {
    std::vector<const Variant*> out;
    for (const Variant& v : variants_)
        if (v.info.op == op) out.push_back(&v);
    return out;
}

}  // namespace coalesce
