// The extension point: a Variant is data (what it is) plus a factory for instances (how it runs).
#pragma once

#include "coalesce/matrix.hpp"
#include "coalesce/operation.hpp"
#include "coalesce/bank_model.hpp"
#include "coalesce/sector_model.hpp"
#include "coalesce/typed_image.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
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
inline constexpr const char* constant = "constant";
}  // namespace space

// What a variant is for. classic: a lesson of the course, written as the course writes it.
// tuned: what the hardware can do. experiment: a tuning idea kept because it lost (its
// description says why), hidden unless asked for.
enum class Tier { classic, tuned, experiment };
std::string_view tier_name(Tier t);  // "classic", "tuned", "experiment"
std::optional<Tier> parse_tier(std::string_view name);
const std::vector<Tier>& all_tiers();

// The inputs a variant's one kernel handles. A run outside them is skipped with the reason,
// never handed to another kernel.
struct Limits {
    std::size_t cols_multiple =
        1;               // columns must be a multiple of this (vector loads on dense rows)
    int min_radius = 0;  // filters: radii the kernel was compiled for
    int max_radius = kMaxRadius;
    std::size_t max_rows = 0;  // 0: no limit of the variant's own
    std::size_t max_cols = 0;

    // Empty when `input` and `params` are inside the limits; otherwise why not, for the user.
    std::string unsupported_reason(Op op, Shape input, const OpParams& params) const;
};

// Thrown by a variant's factory or upload when the input is outside what it can run (a device
// limit known only at run time, such as the largest 2-D texture): the run is skipped, not failed.
class Unsupported : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct VariantInfo {
    std::string id;  // unique, "<op>/<name>", e.g. "transpose/shared-padded"
    Op op = Op::copy;
    std::string memory_space;         // one of coalesce::space, or a plugin's own word
    std::string description;          // what it demonstrates and why it is fast or slow
    std::string origin = "built-in";  // "built-in" or the plugin file that registered it
    bool gpu = true;                  // false: runs on the host, timed with a host clock
    std::vector<Border> borders = {Border::clamp, Border::zero, Border::wrap, Border::mirror};
    Tier tier = Tier::classic;
    std::string kernel;  // the __global__ function(s) this id runs, recorded with each result
    Limits limits;
    // Longest chain of float32 additions behind one output, for the verification bound (see
    // verify() in operation.hpp); empty: sequential, terms - 1, the safe assumption.
    std::function<std::size_t(Shape input, std::size_t terms)> chain;
    // The global-memory requests of one typical warp, for the sector model; empty: no model.
    std::function<std::vector<WarpRequest>(Shape input, const OpParams& params)> access;
    // The shared-memory requests of one typical warp, offsets from the start of the shared array,
    // for the bank model (bank_model.hpp); empty: no model.
    std::function<std::vector<WarpRequest>(Shape input, const OpParams& params)> shared_access{};
    // The __constant__ requests of one typical warp, offsets from the start of the table, for the
    // constant cache's serialization; empty: no model.
    std::function<std::vector<WarpRequest>(Shape input, const OpParams& params)> constant_access{};
    // The element types its instances take: f32 through upload/download, the others through
    // upload_typed/download_typed. A run of any other type is skipped, naming the variant and type.
    std::vector<ElemType> types = {ElemType::f32};
    // The channel counts its typed instances take (1: grey; 3, 4: interleaved colour, as
    // TypedImage holds it). A run of any other count is skipped, naming the variant and the count.
    // Where the colour sits on the device (interleaved, planes) is the variant's own business.
    std::vector<int> channels = {1};

    bool supports(Border b) const;
    bool takes(ElemType t) const { return std::find(types.begin(), types.end(), t) != types.end(); }
    bool takes_channels(int n) const {
        return std::find(channels.begin(), channels.end(), n) != channels.end();
    }
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

    // Typed runs (u8, u16: only for variants whose info.types name the type), in the same order:
    // upload_typed, then any number of poison_bytes/launch, download_typed. The output holds the
    // input's element type, or for u8/u16 sums the accumulator sum_width picks (uint32, uint64).
    // Integers have no NaN: poison_bytes fills every byte of the output with `byte`, and the runner
    // verifies under 0x00 and under 0xFF, so an element left unwritten fails under one of them.
    virtual void upload_typed(const AnyImage& /*input*/) {
        throw std::logic_error("this variant takes f32 only");
    }
    virtual void poison_bytes(std::uint8_t /*byte*/) {
        throw std::logic_error("this variant takes f32 only");
    }
    virtual AnyImage download_typed() { throw std::logic_error("this variant takes f32 only"); }
};

struct Variant {
    VariantInfo info;
    // Creates an instance for an input shape; throws (with the reason) when it cannot.
    std::function<std::unique_ptr<Instance>(Shape input, const OpParams& params)> make;
};

}  // namespace coalesce
