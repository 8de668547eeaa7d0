// Results files. Both formats are read back strictly: a field that is missing or of the wrong type
// is an error naming it, so a damaged or foreign file is refused, never half-read. Fields this
// version does not know are passed over: schema 1 grows by adding fields (design.md: "extend it,
// keep these names"), and a file from a later writer of the same schema must still open here.
//
// JSON has no literal for NaN or infinity, yet a failed run can carry one (the error of an output
// left unwritten). Such numbers are written as the strings "nan", "inf" and "-inf" and read back.
// Output and reference matrices are never written; neither is config.input (only its shape, for
// the reader's information). A run's hardware counters are an object (null without counters) in
// JSON and a group of columns (empty without counters) in CSV; the ratios written beside the
// counts are for readers of the file and are recomputed, not read, here.
//
// A results file may come from anywhere, so the readers bound everything before it can cost
// memory or time: the file's size, nesting, the number of values, every string's length and every
// list's count; text quoted back in a message is shortened. No step is quadratic in the input.
#include "coalesce/results_io.hpp"

#include "coalesce/shortened.hpp"
#include "coalesce/typed_run.hpp"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <system_error>
#include <unordered_set>

namespace coalesce {
namespace {

using Json = nlohmann::ordered_json;  // written in a fixed field order
using InJson = nlohmann::json;        // read into sorted maps: key lookups stay logarithmic
namespace fs = std::filesystem;

constexpr int kMaxJsonDepth = 16;                  // a results file nests 4 levels
constexpr std::size_t kMaxJsonValues = 8'000'000;  // keys and values: 100,000 runs hold 5.2 million
constexpr std::size_t kMaxCsvFields = 256;         // per row; a results CSV has 30

std::string quote_text(std::string_view text) { return "'" + shortened(text) + "'"; }
std::string path_text(const fs::path& path) {
    return "'" + shortened(path.string(), 2 * kQuoteLimit) + "'";
}

std::string errno_text(int err) { return std::error_code(err, std::generic_category()).message(); }

// ---------------------------------------------------------------------------------------------
// Numbers as text, shared by both formats: shortest round-trip form, non-finite values spelled out.

std::string double_text(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

std::optional<double> parse_double(std::string_view s) {
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
    double v = 0;
    const auto res = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || res.ec != std::errc{} || res.ptr != s.data() + s.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

template <class Int>
std::optional<Int> parse_integer(std::string_view s) {
    Int v{};
    const auto res = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || res.ec != std::errc{} || res.ptr != s.data() + s.size()) return std::nullopt;
    return v;
}

std::optional<bool> parse_bool(std::string_view s) {
    if (s == "true") return true;
    if (s == "false") return false;
    return std::nullopt;
}

Json number_json(double v) { return std::isfinite(v) ? Json(v) : Json(double_text(v)); }

// ---------------------------------------------------------------------------------------------
// JSON writing

Json shape_json(Shape s) { return Json{{"rows", s.rows}, {"cols", s.cols}}; }

Json device_json(const DeviceInfo& d) {
    return Json{
        {"index", d.index},
        {"name", d.name},
        {"gpu", d.gpu},
        {"sm_count", d.sm_count},
        {"cc_major", d.cc_major},
        {"cc_minor", d.cc_minor},
        {"l2_bytes", d.l2_bytes},
        {"memory_bytes", d.memory_bytes},
        {"memory_bus_bits", d.memory_bus_bits},
        {"memory_clock_khz", number_json(d.memory_clock_khz)},
        {"theoretical_gbps", number_json(d.theoretical_gbps)},
        {"texture_pitch_alignment", d.texture_pitch_alignment},
    };
}

Json tiers_json(const std::vector<Tier>& tiers) {
    Json out = Json::array();
    for (Tier t : tiers) out.push_back(std::string(tier_name(t)));
    return out;
}

Json types_json(const std::vector<ElemType>& types) {
    Json out = Json::array();
    for (ElemType t : types) out.push_back(std::string(elem_type_name(t)));
    return out;
}

Json sweep_json(const std::vector<ParamAxis>& sweep) {
    Json out = Json::array();
    for (const ParamAxis& axis : sweep)
        out.push_back(Json{{"name", axis.name}, {"values", axis.values}});
    return out;
}

Json config_json(const RunConfig& c) {
    Json ops = Json::array();
    for (Op op : c.ops) ops.push_back(std::string(op_name(op)));
    Json sizes = Json::array();
    for (Shape s : c.sizes) sizes.push_back(shape_json(s));
    return Json{
        {"ops", ops},
        {"variants", c.variants},
        {"sizes", sizes},
        {"input", c.input         ? shape_json(c.input->shape())
                  : c.typed_input ? shape_json(typed::shape_of(*c.typed_input))
                                  : Json(nullptr)},
        {"conversion", std::string(conversion_name(c.conversion))},
        {"input_file", c.input_file},
        {"radius", c.params.radius},
        {"border", std::string(border_name(c.params.border))},
        {"reps", c.reps},
        {"warmups", c.warmups},
        {"seed", c.seed},
        {"device", c.device},
        {"include_cpu", c.include_cpu},
        {"tiers", tiers_json(c.tiers)},
        {"types", types_json(c.types)},
        {"channels", c.channels},
        {"sweep", sweep_json(c.sweep)},
        {"formula", kBandwidthFormula},
    };
}

Json counters_json(const Counters& c, std::size_t model_bytes) {
    return Json{
        {"kernels", c.kernels},
        {"dram_read_bytes", c.dram_read_bytes},
        {"dram_write_bytes", c.dram_write_bytes},
        {"global_load_sectors", c.global_load_sectors},
        {"global_load_requests", c.global_load_requests},
        {"global_store_sectors", c.global_store_sectors},
        {"global_store_requests", c.global_store_requests},
        {"shared_load_conflicts", c.shared_load_conflicts},
        {"shared_store_conflicts", c.shared_store_conflicts},
        {"shared_load_wavefronts", c.shared_load_wavefronts},
        {"shared_store_wavefronts", c.shared_store_wavefronts},
        {"l1_hit_rate_pct", number_json(c.l1_hit_rate_pct)},
        {"l2_hit_rate_pct", number_json(c.l2_hit_rate_pct)},
        {"occupancy_pct", number_json(c.occupancy_pct)},
        {"dram_bytes_per_model_byte", number_json(dram_model_ratio(c, model_bytes))},
        {"load_sectors_per_request", number_json(c.load_sectors_per_request())},
        {"store_sectors_per_request", number_json(c.store_sectors_per_request())},
    };
}

Json run_json(const RunResult& r) {
    return Json{
        {"op", r.op},
        {"variant", r.variant},
        {"memory_space", r.memory_space},
        {"rows", r.rows},
        {"cols", r.cols},
        {"type", r.type},
        {"channels", r.channels},
        {"median_ms", number_json(r.median_ms)},
        {"min_ms", number_json(r.min_ms)},
        {"max_ms", number_json(r.max_ms)},
        {"gbps", number_json(r.gbps)},
        {"pct_of_copy", number_json(r.pct_of_copy)},
        {"max_abs_error", number_json(r.max_abs_error)},
        {"verified", r.verified},
        {"status", std::string(status_name(r.status))},
        {"error", r.error},
        {"origin", r.origin},
        {"tier", r.tier},
        {"kernel", r.kernel},
        {"params", Json(r.params)},
        {"model_load_sectors", number_json(r.model_load_sectors)},
        {"model_store_sectors", number_json(r.model_store_sectors)},
        {"model_efficiency", number_json(r.model_efficiency)},
        {"model_bank_conflict_degree", number_json(r.model_bank_conflict_degree)},
        {"model_constant_serialization", number_json(r.model_constant_serialization)},
        {"accesses", number_json(r.accesses)},
        {"ns_per_access", number_json(r.ns_per_access)},
        {"radius", r.radius},
        {"border", r.border},
        {"reps", r.reps},
        {"bytes", r.bytes},
        {"copy_gbps", number_json(r.copy_gbps)},
        {"cache_resident", r.cache_resident},
        {"gpu", r.gpu},
        {"counters", r.counters ? counters_json(*r.counters, r.bytes) : Json(nullptr)},
        {"counters_status", r.counters_status},
    };
}

// ---------------------------------------------------------------------------------------------
// JSON reading: one object at a time, every field checked, leftovers refused.

[[noreturn]] void json_error(const std::string& what) {
    throw std::runtime_error("results JSON: " + what);
}

std::string too_long(const std::string& what, std::size_t bytes, std::size_t limit) {
    return what + " is " + std::to_string(bytes) + " bytes long; the limit is " +
           std::to_string(limit);
}

// A NUL byte ends a C string early, so whatever follows would be read by some tools and not by
// others: a text results file has none.
void refuse_nul(const std::string& text, void (*error)(const std::string&)) {
    const auto at = text.find('\0');
    if (at != std::string::npos)
        error("a NUL byte at byte " + std::to_string(at) + ": not a text file");
}

class JsonObject {
public:
    JsonObject(const InJson& j, std::string where) : j_(j), where_(std::move(where)) {
        if (!j_.is_object())
            json_error(where_.empty() ? "the top level is not an object"
                                      : "field '" + where_ + "' is not an object");
    }

    const InJson& at(const std::string& key) {
        const auto it = j_.find(key);
        if (it == j_.end()) json_error("missing field '" + path(key) + "'");
        return *it;
    }

    std::string string(const std::string& key, std::size_t limit = kMaxResultsNameBytes) {
        const InJson& v = at(key);
        if (!v.is_string()) wrong(key, "a string");
        const auto& text = v.get_ref<const std::string&>();
        if (text.size() > limit)
            json_error(too_long("field '" + path(key) + "'", text.size(), limit));
        return text;
    }
    // For fields a later version of schema 1 added: absent in older files (NaN, empty).
    double optional_number(const std::string& key) {
        if (j_.find(key) == j_.end()) return std::numeric_limits<double>::quiet_NaN();
        return number(key);
    }
    std::vector<Tier> optional_tiers(const std::string& key) {
        std::vector<Tier> tiers;
        const auto it = j_.find(key);
        if (it == j_.end()) return tiers;
        if (!it->is_array()) wrong(key, "an array of tier names");
        for (const InJson& t : *it) {
            const auto tier = t.is_string() ? parse_tier(t.get<std::string>()) : std::nullopt;
            if (!tier) wrong(key, "an array of tier names (classic, tuned, experiment)");
            tiers.push_back(*tier);
        }
        return tiers;
    }
    // Files written before element types existed ran f32 only.
    std::vector<ElemType> optional_types(const std::string& key) {
        const auto it = j_.find(key);
        if (it == j_.end()) return {ElemType::f32};
        if (!it->is_array()) wrong(key, "an array of element types");
        std::vector<ElemType> types;
        for (const InJson& t : *it) {
            const auto type = t.is_string() ? parse_elem_type(t.get<std::string>()) : std::nullopt;
            if (!type) wrong(key, "an array of element types (u8, u16, f32)");
            types.push_back(*type);
        }
        return types;
    }
    std::vector<ParamAxis> optional_sweep(const std::string& key) {
        std::vector<ParamAxis> sweep;
        const auto it = j_.find(key);
        if (it == j_.end()) return sweep;
        if (!it->is_array()) wrong(key, "an array of {name, values}");
        for (const InJson& axis : *it) {
            JsonObject a(axis, path(key));
            ParamAxis parsed{a.string("name"), {}};
            for (const InJson& v : a.array("values", 4096)) {
                if (!v.is_number_integer()) wrong(key, "whole-number values");
                parsed.values.push_back(v.get<long long>());
            }
            sweep.push_back(std::move(parsed));
        }
        return sweep;
    }
    ParamValues optional_params(const std::string& key) {
        ParamValues values;
        const auto it = j_.find(key);
        if (it == j_.end()) return values;
        if (!it->is_object()) wrong(key, "an object of whole numbers");
        for (const auto& [name, v] : it->items()) {
            if (!v.is_number_integer()) wrong(key + "." + name, "a whole number");
            values[name] = v.get<long long>();
        }
        return values;
    }
    // For fields a later version of schema 1 added: absent in older files.
    std::string optional_string(const std::string& key, const std::string& absent,
                                std::size_t limit = kMaxResultsNameBytes) {
        if (j_.find(key) == j_.end()) return absent;
        return string(key, limit);
    }
    // A channel count (1, 3 or 4); 1 where absent (files written before colour runs).
    int optional_channels(const std::string& key) {
        if (j_.find(key) == j_.end()) return 1;
        const int n = integer(key);
        if (n != 1 && n != 3 && n != 4) wrong(key, "a channel count (1, 3 or 4)");
        return n;
    }
    bool boolean(const std::string& key) {
        const InJson& v = at(key);
        if (!v.is_boolean()) wrong(key, "true or false");
        return v.get<bool>();
    }
    std::size_t size(const std::string& key) { return unsigned_integer<std::size_t>(key); }
    std::uint64_t u64(const std::string& key) { return unsigned_integer<std::uint64_t>(key); }
    int integer(const std::string& key) {
        const InJson& v = at(key);
        if (v.is_number_unsigned()) {
            if (v.get<std::uint64_t>() >
                static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
                wrong(key, "an integer in int range");
            return static_cast<int>(v.get<std::uint64_t>());
        }
        if (!v.is_number_integer()) wrong(key, "an integer");
        const std::int64_t x = v.get<std::int64_t>();
        if (x < std::numeric_limits<int>::min() || x > std::numeric_limits<int>::max())
            wrong(key, "an integer in int range");
        return static_cast<int>(x);
    }
    double number(const std::string& key) {
        const InJson& v = at(key);
        if (v.is_number()) return v.get<double>();
        if (v.is_string()) {
            const std::string s = v.get<std::string>();
            if (s == "nan" || s == "inf" || s == "-inf") return *parse_double(s);
        }
        wrong(key, "a number (or \"nan\", \"inf\", \"-inf\")");
    }
    const InJson& array(const std::string& key, std::size_t limit) {
        const InJson& v = at(key);
        if (!v.is_array()) wrong(key, "an array");
        if (v.size() > limit)
            json_error("field '" + path(key) + "' has " + std::to_string(v.size()) +
                       " items; the limit is " + std::to_string(limit));
        return v;
    }

    std::string path(const std::string& key) const {
        return where_.empty() ? key : where_ + "." + key;
    }

    [[noreturn]] void wrong(const std::string& key, const std::string& expected) const {
        json_error("field '" + path(key) + "' must be " + expected);
    }

private:
    template <class U>
    U unsigned_integer(const std::string& key) {
        const InJson& v = at(key);
        if (!v.is_number_unsigned()) wrong(key, "a non-negative integer");
        const std::uint64_t x = v.get<std::uint64_t>();
        if (x > std::numeric_limits<U>::max()) wrong(key, "a smaller non-negative integer");
        return static_cast<U>(x);
    }

    const InJson& j_;
    std::string where_;
};

Counters read_counters(const InJson& j, const std::string& where) {
    JsonObject o(j, where);
    Counters c;
    c.kernels = o.u64("kernels");
    c.dram_read_bytes = o.u64("dram_read_bytes");
    c.dram_write_bytes = o.u64("dram_write_bytes");
    c.global_load_sectors = o.u64("global_load_sectors");
    c.global_load_requests = o.u64("global_load_requests");
    c.global_store_sectors = o.u64("global_store_sectors");
    c.global_store_requests = o.u64("global_store_requests");
    c.shared_load_conflicts = o.u64("shared_load_conflicts");
    c.shared_store_conflicts = o.u64("shared_store_conflicts");
    c.shared_load_wavefronts = o.u64("shared_load_wavefronts");
    c.shared_store_wavefronts = o.u64("shared_store_wavefronts");
    c.l1_hit_rate_pct = o.number("l1_hit_rate_pct");
    c.l2_hit_rate_pct = o.number("l2_hit_rate_pct");
    c.occupancy_pct = o.number("occupancy_pct");
    return c;
}

Shape read_shape(const InJson& j, const std::string& where) {
    JsonObject o(j, where);
    Shape s{o.size("rows"), o.size("cols")};
    return s;
}

DeviceInfo read_device(const InJson& j) {
    JsonObject o(j, "device");
    DeviceInfo d;
    d.index = o.integer("index");
    d.name = o.string("name");
    d.gpu = o.boolean("gpu");
    d.sm_count = o.integer("sm_count");
    d.cc_major = o.integer("cc_major");
    d.cc_minor = o.integer("cc_minor");
    d.l2_bytes = o.size("l2_bytes");
    d.memory_bytes = o.size("memory_bytes");
    d.memory_bus_bits = o.integer("memory_bus_bits");
    d.memory_clock_khz = o.number("memory_clock_khz");
    d.theoretical_gbps = o.number("theoretical_gbps");
    d.texture_pitch_alignment = o.size("texture_pitch_alignment");
    return d;
}

RunConfig read_config(const InJson& j) {
    JsonObject o(j, "config");
    RunConfig c;
    const InJson& ops = o.array("ops", kMaxResultsListItems);
    for (std::size_t i = 0; i < ops.size(); ++i) {
        const std::string where = "config.ops[" + std::to_string(i) + "]";
        if (!ops[i].is_string()) json_error("field '" + where + "' must be a string");
        const auto& name = ops[i].get_ref<const std::string&>();
        const auto op = parse_op(name);
        if (!op) json_error("field '" + where + "': unknown operation " + quote_text(name));
        if (std::find(c.ops.begin(), c.ops.end(), *op) != c.ops.end())
            json_error("field '" + where + "': operation " + quote_text(name) + " appears twice");
        c.ops.push_back(*op);
    }
    const InJson& variants = o.array("variants", kMaxResultsListItems);
    for (std::size_t i = 0; i < variants.size(); ++i) {
        const std::string where = "config.variants[" + std::to_string(i) + "]";
        if (!variants[i].is_string()) json_error("field '" + where + "' must be a string");
        const auto& id = variants[i].get_ref<const std::string&>();
        if (id.size() > kMaxResultsNameBytes)
            json_error(too_long("field '" + where + "'", id.size(), kMaxResultsNameBytes));
        c.variants.push_back(id);
    }
    const InJson& sizes = o.array("sizes", kMaxResultsListItems);
    for (std::size_t i = 0; i < sizes.size(); ++i)
        c.sizes.push_back(read_shape(sizes[i], "config.sizes[" + std::to_string(i) + "]"));
    if (const InJson& input = o.at("input"); !input.is_null())
        read_shape(input, "config.input");  // shape only: checked, not kept
    c.params.radius = o.integer("radius");
    const std::string border = o.string("border");
    const auto b = parse_border(border);
    if (!b) json_error("field 'config.border': unknown border mode " + quote_text(border));
    c.params.border = *b;
    c.reps = o.integer("reps");
    c.warmups = o.integer("warmups");
    c.seed = o.u64("seed");
    c.input_file = o.optional_string("input_file", "", kMaxResultsPathBytes);
    c.device = o.integer("device");
    c.include_cpu = o.boolean("include_cpu");
    c.tiers = o.optional_tiers("tiers");
    c.types = o.optional_types("types");
    c.channels = o.optional_channels("channels");
    const std::string conversion = o.optional_string("conversion", "none", kMaxResultsNameBytes);
    const auto parsed_conversion = parse_conversion(conversion);
    if (!parsed_conversion)
        json_error("field 'config.conversion': unknown conversion " + quote_text(conversion) +
                   " (none, values, scale)");
    c.conversion = *parsed_conversion;
    c.sweep = o.optional_sweep("sweep");
    o.string("formula");  // recorded for readers; the value is the writer's, not ours to check
    return c;
}

RunResult read_run(const InJson& j, const std::string& where) {
    JsonObject o(j, where);
    RunResult r;
    r.op = o.string("op");
    r.variant = o.string("variant");
    r.memory_space = o.string("memory_space");
    r.rows = o.size("rows");
    r.cols = o.size("cols");
    r.type = o.optional_string("type", "f32");  // files written before element types existed
    if (!parse_elem_type(r.type))
        json_error("field '" + o.path("type") + "': unknown element type " + quote_text(r.type) +
                   " (u8, u16, f32)");
    r.channels = o.optional_channels("channels");
    r.median_ms = o.number("median_ms");
    r.min_ms = o.number("min_ms");
    r.max_ms = o.number("max_ms");
    r.gbps = o.number("gbps");
    r.pct_of_copy = o.number("pct_of_copy");
    r.max_abs_error = o.number("max_abs_error");
    r.verified = o.boolean("verified");
    const std::string status = o.string("status");
    const auto s = parse_status(status);
    if (!s) json_error("field '" + o.path("status") + "': unknown status " + quote_text(status));
    r.status = *s;
    r.error = o.string("error", kMaxResultsErrorBytes);
    r.origin = o.string("origin");
    r.tier = o.optional_string("tier", "classic");  // files written before tiers existed
    r.kernel = o.optional_string("kernel", "");
    r.params = o.optional_params("params");
    r.model_load_sectors = o.optional_number("model_load_sectors");
    r.model_store_sectors = o.optional_number("model_store_sectors");
    r.model_efficiency = o.optional_number("model_efficiency");
    r.model_bank_conflict_degree = o.optional_number("model_bank_conflict_degree");
    r.model_constant_serialization = o.optional_number("model_constant_serialization");
    r.accesses = o.optional_number("accesses");
    if (std::isnan(r.accesses)) r.accesses = 0;  // files written before accesses were counted
    r.ns_per_access = o.optional_number("ns_per_access");
    r.radius = o.integer("radius");
    r.border = o.string("border");
    r.reps = o.integer("reps");
    r.bytes = o.size("bytes");
    r.copy_gbps = o.number("copy_gbps");
    r.cache_resident = o.boolean("cache_resident");
    r.gpu = o.boolean("gpu");
    // Files written before the counters pass existed have neither field.
    if (const auto it = j.find("counters"); it != j.end() && !it->is_null())
        r.counters = read_counters(*it, o.path("counters"));
    r.counters_status = o.optional_string("counters_status", "");
    return r;
}

// nlohmann's messages start with "[json.exception.parse_error.101] "; the reader needs the rest,
// and at most a short piece of the token it quotes ("last read: '<the whole 1 MB string>'").
std::string without_exception_tag(const std::string& what) {
    std::string_view text = what;
    if (!text.empty() && text.front() == '[') {
        const auto end = text.find("] ");
        if (end != std::string::npos) text.remove_prefix(end + 2);
    }
    return shortened(text, kQuoteLimit + 100);
}

// Parses with the limits that bound the tree checked as the parser goes, so a hostile file is
// refused before its tree is built: nesting and the number of values (the strings' total is
// bounded by the text's size).
InJson parse_bounded(const std::string& text) {
    refuse_nul(text, json_error);
    std::size_t values = 0;
    const auto check = [&](int depth, InJson::parse_event_t event, InJson&) {
        using Event = InJson::parse_event_t;
        if ((event == Event::object_start || event == Event::array_start) && depth >= kMaxJsonDepth)
            json_error("nested deeper than " + std::to_string(kMaxJsonDepth) +
                       " levels (a results file nests 4)");
        if (event == Event::key || event == Event::value) {
            if (++values > kMaxJsonValues)
                json_error("more than " + std::to_string(kMaxJsonValues) + " values (" +
                           std::to_string(kMaxResultsRuns) + " runs hold fewer)");
        }
        return true;
    };
    try {
        return InJson::parse(text, check);
    } catch (const InJson::exception& e) {  // syntax, and numbers out of range ("1e400")
        json_error(without_exception_tag(e.what()));
    }
}

// ---------------------------------------------------------------------------------------------
// CSV: RFC 4180 (fields with a comma, quote, CR or LF are quoted, quotes doubled), one header row.
// The record-level facts (device, start time, warm-ups, seed) repeat on every row so that a single
// CSV describes itself; the device's hardware details live only in the JSON.

const std::vector<std::string>& csv_columns() {
    static const std::vector<std::string> columns = {
        "op",          "variant",       "memory_space",
        "rows",        "cols",          "median_ms",
        "min_ms",      "max_ms",        "gbps",
        "pct_of_copy", "max_abs_error", "verified",
        "status",      "error",         "origin",
        "radius",      "border",        "reps",
        "bytes",       "copy_gbps",     "cache_resident",
        "gpu",         "device",        "device_index",
        "device_gpu",  "started_at",    "warmups",
        "seed"};
    return columns;
}

// Columns a later writer of schema 1 added: written always, optional when reading older files.
const std::vector<std::string>& csv_optional_columns() {
    static const std::vector<std::string> columns = {"tier",
                                                     "kernel",
                                                     "params",
                                                     "model_load_sectors",
                                                     "model_store_sectors",
                                                     "model_efficiency",
                                                     "model_bank_conflict_degree",
                                                     "model_constant_serialization",
                                                     "accesses",
                                                     "ns_per_access",
                                                     "counters_status",
                                                     "profiled_kernels",
                                                     "dram_read_bytes",
                                                     "dram_write_bytes",
                                                     "global_load_sectors",
                                                     "global_load_requests",
                                                     "global_store_sectors",
                                                     "global_store_requests",
                                                     "shared_load_conflicts",
                                                     "shared_store_conflicts",
                                                     "shared_load_wavefronts",
                                                     "shared_store_wavefronts",
                                                     "l1_hit_rate_pct",
                                                     "l2_hit_rate_pct",
                                                     "occupancy_pct",
                                                     "dram_bytes_per_model_byte",
                                                     "load_sectors_per_request",
                                                     "store_sectors_per_request",
                                                     "type",
                                                     "channels"};
    return columns;
}

// The counters columns after counters_status, in csv_optional_columns' order; empty cells
// for a run without counters.
std::vector<std::string> counters_cells(const RunResult& r) {
    if (!r.counters) return std::vector<std::string>(17);
    const Counters& c = *r.counters;
    return {std::to_string(c.kernels),
            std::to_string(c.dram_read_bytes),
            std::to_string(c.dram_write_bytes),
            std::to_string(c.global_load_sectors),
            std::to_string(c.global_load_requests),
            std::to_string(c.global_store_sectors),
            std::to_string(c.global_store_requests),
            std::to_string(c.shared_load_conflicts),
            std::to_string(c.shared_store_conflicts),
            std::to_string(c.shared_load_wavefronts),
            std::to_string(c.shared_store_wavefronts),
            double_text(c.l1_hit_rate_pct),
            double_text(c.l2_hit_rate_pct),
            double_text(c.occupancy_pct),
            double_text(dram_model_ratio(c, r.bytes)),
            double_text(c.load_sectors_per_request()),
            double_text(c.store_sectors_per_request())};
}

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char ch : s) {
        if (ch == '"') out += '"';
        out += ch;
    }
    return out + '"';
}

const char* bool_text(bool b) { return b ? "true" : "false"; }

[[noreturn]] void csv_error(const std::string& what) {
    throw std::runtime_error("results CSV: " + what);
}

// "offset=3;stride=2": a run's named parameters in one CSV cell.
std::string params_text(const ParamValues& params) {
    std::string out;
    for (const auto& [name, value] : params)
        out += (out.empty() ? "" : ";") + name + "=" + std::to_string(value);
    return out;
}

ParamValues parse_params_text(const std::string& text, std::size_t line) {
    ParamValues values;
    std::size_t begin = 0;
    while (begin < text.size()) {
        const std::size_t end = std::min(text.find(';', begin), text.size());
        const std::string item = text.substr(begin, end - begin);
        const std::size_t eq = item.find('=');
        const auto value =
            eq == std::string::npos ? std::nullopt : parse_integer<long long>(item.substr(eq + 1));
        if (eq == 0 || !value)
            csv_error("line " + std::to_string(line) + ", column 'params': '" + item.substr(0, 80) +
                      "' is not NAME=VALUE");
        values[item.substr(0, eq)] = *value;
        begin = end + 1;
    }
    return values;
}

struct CsvRow {
    std::size_t line = 0;  // where the row starts, 1-based
    std::vector<std::string> fields;
};

// Splits the text one record at a time, so memory holds one row of fields, never the whole table
// as strings; a row with more fields than any results file has is refused while it is split.
class CsvRows {
public:
    explicit CsvRows(const std::string& text) : text_(text) { refuse_nul(text, csv_error); }

    // The next record with any content (blank lines are passed over); false at the end.
    bool next(CsvRow& row) {
        while (i_ < text_.size()) {
            row = CsvRow{line_, {}};
            bool has_content = false;  // a quoted field or a comma, even if every field is empty
            std::string field;
            const auto end_field = [&] {
                if (row.fields.size() >= kMaxCsvFields)
                    csv_error("line " + std::to_string(row.line) + " has more than " +
                              std::to_string(kMaxCsvFields) + " fields");
                row.fields.push_back(std::move(field));
                field.clear();
            };
            bool end_of_record = false;
            while (i_ < text_.size() && !end_of_record) {
                const char ch = text_[i_];
                if (ch == '"') {
                    if (!field.empty())
                        csv_error("line " + std::to_string(line_) +
                                  ": a quote inside an unquoted field");
                    has_content = true;
                    read_quoted(field);
                } else if (ch == ',') {
                    end_field();
                    has_content = true;
                    ++i_;
                } else if (ch == '\r' || ch == '\n') {
                    i_ += (ch == '\r' && i_ + 1 < text_.size() && text_[i_ + 1] == '\n') ? 2 : 1;
                    ++line_;
                    end_of_record = true;
                } else {
                    field += ch;
                    ++i_;
                }
            }
            end_field();
            if (has_content || row.fields.size() > 1 || !row.fields.front().empty()) return true;
        }
        return false;
    }

private:
    void read_quoted(std::string& field) {
        const std::size_t start_line = line_;
        ++i_;
        for (;;) {
            if (i_ >= text_.size())
                csv_error("line " + std::to_string(start_line) + ": quoted field never closed");
            if (text_[i_] == '"') {
                if (i_ + 1 < text_.size() && text_[i_ + 1] == '"') {
                    field += '"';
                    i_ += 2;
                    continue;
                }
                ++i_;
                break;
            }
            if (text_[i_] == '\n') ++line_;
            field += text_[i_++];
        }
        if (i_ < text_.size() && text_[i_] != ',' && text_[i_] != '\n' && text_[i_] != '\r')
            csv_error("line " + std::to_string(line_) + ": text after a closing quote");
    }

    const std::string& text_;
    std::size_t i_ = 0;
    std::size_t line_ = 1;
};

// The cells of one data row, looked up by column name, each converted with a message that names
// the line and the column.
class CsvCells {
public:
    CsvCells(const CsvRow& row, const std::map<std::string, std::size_t>& index)
        : row_(row), index_(index) {}

    const std::string& text(const std::string& column) const {
        return row_.fields[index_.at(column)];
    }
    double number_or_nan(const std::string& column) const {
        if (index_.find(column) == index_.end()) return std::numeric_limits<double>::quiet_NaN();
        return number(column);
    }
    bool has(const std::string& column) const { return index_.count(column) > 0; }
    // A name or label: at most kMaxResultsNameBytes.
    const std::string& name(const std::string& column) const {
        const std::string& t = text(column);
        if (t.size() > kMaxResultsNameBytes)
            csv_error("line " + std::to_string(row_.line) + ", " +
                      too_long("column '" + column + "'", t.size(), kMaxResultsNameBytes));
        return t;
    }
    std::string text_or(const std::string& column, const std::string& absent) const {
        const auto it = index_.find(column);
        return it == index_.end() ? absent : row_.fields[it->second];
    }
    double number(const std::string& column) const {
        const auto v = parse_double(text(column));
        if (!v) bad(column, "a number");
        return *v;
    }
    std::size_t size(const std::string& column) const {
        return checked(parse_integer<std::size_t>(text(column)), column, "a non-negative integer");
    }
    std::uint64_t u64(const std::string& column) const {
        return checked(parse_integer<std::uint64_t>(text(column)), column,
                       "a non-negative integer");
    }
    int integer(const std::string& column) const {
        return checked(parse_integer<int>(text(column)), column, "an integer");
    }
    bool boolean(const std::string& column) const {
        return checked(parse_bool(text(column)), column, "true or false");
    }

    [[noreturn]] void bad(const std::string& column, const std::string& expected) const {
        csv_error("line " + std::to_string(row_.line) + ", column '" + column +
                  "': " + quote_text(text(column)) + " is not " + expected);
    }

private:
    template <class T>
    T checked(const std::optional<T>& v, const std::string& column,
              const std::string& expected) const {
        if (!v) bad(column, expected);
        return *v;
    }

    const CsvRow& row_;
    const std::map<std::string, std::size_t>& index_;
};

Counters read_csv_counters(const CsvCells& cell) {
    const auto count = [&](const std::string& column) {
        if (!cell.has(column)) csv_error("missing column '" + column + "' beside profiled_kernels");
        return cell.u64(column);
    };
    const auto rate = [&](const std::string& column) {
        if (!cell.has(column)) csv_error("missing column '" + column + "' beside profiled_kernels");
        return cell.number(column);
    };
    Counters c;
    c.kernels = count("profiled_kernels");
    c.dram_read_bytes = count("dram_read_bytes");
    c.dram_write_bytes = count("dram_write_bytes");
    c.global_load_sectors = count("global_load_sectors");
    c.global_load_requests = count("global_load_requests");
    c.global_store_sectors = count("global_store_sectors");
    c.global_store_requests = count("global_store_requests");
    c.shared_load_conflicts = count("shared_load_conflicts");
    c.shared_store_conflicts = count("shared_store_conflicts");
    c.shared_load_wavefronts = count("shared_load_wavefronts");
    c.shared_store_wavefronts = count("shared_store_wavefronts");
    c.l1_hit_rate_pct = rate("l1_hit_rate_pct");
    c.l2_hit_rate_pct = rate("l2_hit_rate_pct");
    c.occupancy_pct = rate("occupancy_pct");
    return c;
}

// Keeps the order of first appearance with a constant-time membership test: a file of 5,000
// variants must not cost 5,000 x 5,000 comparisons.
struct ShapeHash {
    std::size_t operator()(Shape s) const {
        return std::hash<std::size_t>{}(s.rows * 1000003u ^ s.cols);
    }
};
struct OpHash {
    std::size_t operator()(Op op) const { return std::hash<std::string_view>{}(op_name(op)); }
};
template <class T, class Hash = std::hash<T>>
class UniqueList {
public:
    explicit UniqueList(std::vector<T>& list) : list_(list) {}
    void add(const T& value) {
        if (seen_.insert(value).second) list_.push_back(value);
    }
    std::size_t size() const { return list_.size(); }

private:
    std::vector<T>& list_;
    std::unordered_set<T, Hash> seen_;
};

std::string lowercase(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

std::string lowercase_extension(const fs::path& path) {
    return lowercase(path.extension().string());
}

// ---------------------------------------------------------------------------------------------
// Files

std::string file_kind(mode_t mode) {
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISFIFO(mode)) return "a named pipe";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "a special file";
}

// 0, or the errno of the write that failed.
int write_all(int fd, const std::string& contents) {
    std::size_t written = 0;
    while (written < contents.size()) {
        const ssize_t n = ::write(fd, contents.data() + written, contents.size() - written);
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        written += static_cast<std::size_t>(n);
    }
    return 0;
}

// "<name>.tmp-<pid>" left in `folder` by a save that was killed: removed when it belongs to a
// results file (or to `target_name`), its process is gone and it has not changed for a minute
// (a process of another PID namespace sharing the folder may still be writing it).
void remove_stale_temporaries(const fs::path& folder, const std::string& target_name) {
    std::error_code ec;
    const auto now = fs::file_time_type::clock::now();
    for (auto it = fs::directory_iterator(folder, ec); !ec && it != fs::directory_iterator();
         it.increment(ec)) {
        const std::string name = it->path().filename().string();
        const auto at = name.rfind(".tmp-");
        if (at == std::string::npos || at == 0) continue;
        const auto pid = parse_integer<pid_t>(std::string_view(name).substr(at + 5));
        if (!pid || *pid <= 0 || *pid == ::getpid()) continue;
        const std::string owner = lowercase(name.substr(0, at));
        const bool results = owner.ends_with(".json") || owner.ends_with(".csv");
        if (!results && name.substr(0, at) != target_name) continue;
        std::error_code file_ec;
        if (!it->is_regular_file(file_ec) || it->is_symlink(file_ec)) continue;
        if (::kill(*pid, 0) == 0 || errno != ESRCH) continue;
        const auto changed = it->last_write_time(file_ec);
        if (file_ec || now - changed < std::chrono::minutes(1)) continue;
        fs::remove(it->path(), file_ec);
    }
}

}  // namespace

// -------------------------------------------------------------------------------------------------

std::string to_json(const RunRecord& record) {
    Json runs = Json::array();
    for (const RunResult& r : record.runs) runs.push_back(run_json(r));
    const Json j{
        {"schema", kResultsSchema},
        {"started_at", record.started_at},
        {"cancelled", record.cancelled},
        {"device", device_json(record.device)},
        {"config", config_json(record.config)},
        {"runs", runs},
    };
    // Text from outside (a file name that is not UTF-8, say) must not cost the finished run its
    // results file: bytes that are not UTF-8 are written as U+FFFD.
    return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

RunRecord from_json(const std::string& text) {
    const InJson j = parse_bounded(text);
    if (!j.is_object())
        throw std::runtime_error("not a coalesce results file (the JSON is not an object)");
    const auto schema = j.find("schema");
    if (schema == j.end())
        throw std::runtime_error("not a coalesce results file (no 'schema' field)");
    if (!schema->is_string())
        throw std::runtime_error("not a coalesce results file ('schema' is not a string)");
    const std::string& name = schema->get_ref<const std::string&>();
    if (name != kResultsSchema) {
        if (name.rfind("coalesce-results/", 0) == 0)
            throw std::runtime_error("unsupported results schema " + quote_text(name) +
                                     " (this build reads '" + kResultsSchema + "')");
        throw std::runtime_error("not a coalesce results file (schema " + quote_text(name) + ")");
    }

    JsonObject top(j, "");
    top.at("schema");
    RunRecord record;
    record.started_at = top.string("started_at");
    record.cancelled = top.boolean("cancelled");
    record.device = read_device(top.at("device"));
    record.config = read_config(top.at("config"));
    const InJson& runs = top.array("runs", kMaxResultsRuns);
    record.runs.reserve(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i)
        record.runs.push_back(read_run(runs[i], "runs[" + std::to_string(i) + "]"));
    return record;
}

std::string to_csv(const RunRecord& record) {
    std::string out;
    std::vector<std::string> columns = csv_columns();
    columns.insert(columns.end(), csv_optional_columns().begin(), csv_optional_columns().end());
    for (std::size_t i = 0; i < columns.size(); ++i) out += (i ? "," : "") + columns[i];
    out += '\n';
    for (const RunResult& r : record.runs) {
        std::vector<std::string> cells = {r.op,
                                          r.variant,
                                          r.memory_space,
                                          std::to_string(r.rows),
                                          std::to_string(r.cols),
                                          double_text(r.median_ms),
                                          double_text(r.min_ms),
                                          double_text(r.max_ms),
                                          double_text(r.gbps),
                                          double_text(r.pct_of_copy),
                                          double_text(r.max_abs_error),
                                          bool_text(r.verified),
                                          std::string(status_name(r.status)),
                                          r.error,
                                          r.origin,
                                          std::to_string(r.radius),
                                          r.border,
                                          std::to_string(r.reps),
                                          std::to_string(r.bytes),
                                          double_text(r.copy_gbps),
                                          bool_text(r.cache_resident),
                                          bool_text(r.gpu),
                                          record.device.name,
                                          std::to_string(record.device.index),
                                          bool_text(record.device.gpu),
                                          record.started_at,
                                          std::to_string(record.config.warmups),
                                          std::to_string(record.config.seed),
                                          r.tier,
                                          r.kernel,
                                          params_text(r.params),
                                          double_text(r.model_load_sectors),
                                          double_text(r.model_store_sectors),
                                          double_text(r.model_efficiency),
                                          double_text(r.model_bank_conflict_degree),
                                          double_text(r.model_constant_serialization),
                                          double_text(r.accesses),
                                          double_text(r.ns_per_access),
                                          r.counters_status};
        const std::vector<std::string> counters = counters_cells(r);
        cells.insert(cells.end(), counters.begin(), counters.end());
        cells.push_back(r.type);
        cells.push_back(std::to_string(r.channels));
        for (std::size_t i = 0; i < cells.size(); ++i) out += (i ? "," : "") + csv_field(cells[i]);
        out += '\n';
    }
    return out;
}

RunRecord from_csv(const std::string& text) {
    CsvRows rows(text);
    CsvRow header;
    if (!rows.next(header)) csv_error("empty file (no header row)");

    std::map<std::string, std::size_t> index;
    const auto& known = csv_columns();
    const auto& optional = csv_optional_columns();
    for (std::size_t i = 0; i < header.fields.size(); ++i) {
        const std::string& name = header.fields[i];
        if (std::find(known.begin(), known.end(), name) == known.end() &&
            std::find(optional.begin(), optional.end(), name) == optional.end()) {
            if (i == 0)
                throw std::runtime_error("not a coalesce results file (CSV header starts with " +
                                         quote_text(name) + ")");
            continue;  // a column added by a later writer of the same schema
        }
        if (!index.emplace(name, i).second)
            csv_error("column " + quote_text(name) + " appears twice");
    }
    for (const std::string& name : known)
        if (!index.count(name)) csv_error("missing column '" + name + "'");

    RunRecord record;
    UniqueList<Op, OpHash> ops(record.config.ops);
    UniqueList<std::string> variants(record.config.variants);
    UniqueList<Shape, ShapeHash> sizes(record.config.sizes);
    std::vector<ElemType> types;
    CsvRow row;
    for (std::size_t n = 1; rows.next(row); ++n) {
        if (n > kMaxResultsRuns)
            csv_error("more than " + std::to_string(kMaxResultsRuns) + " runs (the limit)");
        if (row.fields.size() != header.fields.size())
            csv_error("line " + std::to_string(row.line) + " has " +
                      std::to_string(row.fields.size()) + " fields, expected " +
                      std::to_string(header.fields.size()));
        const CsvCells cell(row, index);

        // One file holds one run of the bench: the record-level columns must agree on every row.
        DeviceInfo device;
        device.name = cell.name("device");
        device.index = cell.integer("device_index");
        device.gpu = cell.boolean("device_gpu");
        const std::string& started_at = cell.name("started_at");
        const int warmups = cell.integer("warmups");
        const std::uint64_t seed = cell.u64("seed");
        if (n == 1) {
            record.device = device;
            record.started_at = started_at;
            record.config.warmups = warmups;
            record.config.seed = seed;
            record.config.device = device.index >= 0 ? device.index : 0;
        } else if (device.name != record.device.name || device.index != record.device.index ||
                   device.gpu != record.device.gpu || started_at != record.started_at ||
                   warmups != record.config.warmups || seed != record.config.seed) {
            csv_error("line " + std::to_string(row.line) +
                      " comes from another run (device, started_at, warmups or seed differ from "
                      "the first row)");
        }

        RunResult r;
        r.op = cell.name("op");
        r.variant = cell.name("variant");
        r.memory_space = cell.name("memory_space");
        r.rows = cell.size("rows");
        r.cols = cell.size("cols");
        r.median_ms = cell.number("median_ms");
        r.min_ms = cell.number("min_ms");
        r.max_ms = cell.number("max_ms");
        r.gbps = cell.number("gbps");
        r.pct_of_copy = cell.number("pct_of_copy");
        r.max_abs_error = cell.number("max_abs_error");
        r.verified = cell.boolean("verified");
        const auto status = parse_status(cell.text("status"));
        if (!status) cell.bad("status", "a status (ok, failed, skipped, cancelled)");
        r.status = *status;
        r.error = cell.text("error");
        r.origin = cell.name("origin");
        r.tier = cell.text_or("tier", "classic");
        r.kernel = cell.text_or("kernel", "");
        r.type = cell.text_or("type", "f32");  // files written before element types existed
        if (!parse_elem_type(r.type)) cell.bad("type", "an element type (u8, u16, f32)");
        // Files written before colour runs have no channels column: one channel.
        const std::string channels = cell.text_or("channels", "1");
        if (channels != "1" && channels != "3" && channels != "4")
            cell.bad("channels", "a channel count (1, 3 or 4)");
        r.channels = channels[0] - '0';
        if (r.channels != 1) record.config.channels = r.channels;
        r.params = parse_params_text(cell.text_or("params", ""), row.line);
        r.model_load_sectors = cell.number_or_nan("model_load_sectors");
        r.model_store_sectors = cell.number_or_nan("model_store_sectors");
        r.model_efficiency = cell.number_or_nan("model_efficiency");
        r.model_bank_conflict_degree = cell.number_or_nan("model_bank_conflict_degree");
        r.model_constant_serialization = cell.number_or_nan("model_constant_serialization");
        r.accesses = cell.number_or_nan("accesses");
        if (std::isnan(r.accesses)) r.accesses = 0;  // files written before accesses were counted
        r.ns_per_access = cell.number_or_nan("ns_per_access");
        for (const auto& [column, value] :
             {std::pair{"tier", &r.tier}, std::pair{"kernel", &r.kernel}})
            if (value->size() > kMaxResultsNameBytes)
                csv_error("line " + std::to_string(row.line) + ", " +
                          too_long("column '" + std::string(column) + "'", value->size(),
                                   kMaxResultsNameBytes));
        r.radius = cell.integer("radius");
        r.border = cell.name("border");
        r.reps = cell.integer("reps");
        r.bytes = cell.size("bytes");
        r.copy_gbps = cell.number("copy_gbps");
        r.cache_resident = cell.boolean("cache_resident");
        r.gpu = cell.boolean("gpu");
        r.counters_status = cell.text_or("counters_status", "");
        if (!cell.text_or("profiled_kernels", "").empty()) r.counters = read_csv_counters(cell);

        // The configuration is rebuilt from what the rows show: operations, variants and sizes in
        // order of first appearance; radius and border from the first row.
        const auto op = parse_op(r.op);
        if (!op) cell.bad("op", "a known operation");
        ops.add(*op);
        variants.add(r.variant);
        sizes.add(Shape{r.rows, r.cols});
        if (const ElemType t = *parse_elem_type(r.type);
            std::find(types.begin(), types.end(), t) == types.end())
            types.push_back(t);
        if (n == 1) {
            const auto border = parse_border(r.border);
            if (!border) cell.bad("border", "a border mode (clamp, zero, wrap, mirror)");
            record.config.params = OpParams{r.radius, *border};
            record.config.reps = r.reps;
        }
        record.cancelled = record.cancelled || r.status == Status::cancelled;
        record.runs.push_back(std::move(r));
    }
    if (!types.empty()) record.config.types = types;
    return record;
}

fs::path write_target(const fs::path& path) {
    fs::path p = path;
    for (int hops = 0; hops < 40; ++hops) {  // the kernel's own limit on a chain of links
        struct stat st {};
        if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
        std::error_code ec;
        const fs::path next = fs::read_symlink(p, ec);
        if (ec) return p;
        p = next.is_absolute() ? next : p.parent_path() / next;
    }
    throw std::runtime_error("cannot write " + path_text(path) +
                             ": too many levels of symbolic links");
}

void write_file_atomically(const fs::path& path, const std::string& contents) {
    const fs::path target = write_target(path);
    const std::string where = "cannot write " + path_text(path) + ": ";
    const auto fail = [&](int err) { throw std::runtime_error(where + errno_text(err)); };

    struct stat st {};
    const bool exists = ::stat(target.c_str(), &st) == 0;
    if (exists && !S_ISREG(st.st_mode)) {
        if (!S_ISCHR(st.st_mode))
            throw std::runtime_error(where + "it is " + file_kind(st.st_mode) +
                                     ", not a regular file");
        // A device (/dev/null, a terminal) is written to; renaming over it would replace it.
        const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0) fail(errno);
        const int err = write_all(fd, contents);
        if (::close(fd) != 0 && err == 0) fail(errno);
        if (err != 0) fail(err);
        return;
    }

    const fs::path folder = target.parent_path().empty() ? fs::path(".") : target.parent_path();
    remove_stale_temporaries(folder, target.filename().string());
    const fs::path tmp =
        folder / (target.filename().string() + ".tmp-" + std::to_string(::getpid()));

    // The contents go to a file with no name until they are complete, so a process killed while
    // writing leaves nothing behind; only then is it named and renamed over the target.
    // Filesystems without O_TMPFILE get a named temporary instead.
    int fd = ::open(folder.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    bool named = false;
    if (fd < 0) {
        fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
        if (fd < 0) fail(errno);
        named = true;
    }
    const auto give_up = [&](int err) {
        ::close(fd);
        if (named) ::unlink(tmp.c_str());
        fail(err);
    };
    if (exists)
        ::fchmod(fd, st.st_mode & 07777);  // the replaced file's permissions, as an edit keeps them
    if (const int err = write_all(fd, contents); err != 0) give_up(err);
    if (!named) {
        ::unlink(tmp.c_str());
        const std::string self = "/proc/self/fd/" + std::to_string(fd);
        if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, tmp.c_str(), AT_SYMLINK_FOLLOW) != 0)
            give_up(errno);
        named = true;
    }
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        fail(err);
    }
    if (::rename(tmp.c_str(), target.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        fail(err);
    }
}

std::string read_text_file(const fs::path& path, std::size_t max_bytes) {
    const std::string where = "cannot read " + path_text(path) + ": ";
    // Non-blocking: opening a named pipe must not wait for a writer.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) throw std::runtime_error(where + errno_text(errno));
    const auto give_up = [&](const std::string& why) {
        ::close(fd);
        throw std::runtime_error(where + why);
    };
    struct stat st {};
    if (::fstat(fd, &st) != 0) give_up(errno_text(errno));
    if (!S_ISREG(st.st_mode)) give_up("not a regular file (" + file_kind(st.st_mode) + ")");
    const auto too_large = [&](std::size_t bytes) {
        give_up(std::to_string(bytes) + " bytes is larger than the limit of " +
                std::to_string(max_bytes >> 20) + " MiB");
    };
    if (static_cast<std::size_t>(st.st_size) > max_bytes)
        too_large(static_cast<std::size_t>(st.st_size));

    std::string text;
    text.reserve(static_cast<std::size_t>(st.st_size));
    char buf[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n == 0) break;
        if (n < 0) {
            if (errno == EINTR) continue;
            give_up(errno_text(errno));
        }
        text.append(buf, static_cast<std::size_t>(n));
        if (text.size() > max_bytes) too_large(text.size());  // it grew while being read
    }
    ::close(fd);
    return text;
}

void save_results(const fs::path& path, const RunRecord& record) {
    const std::string ext = lowercase_extension(path);
    if (ext == ".json") return write_file_atomically(path, to_json(record));
    if (ext == ".csv") return write_file_atomically(path, to_csv(record));
    throw std::runtime_error("cannot save results to " + path_text(path) +
                             ": the name must end in .json or .csv");
}

RunRecord load_results(const fs::path& path) {
    const std::string ext = lowercase_extension(path);
    if (ext != ".json" && ext != ".csv")
        throw std::runtime_error("cannot load results from " + path_text(path) +
                                 ": the name must end in .json or .csv");
    const std::string text = read_text_file(path);
    try {
        return ext == ".json" ? from_json(text) : from_csv(text);
    } catch (const std::runtime_error& e) {
        throw std::runtime_error(shortened(path.string(), 2 * kQuoteLimit) + ": " + e.what());
    }
}

}  // namespace coalesce
