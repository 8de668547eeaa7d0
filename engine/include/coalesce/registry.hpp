// All variants known to a session, built-in and from plugins, in registration order.
#pragma once

#include "coalesce/variant.hpp"

#include <string_view>
#include <vector>

namespace coalesce {

class Registry {
public:
    // Throws std::invalid_argument for an empty or duplicate id, or a variant without a factory.
    void add(Variant variant);

    const std::vector<Variant>& variants() const { return variants_; }
    const Variant* find(std::string_view id) const;
    std::vector<const Variant*> for_op(Op op) const;
    std::size_t size() const { return variants_.size(); }

private:
    std::vector<Variant> variants_;
};

// The host variants (naive and cache-blocked) of every operation; they run anywhere.
void register_cpu_variants(Registry& registry);

}  // namespace coalesce
