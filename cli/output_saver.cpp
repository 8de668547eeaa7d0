#include "output_saver.hpp"

#include "coalesce/npy.hpp"
#include "coalesce/operation.hpp"
#include "coalesce/typed_run.hpp"

#include <cstdio>
#include <exception>
#include <optional>
#include <utility>

namespace coalesce::cli {
namespace {

namespace fs = std::filesystem;

// Names stay well below NAME_MAX (255) with room for the writer's ".tmp-PID" suffix.
constexpr std::size_t kMaxStemBytes = 200;

std::string size_part(std::size_t rows, std::size_t cols) {
    return std::to_string(rows) + "x" + std::to_string(cols);
}

// FNV-1a: a stable short tag, so two long names cut to one prefix stay apart.
std::string hash_tag(std::string_view text) {
    std::uint64_t h = 1469598103934665603ull;
    for (unsigned char ch : text) h = (h ^ ch) * 1099511628211ull;
    char out[17];
    std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
    return out;
}

std::string npy_name(std::string stem) {
    if (stem.size() > kMaxStemBytes)
        stem = stem.substr(0, kMaxStemBytes - 17) + "~" + hash_tag(stem);
    return stem + ".npy";
}

// "r4-clamp" for filters, "offset3-stride2" for named parameters, both when an operation has both.
std::string params_part(const RunResult& r) {
    std::string part;
    const auto add = [&](const std::string& item) { part += (part.empty() ? "" : "-") + item; };
    const std::optional<Op> op = parse_op(r.op);
    if (op && is_filter(*op)) {
        std::string radius = "r";  // not "r" + ...: GCC 12 warns falsely (-Wrestrict) there
        add(radius += std::to_string(r.radius));
        add(r.border);
    }
    for (const auto& [name, value] : r.params) add(name + std::to_string(value));
    return part;
}

}  // namespace

std::string safe_file_name(std::string_view text) {
    std::string out;
    for (char ch : text) {
        const bool plain = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                           (ch >= '0' && ch <= '9') || ch == '.' || ch == '-' || ch == '_';
        out += plain ? ch : '_';
    }
    return out;
}

std::string output_file_name(const RunResult& r) {
    // The variant's id repeats its operation ("transpose/global-naive"): the name says it once.
    std::string_view variant = r.variant;
    if (variant.size() > r.op.size() && variant.substr(0, r.op.size()) == r.op &&
        variant[r.op.size()] == '/')
        variant.remove_prefix(r.op.size() + 1);
    std::string stem =
        safe_file_name(r.op) + "__" + safe_file_name(variant) + "__" + size_part(r.rows, r.cols);
    if (!r.type.empty() && r.type != "f32")
        stem += "__" + safe_file_name(r.type) +
                (r.channels > 1 ? "x" + std::to_string(r.channels) : "");
    if (const std::string params = params_part(r); !params.empty())
        stem += "__" + safe_file_name(params);
    return npy_name(std::move(stem));
}

std::string input_file_name(Shape shape, std::uint64_t seed, std::string_view input_file,
                            std::string_view type) {
    const std::string source = input_file.empty()
                                   ? "seed" + std::to_string(seed)
                                   : safe_file_name(fs::path(input_file).filename().string());
    std::string stem = "input__" + size_part(shape.rows, shape.cols) + "__";
    if (type != "f32") stem += safe_file_name(type) + "__";
    return npy_name(stem + source);
}

OutputSaver::OutputSaver(fs::path dir, std::uint64_t seed, std::string input_file)
    : dir_(std::move(dir)), seed_(seed), input_file_(std::move(input_file)) {}

void OutputSaver::save(const RunResult& r, const Matrix& input) {
    if (!error_.empty() || !r.output) return;
    const std::string input_name = input_file_name(input.shape(), seed_, input_file_);
    if (inputs_.insert(input_name).second) write(input_name, input);
    write(output_file_name(r), *r.output);
}

void OutputSaver::save_typed(const RunResult& r, const AnyImage& input) {
    if (!error_.empty() || !r.typed_output) return;
    const int channels = typed::channels_of(input);
    const std::string type = std::string(typed::type_name_of(input)) +
                             (channels > 1 ? "x" + std::to_string(channels) : "");
    const std::string input_name =
        input_file_name(typed::shape_of(input), seed_, input_file_, type);
    if (inputs_.insert(input_name).second) write(input_name, input);
    write(output_file_name(r), *r.typed_output);
}

template <class Image>
void OutputSaver::write(std::string name, const Image& m) {
    if (!error_.empty()) return;
    // Two runs whose names sanitize alike (plugin ids differing only in '/' or ' ') get "__2"...
    const std::string stem = name.substr(0, name.size() - 4);
    for (int n = 2; names_.count(name) > 0; ++n) name = stem + "__" + std::to_string(n) + ".npy";
    names_.insert(name);
    try {
        write_npy(dir_ / name, m);
        ++files_written_;
    } catch (const std::exception& e) {
        error_ = e.what();
    }
}

}  // namespace coalesce::cli
