#include "coalesce/registry.hpp"

#include <algorithm>
#include <stdexcept>

namespace coalesce {

bool VariantInfo::supports(Border b) const {
    return std::find(borders.begin(), borders.end(), b) != borders.end();
}

void Registry::add(Variant variant) {
    if (variant.info.id.empty()) throw std::invalid_argument("variant with an empty id");
    if (!variant.make) throw std::invalid_argument("variant '" + variant.info.id + "' has no factory");
    if (const Variant* existing = find(variant.info.id))
        throw std::invalid_argument("variant '" + variant.info.id + "' already exists (from " +
                                    existing->info.origin + ")");
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
