// dlopen-based plugin loading. The C ABI (plugin_abi.h) is the only thing shared with a plugin:
// every call into it is guarded, every failure becomes a "<file>: <reason>" message, and a refused
// plugin leaves the registry exactly as it was.
#include "coalesce/plugin_loader.hpp"

#include "coalesce/plugin_abi.h"
#include "coalesce/typed_run.hpp"

#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <optional>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <variant>
#include <vector>

namespace coalesce {
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kErrLen = 1024;

// Copies a message into a C caller's buffer, truncated and always NUL-terminated.
void write_err(char* err, std::size_t err_len, const std::string& message) noexcept {
    if (err == nullptr || err_len == 0) return;
    const std::size_t n = std::min(message.size(), err_len - 1);
    std::memcpy(err, message.data(), n);
    err[n] = '\0';
}

// A string a plugin handed over, read no further than `limit` bytes: a plugin that forgets the
// terminating NUL (or passes garbage) must not make the host read past its buffer.
std::string bounded(const char* text, std::size_t limit) {
    if (text == nullptr) return {};
    return std::string(text, strnlen(text, limit));
}

constexpr std::size_t kMaxPluginString = 4096;  // ids, names, descriptions [bytes]

std::string plugin_message(const char* err) {
    const std::string text = bounded(err, kErrLen - 1);
    return text.empty() ? std::string("no message given") : text;
}

// The buffer a plugin filled, cut at its last byte whether or not the plugin terminated it.
const char* terminated(char (&err)[kErrLen]) {
    err[kErrLen - 1] = '\0';
    return err;
}

// The C function table of one plugin variant, shared by every instance made from it.
struct CVariant {
    std::string file;  // the plugin file, for error messages
    std::string id;
    Op op = Op::copy;
    int (*create)(size_t, size_t, const coalesce_params*, void**, char*, size_t) = nullptr;
    int (*upload)(void*, const float*, char*, size_t) = nullptr;
    int (*poison)(void*, char*, size_t) = nullptr;
    int (*launch)(void*, void*, char*, size_t) = nullptr;
    int (*download)(void*, float*, char*, size_t) = nullptr;
    void (*destroy)(void*) = nullptr;
    int (*upload_typed)(void*, const void*, int, size_t, size_t, char*, size_t) = nullptr;
    int (*poison_bytes)(void*, uint8_t, char*, size_t) = nullptr;
    int (*download_typed)(void*, void*, size_t, size_t, size_t, char*, size_t) = nullptr;
    std::vector<ElemType> types;

    // The runner skips types a variant does not take; a direct call is refused the same way.
    void require(ElemType type) const {
        if (std::find(types.begin(), types.end(), type) != types.end()) return;
        std::string takes;
        for (ElemType t : types)
            takes += (takes.empty() ? "" : ", ") + std::string(elem_type_name(t));
        throw Unsupported(file + ": " + id + " does not take " + std::string(elem_type_name(type)) +
                          " (it takes " + takes + ")");
    }

    [[noreturn]] void fail(const char* step, int status, const char* err) const {
        throw std::runtime_error(file + ": " + id + ": " + step + " failed (status " +
                                 std::to_string(status) + "): " + plugin_message(err));
    }
};

// Adapts one plugin instance (a void* behind C function pointers) to coalesce::Instance.
class PluginInstance final : public Instance {
public:
    PluginInstance(std::shared_ptr<const CVariant> fns, void* handle, Shape input, OpParams params)
        : fns_(std::move(fns)), handle_(handle), input_(input), params_(std::move(params)) {}
    PluginInstance(const PluginInstance&) = delete;
    PluginInstance& operator=(const PluginInstance&) = delete;
    ~PluginInstance() override { fns_->destroy(handle_); }

    void upload(const Matrix& input) override {
        fns_->require(ElemType::f32);
        if (input.shape() != input_)
            throw std::invalid_argument(fns_->file + ": " + fns_->id +
                                        ": upload of a matrix whose shape differs from create()");
        char err[kErrLen] = {};
        if (const int s = fns_->upload(handle_, input.data(), err, sizeof err); s != 0)
            fns_->fail("upload", s, terminated(err));
    }
    void poison() override {
        fns_->require(ElemType::f32);
        char err[kErrLen] = {};
        if (const int s = fns_->poison(handle_, err, sizeof err); s != 0)
            fns_->fail("poison", s, terminated(err));
    }
    void launch(cudaStream_t stream) override {
        char err[kErrLen] = {};
        if (const int s = fns_->launch(handle_, static_cast<void*>(stream), err, sizeof err);
            s != 0)
            fns_->fail("launch", s, terminated(err));
    }
    Matrix download() override {
        fns_->require(ElemType::f32);
        const Shape out = output_shape(fns_->op, input_, params_);
        Matrix result(out.rows, out.cols);
        char err[kErrLen] = {};
        if (const int s = fns_->download(handle_, result.data(), err, sizeof err); s != 0)
            fns_->fail("download", s, terminated(err));
        return result;
    }

    void upload_typed(const AnyImage& input) override {
        const ElemType type = typed_input_type(input);
        fns_->require(type);
        if (typed::shape_of(input) != input_)
            throw std::invalid_argument(fns_->file + ": " + fns_->id +
                                        ": upload of an image whose shape differs from create()");
        const void* bytes = std::visit(
            [](const auto& image) -> const void* {
                if (image.channels() != 1)
                    throw std::invalid_argument("plugin variants take single-channel images only");
                return image.data();
            },
            input);
        char err[kErrLen] = {};
        if (const int s = fns_->upload_typed(handle_, bytes, c_elem_type(type), input_.rows,
                                             input_.cols, err, sizeof err);
            s != 0)
            fns_->fail("upload_typed", s, terminated(err));
        uploaded_ = type;
    }
    void poison_bytes(std::uint8_t byte) override {
        require_typed_upload("poison_bytes");
        char err[kErrLen] = {};
        if (const int s = fns_->poison_bytes(handle_, byte, err, sizeof err); s != 0)
            fns_->fail("poison_bytes", s, terminated(err));
    }
    AnyImage download_typed() override {
        require_typed_upload("download_typed");
        const Shape out = output_shape(fns_->op, input_, params_);
        const std::size_t size = is_sum(fns_->op)
                                     ? typed::output_elem_size(fns_->op, *uploaded_, input_)
                                     : elem_size(*uploaded_);
        AnyImage result = typed_output(*uploaded_, size, out);
        void* bytes = std::visit([](auto& image) -> void* { return image.data(); }, result);
        char err[kErrLen] = {};
        if (const int s =
                fns_->download_typed(handle_, bytes, out.rows, out.cols, size, err, sizeof err);
            s != 0)
            fns_->fail("download_typed", s, terminated(err));
        return result;
    }

private:
    static bool is_sum(Op op) { return op == Op::row_sums || op == Op::col_sums; }

    // u8 and u16 only: f32 runs go through upload/download, as for every built-in variant.
    ElemType typed_input_type(const AnyImage& input) const {
        if (std::holds_alternative<TypedImage<std::uint8_t>>(input)) return ElemType::u8;
        if (std::holds_alternative<TypedImage<std::uint16_t>>(input)) return ElemType::u16;
        throw std::invalid_argument(fns_->file + ": " + fns_->id + ": upload_typed of a " +
                                    std::string(typed::type_name_of(input)) +
                                    " image (u8 and u16 only; f32 runs through upload)");
    }
    static int c_elem_type(ElemType type) {
        return type == ElemType::u8    ? COALESCE_ELEM_U8
               : type == ElemType::u16 ? COALESCE_ELEM_U16
                                       : COALESCE_ELEM_F32;
    }
    // The output image a typed run gives back: the input's type, or the sums' accumulator.
    static AnyImage typed_output(ElemType type, std::size_t size, Shape out) {
        if (size == 8) return TypedImage<std::uint64_t>(out.rows, out.cols, 1);
        if (size == 4) return TypedImage<std::uint32_t>(out.rows, out.cols, 1);
        if (type == ElemType::u16) return TypedImage<std::uint16_t>(out.rows, out.cols, 1);
        return TypedImage<std::uint8_t>(out.rows, out.cols, 1);
    }
    void require_typed_upload(const char* step) const {
        if (!uploaded_)
            throw std::logic_error(fns_->file + ": " + fns_->id + ": " + step +
                                   " before upload_typed");
    }

    std::shared_ptr<const CVariant> fns_;
    void* handle_;
    Shape input_;
    OpParams params_;
    std::optional<ElemType> uploaded_;  // the element type of the last upload_typed
};

std::vector<Border> borders_from_mask(std::uint32_t mask) {
    std::vector<Border> borders;
    for (const Border b : all_borders())
        if (mask & (1u << static_cast<unsigned>(b))) borders.push_back(b);
    return borders;
}

// What add_variant collects while a plugin registers; nothing reaches the registry until the
// plugin has returned 0 and every variant was accepted.
struct Staging {
    const Registry* registry = nullptr;
    std::string file;
    std::vector<Variant> variants;
    std::string refusal;  // the first add_variant refusal, if any
};

// Whether the descriptor's struct_size reaches past `field` (a member of the ABI 3 tail): fields
// beyond an older plugin's struct_size are not there to read.
template <class Field>
bool has_field(const coalesce_variant_desc& desc, Field coalesce_variant_desc::*field) {
    const auto* base = reinterpret_cast<const char*>(&desc);
    const auto* member = reinterpret_cast<const char*>(&(desc.*field));
    return desc.struct_size >= static_cast<std::size_t>(member - base) + sizeof(Field);
}

// The element types a descriptor declares: f32 alone when its struct ends before type_mask; a
// mask with no type or with a bit this Coalesce does not know is refused by name.
std::vector<ElemType> types_of(const coalesce_variant_desc& desc, const std::string& id) {
    if (!has_field(desc, &coalesce_variant_desc::type_mask)) return {ElemType::f32};
    constexpr std::uint32_t known =
        (1u << COALESCE_ELEM_U8) | (1u << COALESCE_ELEM_U16) | (1u << COALESCE_ELEM_F32);
    char mask_text[16];
    std::snprintf(mask_text, sizeof mask_text, "0x%X", static_cast<unsigned>(desc.type_mask));
    if (desc.type_mask & ~known)
        throw std::invalid_argument("variant '" + id +
                                    "' declares element types this Coalesce does not have "
                                    "(type_mask " +
                                    mask_text + "; known: u8, u16, f32)");
    std::vector<ElemType> types;
    if (desc.type_mask & (1u << COALESCE_ELEM_U8)) types.push_back(ElemType::u8);
    if (desc.type_mask & (1u << COALESCE_ELEM_U16)) types.push_back(ElemType::u16);
    if (desc.type_mask & (1u << COALESCE_ELEM_F32)) types.push_back(ElemType::f32);
    if (types.empty())
        throw std::invalid_argument("variant '" + id + "' takes no element type (type_mask 0)");
    return types;
}

// Validates a descriptor and turns it into a Variant; throws std::invalid_argument with the reason.
Variant make_variant(const Staging& staging, const coalesce_variant_desc& desc) {
    constexpr std::size_t needed = offsetof(coalesce_variant_desc, destroy) + sizeof desc.destroy;
    if (desc.struct_size < needed)
        throw std::invalid_argument("variant descriptor too small (" +
                                    std::to_string(desc.struct_size) +
                                    " bytes, expected at least " + std::to_string(needed) + ")");
    const std::string id = bounded(desc.id, kMaxPluginString);
    if (id.empty()) throw std::invalid_argument("variant without an id");
    if (id.size() >= kMaxPluginString) throw std::invalid_argument("variant id longer than 4 KiB");
    const std::string op_text = bounded(desc.op, 64);
    const std::optional<Op> parsed_op = parse_op(op_text);
    if (!parsed_op)
        throw std::invalid_argument("variant '" + id +
                                    "' names an operation this Coalesce does not have ('" +
                                    op_text + "')");
    const Op op = *parsed_op;
    const std::string tier_text = desc.tier ? bounded(desc.tier, 64) : std::string("classic");
    const std::optional<Tier> tier = parse_tier(tier_text);
    if (!tier)
        throw std::invalid_argument("variant '" + id + "' has an unknown tier '" + tier_text +
                                    "' (classic, tuned or experiment)");
    const std::string prefix = std::string(op_name(op)) + "/";
    if (id.rfind(prefix, 0) != 0 || id.size() == prefix.size())
        throw std::invalid_argument("variant id '" + id + "' does not have the form '" + prefix +
                                    "<name>'");
    const std::vector<ElemType> types = types_of(desc, id);
    const auto takes = [&](ElemType t) {
        return std::find(types.begin(), types.end(), t) != types.end();
    };
    if (!desc.create || !desc.launch || !desc.destroy)
        throw std::invalid_argument("variant '" + id + "' lacks one of its functions");
    if (takes(ElemType::f32) && (!desc.upload || !desc.poison || !desc.download))
        throw std::invalid_argument("variant '" + id +
                                    "' takes f32 but lacks upload, poison or download");
    const bool typed = takes(ElemType::u8) || takes(ElemType::u16);
    if (typed && (!has_field(desc, &coalesce_variant_desc::download_typed) || !desc.upload_typed ||
                  !desc.poison_bytes || !desc.download_typed))
        throw std::invalid_argument("variant '" + id +
                                    "' takes u8 or u16 but lacks upload_typed, poison_bytes or "
                                    "download_typed");
    const std::vector<Border> borders = borders_from_mask(desc.border_mask);
    if (is_filter(op) && borders.empty())
        throw std::invalid_argument("filter variant '" + id + "' supports no border mode");

    if (const Variant* existing = staging.registry->find(id))
        throw std::invalid_argument(existing->info.origin == staging.file
                                        ? "already loaded into this registry (variant '" + id + "')"
                                        : "duplicate variant id '" + id +
                                              "' (already registered by " + existing->info.origin +
                                              ")");
    for (const Variant& staged : staging.variants)
        if (staged.info.id == id)
            throw std::invalid_argument("duplicate variant id '" + id +
                                        "' (registered twice by this plugin)");

    auto fns = std::make_shared<CVariant>();
    fns->file = staging.file;
    fns->id = id;
    fns->op = op;
    fns->create = desc.create;
    fns->upload = desc.upload;
    fns->poison = desc.poison;
    fns->launch = desc.launch;
    fns->download = desc.download;
    fns->destroy = desc.destroy;
    fns->types = types;
    if (typed) {
        fns->upload_typed = desc.upload_typed;
        fns->poison_bytes = desc.poison_bytes;
        fns->download_typed = desc.download_typed;
    }

    Variant variant;
    variant.info.id = id;
    variant.info.op = op;
    variant.info.memory_space = desc.memory_space ? bounded(desc.memory_space, 64) : "plugin";
    variant.info.description = bounded(desc.description, kMaxPluginString);
    variant.info.tier = *tier;
    variant.info.kernel = bounded(desc.kernel, 256);
    variant.info.origin = staging.file;
    variant.info.gpu = true;
    // Borders matter only to filters; other operations accept any mode, as built-in ones do.
    variant.info.borders = is_filter(op) ? borders : all_borders();
    variant.info.types = types;
    variant.make = [fns = std::shared_ptr<const CVariant>(fns)](
                       Shape input, const OpParams& params) -> std::unique_ptr<Instance> {
        std::vector<coalesce_named_value> values;
        for (const auto& [name, value] : params.values) values.push_back({name.c_str(), value});
        const coalesce_params c_params{sizeof(coalesce_params), params.radius,
                                       static_cast<int>(params.border), values.size(),
                                       values.empty() ? nullptr : values.data()};
        char err[kErrLen] = {};
        void* handle = nullptr;
        const int status = fns->create(input.rows, input.cols, &c_params, &handle, err, sizeof err);
        err[kErrLen - 1] = '\0';
        if (status == COALESCE_STATUS_OK && handle != nullptr)
            return std::make_unique<PluginInstance>(fns, handle, input, params);
        if (handle != nullptr) fns->destroy(handle);
        if (status == COALESCE_STATUS_UNSUPPORTED) throw Unsupported(plugin_message(err));
        throw std::runtime_error(fns->file + ": " + fns->id + ": create failed" +
                                 (status == COALESCE_STATUS_OK ? " (no instance returned)" : "") +
                                 ": " + plugin_message(err));
    };
    return variant;
}

int host_add_variant(void* context, const coalesce_variant_desc* desc, char* err, size_t err_len) {
    auto* staging = static_cast<Staging*>(context);
    try {
        if (desc == nullptr) throw std::invalid_argument("null variant descriptor");
        staging->variants.push_back(make_variant(*staging, *desc));
        return 0;
    } catch (const std::exception& e) {
        if (staging->refusal.empty()) staging->refusal = e.what();
        write_err(err, err_len, e.what());
    } catch (...) {
        if (staging->refusal.empty()) staging->refusal = "unknown error while adding a variant";
        write_err(err, err_len, "unknown error while adding a variant");
    }
    return 1;
}

// Libraries stay open for the life of the process: accepted variants point into them, and
// unloading a refused one could pull code from under threads or exit handlers it set up.
std::mutex& loader_mutex() {
    static std::mutex m;
    return m;
}
std::map<fs::path, void*>& open_libraries() {
    static std::map<fs::path, void*> libraries;
    return libraries;
}

// Calling an exported object as if it were code crashes the host: ask the dynamic linker what the
// symbol is before calling it.
bool is_function_symbol(void* address) {
    Dl_info info{};
    void* entry = nullptr;
    if (dladdr1(address, &info, &entry, RTLD_DL_SYMENT) == 0 || entry == nullptr) return false;
    const auto* symbol = static_cast<const ElfW(Sym)*>(entry);
    const unsigned type = ELF64_ST_TYPE(symbol->st_info);
    return type == STT_FUNC || type == STT_GNU_IFUNC;
}

PluginReport refuse(PluginReport report, const std::string& reason) {
    report.loaded = false;
    report.message = report.file.string() + ": " + reason;
    return report;
}

PluginReport load_plugin_locked(const fs::path& file, Registry& registry) {
    PluginReport report;
    report.file = file;
    std::error_code ec;
    const fs::path canonical = fs::canonical(file, ec);
    if (ec) return refuse(report, "cannot open (" + ec.message() + ")");
    report.file = canonical;

    void* library = nullptr;
    if (auto it = open_libraries().find(canonical); it != open_libraries().end()) {
        library = it->second;
    } else {
        dlerror();
        library = dlopen(canonical.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (library == nullptr) {
            const char* why = dlerror();
            return refuse(report, std::string("not a loadable library (") +
                                      (why ? why : "dlopen failed") + ")");
        }
        open_libraries().emplace(canonical, library);
    }

    void* version_sym = dlsym(library, "coalesce_plugin_abi_version");
    if (version_sym == nullptr)
        return refuse(report, "missing entry point coalesce_plugin_abi_version");
    if (!is_function_symbol(version_sym))
        return refuse(report, "coalesce_plugin_abi_version is exported as data, not as a function");
    void* register_sym = dlsym(library, "coalesce_plugin_register");
    if (register_sym == nullptr)
        return refuse(report, "missing entry point coalesce_plugin_register");
    if (!is_function_symbol(register_sym))
        return refuse(report, "coalesce_plugin_register is exported as data, not as a function");
    auto version_fn = reinterpret_cast<coalesce_plugin_abi_version_fn>(version_sym);
    auto register_fn = reinterpret_cast<coalesce_plugin_register_fn>(register_sym);

    const std::uint32_t version = version_fn();
    if (version != COALESCE_PLUGIN_ABI_VERSION)
        return refuse(report, "ABI version mismatch: the plugin has version " +
                                  std::to_string(version) + ", this Coalesce expects " +
                                  std::to_string(COALESCE_PLUGIN_ABI_VERSION));

    Staging staging;
    staging.registry = &registry;
    staging.file = canonical.string();
    coalesce_host host{sizeof(coalesce_host), &staging, &host_add_variant};
    char err[kErrLen] = {};
    int status = 0;
    try {
        status = register_fn(&host, sizeof host, err, sizeof err);
        err[kErrLen - 1] = '\0';
    } catch (const std::exception& e) {
        return refuse(report, std::string("registration threw: ") + e.what());
    } catch (...) {
        return refuse(report, "registration threw an unknown exception");
    }
    if (status != 0) {
        // A plugin that passes an add_variant refusal on says so in its own message; keep ours
        // too when it differs, so a duplicate id is always named.
        std::string reason =
            "registration failed (status " + std::to_string(status) + "): " + plugin_message(err);
        if (!staging.refusal.empty() && reason.find(staging.refusal) == std::string::npos)
            reason += " [host refused a variant: " + staging.refusal + "]";
        return refuse(report, reason);
    }
    if (!staging.refusal.empty()) return refuse(report, staging.refusal);

    // A second load of the same file into the same registry meets its own ids: say so plainly.
    for (const Variant& v : staging.variants)
        if (const Variant* existing = registry.find(v.info.id))
            return refuse(report, existing->info.origin == staging.file
                                      ? std::string("already loaded into this registry")
                                      : "duplicate variant id '" + v.info.id + "'");
    for (Variant& v : staging.variants) registry.add(std::move(v));
    report.loaded = true;
    report.variants = staging.variants.size();
    return report;
}

fs::path executable_dir() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : exe.parent_path();
}

bool is_plugin_file(const fs::directory_entry& entry) {
    std::error_code ec;
    return entry.path().extension() == ".so" && entry.is_regular_file(ec);
}

}  // namespace

std::vector<fs::path> plugin_search_path(const std::vector<fs::path>& extra_dirs) {
    std::vector<fs::path> dirs(extra_dirs.begin(), extra_dirs.end());
    if (const char* env = std::getenv("COALESCE_PLUGIN_PATH"); env != nullptr) {
        const std::string list = env;
        std::size_t start = 0;
        while (start <= list.size()) {
            const std::size_t end = std::min(list.find(':', start), list.size());
            if (end > start) dirs.emplace_back(list.substr(start, end - start));
            start = end + 1;
        }
    }
    if (const fs::path exe_dir = executable_dir(); !exe_dir.empty()) {
        dirs.push_back(exe_dir / "plugins");
        dirs.push_back((exe_dir / ".." / "lib" / "coalesce" / "plugins").lexically_normal());
    }
    return dirs;
}

PluginReport load_plugin(const fs::path& file, Registry& registry) {
    std::lock_guard lock(loader_mutex());
    try {
        return load_plugin_locked(file, registry);
    } catch (const std::exception& e) {
        PluginReport report;
        report.file = file;
        return refuse(report, std::string("refused: ") + e.what());
    }
}

std::vector<PluginReport> load_plugins(Registry& registry,
                                       const std::vector<fs::path>& extra_dirs) {
    std::vector<PluginReport> reports;
    std::set<fs::path> seen;
    for (const fs::path& dir : plugin_search_path(extra_dirs)) {
        std::error_code ec;
        if (!fs::is_directory(dir, ec)) continue;
        std::vector<fs::path> files;
        try {
            for (const auto& entry :
                 fs::directory_iterator(dir, fs::directory_options::skip_permission_denied))
                if (is_plugin_file(entry)) files.push_back(entry.path());
        } catch (const fs::filesystem_error&) {
            // A folder that vanishes or turns unreadable mid-listing: load what was listed.
        }
        std::sort(files.begin(),
                  files.end());  // a stable order, so duplicate ids resolve the same way
        for (const fs::path& file : files) {
            std::error_code canonical_ec;
            const fs::path canonical = fs::canonical(file, canonical_ec);
            if (!canonical_ec && !seen.insert(canonical).second) continue;
            reports.push_back(load_plugin(file, registry));
        }
    }
    return reports;
}

}  // namespace coalesce
