// The extension point: a Variant is data (what it is) plus a factory for instances (how it runs).
#pragma once

#include "coalesce/matrix.hpp"
#include "coalesce/operation.hpp"

#include <cuda_runtime_api.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace coalesce {

// Memory spaces, as shown to users and written to results files.
namespace space {
inline constexpr const char* host = "host";
inline constexpr const char* global = "global";
inline constexpr const char* pitched = "pitched";
inline constexpr const char* shared = "shared";
inline constexpr const char* texture_array = "texture-array";
inline constexpr const char* texture_pitched = "texture-pitched";
}  // namespace space

struct VariantInfo {
    std::string id;            // unique, "<op>/<name>", e.g. "transpose/shared-padded"
    Op op = Op::copy;
    std::string memory_space;  // one of coalesce::space, or a plugin's own word
    std::string description;   // what it demonstrates and why it is fast or slow
    std::string origin = "built-in";  // "built-in" or the plugin file that registered it
    bool gpu = true;           // false: runs on the host, timed with a host clock
    std::vector<Border> borders = {Border::clamp, Border::zero, Border::wrap, Border::mirror};

    bool supports(Border b) const;
};

// One prepared run of a variant on one input: owns every resource it allocated (freed by the
// destructor, also on error). Called in this order: upload, then any number of poison/launch,
// download.
class Instance {
public:
    virtual ~Instance() = default;
    virtual void upload(const Matrix& input) = 0;  // allocate + copy in; not timed
    virtual void poison() = 0;                     // fill the output with NaN
    virtual void launch(cudaStream_t stream) = 0;  // the timed part: launches only (host: the work)
    virtual Matrix download() = 0;                 // output, shape output_shape(op, input)
};

struct Variant {
    VariantInfo info;
    // Creates an instance for an input shape; throws (with the reason) when it cannot.
    std::function<std::unique_ptr<Instance>(Shape input, const OpParams& params)> make;
};

}  // namespace coalesce
