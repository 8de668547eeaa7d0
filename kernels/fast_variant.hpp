// How the fast variants register: each id runs one kernel, so its factory refuses (Unsupported,
// which the runner records as a skip with the reason) every input that kernel cannot take: the
// limits the variant declares, and what only a run-time test can tell (`refuse`). A caller that
// bypasses the runner's own limits check still never reaches the kernel with such an input.
#pragma once

#include "coalesce/registry.hpp"
#include "device_instance.hpp"

#include <functional>
#include <memory>
#include <string>
#include <utility>

namespace coalesce::fast {

// Why this input cannot run on the variant's kernel; empty when it can.
using Refusal = std::function<std::string(Shape input, const OpParams& params)>;

// `variant` with a factory that first refuses what its kernel cannot do. Invalid arguments (a
// radius outside 0..kMaxRadius) still throw std::invalid_argument, before any refusal.
inline Variant refusing_unsupported(Variant variant, Refusal refuse = {}) {
    auto make = std::move(variant.make);
    variant.make = [make = std::move(make), op = variant.info.op, limits = variant.info.limits,
                    refuse = std::move(refuse)](
                       Shape input, const OpParams& params) -> std::unique_ptr<Instance> {
        gpu::check_device_args(op, input, params);
        if (std::string why = limits.unsupported_reason(op, input, params); !why.empty())
            throw Unsupported(why);
        if (refuse) {
            if (std::string why = refuse(input, params); !why.empty()) throw Unsupported(why);
        }
        return make(input, params);
    };
    return variant;
}

// A device variant (gpu::make_device_variant) that refuses what its kernel cannot do.
inline Variant device_variant(gpu::DeviceVariantSpec spec, gpu::Launcher launcher,
                              Refusal refuse = {}) {
    return refusing_unsupported(gpu::make_device_variant(std::move(spec), std::move(launcher)),
                                std::move(refuse));
}

// Adds `spec` on dense rows and its twin "<id>-pitched" on cudaMallocPitch rows: the same kernel,
// tier and limits, described as "<id> on cudaMallocPitch rows" and then `pitched_note`.
inline void add_dense_and_pitched(Registry& registry, gpu::DeviceVariantSpec spec,
                                  const gpu::Launcher& launcher,
                                  const std::string& pitched_note = {}) {
    gpu::DeviceVariantSpec pitched = spec;
    pitched.id = spec.id + "-pitched";
    pitched.memory_space = space::pitched;
    pitched.description = spec.id + " on cudaMallocPitch rows" + pitched_note;
    pitched.layout = gpu::Layout::pitched;
    registry.add(device_variant(std::move(spec), launcher));
    registry.add(device_variant(std::move(pitched), launcher));
}

}  // namespace coalesce::fast
