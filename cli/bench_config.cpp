#include "bench_config.hpp"

#include "exit_status.hpp"
#include "image_input.hpp"

#include "coalesce/device.hpp"
#include "coalesce/lessons.hpp"
#include "coalesce/operation.hpp"
#include "coalesce/shortened.hpp"
#include "coalesce/type_conversion.hpp"
#include "coalesce/typed_run.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

namespace coalesce::cli {
namespace {

template <class Names, class NameOf>
std::string joined(const Names& items, NameOf name_of) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : ", ") + std::string(name_of(item));
    return out;
}

std::vector<Op> checked_ops(const std::vector<std::string>& names) {
    std::vector<Op> ops;
    for (const std::string& name : names) {
        const auto op = parse_op(name);
        if (!op)
            throw UsageError("--ops: unknown operation '" + shortened(name) + "' (one of " +
                             joined(all_ops(), op_name) + ")");
        if (std::find(ops.begin(), ops.end(), *op) == ops.end()) ops.push_back(*op);
    }
    return ops;
}

void check_variants(const std::vector<std::string>& patterns, const Registry& registry) {
    for (const std::string& pattern : patterns) {
        const bool known =
            !pattern.empty() &&
            std::any_of(registry.variants().begin(), registry.variants().end(),
                        [&](const Variant& v) { return v.info.id.rfind(pattern, 0) == 0; });
        if (!known)
            throw UsageError("--variants: no variant is called or starts with '" +
                             shortened(pattern) + "' (see --list)");
    }
}

std::vector<Shape> checked_sizes(const std::vector<std::string>& items) {
    std::string text;
    for (const std::string& item : items) {
        if (item.size() > 64)  // quoted back whole by the parser's message
            throw UsageError("--sizes: bad size '" + shortened(item, 64) + "': expected ROWSxCOLS");
        text += (text.empty() ? "" : ",") + item;
    }
    try {
        return parse_sizes(text);
    } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("--sizes: ") + e.what());
    }
}

// --type: names in order, each once; u8 and u16 only for operations with typed semantics and
// on random data.
std::vector<ElemType> checked_types(const BenchOptions& o, const std::vector<Op>& ops) {
    std::vector<ElemType> types;
    for (const std::string& name : o.types) {
        const auto type = parse_elem_type(name);
        if (!type)
            throw UsageError("--type: unknown element type '" + shortened(name) +
                             "' (u8, u16 or f32)");
        if (std::find(types.begin(), types.end(), *type) == types.end()) types.push_back(*type);
    }
    if (types.empty()) return {ElemType::f32};  // with --input, the file's type (input_types)
    for (ElemType t : types) {
        if (t == ElemType::f32) continue;
        const std::string name(elem_type_name(t));
        for (Op op : ops)
            if (const std::string why = typed::type_problem(op, t, Shape{1, 1}); !why.empty())
                throw UsageError("--type " + name + ": " + why);
    }
    return types;
}

Conversion checked_conversion(const BenchOptions& o) {
    if (o.convert.empty()) return Conversion::none;
    const auto conversion = parse_conversion(o.convert);
    if (!conversion)
        throw UsageError("--convert: unknown conversion '" + shortened(o.convert) +
                         "' (values or scale)");
    if (o.input.empty())
        throw UsageError("--convert " + o.convert +
                         ": converts an --input image; random inputs are made in each type");
    return *conversion;
}

// --input keeps the file's element type unless --type names others; a type the file is not
// needs --convert where there is a choice to make or a value to lose (u8 <-> u16, f32 -> u8/u16).
void set_input(const BenchOptions& o, InputImage image, RunConfig& config) {
    if (o.types.empty()) {
        // Operations that take f32 only (the access patterns), named alone, run the image on the
        // float path as they always did; named beside the six, they need --type f32.
        const auto& ops = config.ops;
        const bool only_f32_ops = !ops.empty() && std::none_of(ops.begin(), ops.end(), [](Op op) {
            return typed::has_typed_semantics(op);
        });
        config.types = {only_f32_ops ? ElemType::f32 : image.type};
        for (Op op : ops)
            if (config.types.front() != ElemType::f32 && !typed::has_typed_semantics(op))
                throw UsageError("'" + shortened(o.input) + "' is " +
                                 std::string(elem_type_name(image.type)) + ", and " +
                                 std::string(op.name()) +
                                 " takes f32 only: name it alone, or add --type f32");
    }
    const bool float_only =
        image.type == ElemType::f32 && std::all_of(config.types.begin(), config.types.end(),
                                                   [](ElemType t) { return t == ElemType::f32; });
    if (!float_only) {
        config.typed_input = image.typed
                                 ? image.typed
                                 : std::make_shared<const AnyImage>(from_matrix(*image.matrix));
        for (ElemType t : config.types) {
            if (t == image.type || t == ElemType::f32 || config.conversion != Conversion::none)
                continue;
            throw UsageError("--type " + std::string(elem_type_name(t)) + ": '" +
                             shortened(o.input) + "' is " +
                             std::string(elem_type_name(image.type)) + " (" + image.description +
                             "); running it as " + std::string(elem_type_name(t)) +
                             " needs --convert values (each value kept, refused where one does "
                             "not fit) or --convert scale (full range onto full range)");
        }
    }
    config.input = std::move(image.matrix);  // the f32 runs' float path
    config.input_file = o.input;
}

// --channels: 1, 3 or 4; colour runs u8 and u16 only (f32 runs are single-channel matrices), so
// --type must name them where no --input gives the type.
int checked_channels(const BenchOptions& o, const std::vector<ElemType>& types) {
    const std::string option = "--channels " + std::to_string(o.channels);
    if (o.channels != 1 && o.channels != 3 && o.channels != 4)
        throw UsageError(option + ": an image has 1, 3 or 4 channels");
    if (o.channels == 1) return 1;
    if (!o.types.empty() && std::find(types.begin(), types.end(), ElemType::f32) != types.end())
        throw UsageError(option +
                         ": f32 runs take one channel (a float32 matrix); colour runs u8 and u16, "
                         "so leave f32 out of --type");
    if (o.types.empty() && o.input.empty())
        throw UsageError(option +
                         ": colour runs u8 and u16; name them with --type u8, u16 or u8,u16 "
                         "(f32 runs take one channel)");
    return o.channels;
}

// --channels 3|4 with --input: the file's own channels, as stored, instead of its luminance.
void use_colour(const BenchOptions& o, InputImage& image) {
    const std::string option = "--channels " + std::to_string(o.channels);
    if (!image.colour)
        throw UsageError(option + ": '" + shortened(o.input) + "' is " + image.description +
                         "; colour runs take an 8 or 16-bit image of 3 or 4 channels");
    if (typed::channels_of(*image.colour) != o.channels)
        throw UsageError(option + ": '" + shortened(o.input) + "' has " +
                         std::to_string(image.channels) + " channels (" + image.description + ")");
    image.typed = image.colour;
    const std::string luminance = " → luminance";
    if (const auto at = image.description.find(luminance); at != std::string::npos)
        image.description.replace(
            at, luminance.size(),
            o.channels == 3 ? " as stored (B, G, R)" : " as stored (B, G, R, A)");
}

void check_range(const char* option, long long value, long long lo, long long hi) {
    if (value < lo || value > hi) {
        const std::string range =
            hi == std::numeric_limits<int>::max()
                ? "at least " + std::to_string(lo)
                : "between " + std::to_string(lo) + " and " + std::to_string(hi);
        throw UsageError(std::string(option) + " " + std::to_string(value) + ": must be " + range);
    }
}

InputImage load_input(const std::string& path, bool keep_colour) {
#ifdef COALESCE_HAVE_OPENCV
    return load_input_image(path, keep_colour);
#else
    (void)keep_colour;
    throw UsageError("--input " + shortened(path) +
                     ": this coalesce-bench was built without OpenCV, so it cannot read images");
#endif
}

// The lesson's sweep, each axis given with --param replacing the lesson's axis of that name.
std::vector<ParamAxis> lesson_sweep(const Lesson& lesson, const std::vector<ParamAxis>& given) {
    std::vector<ParamAxis> sweep = lesson.sweep;
    for (const ParamAxis& axis : given) {
        const auto same = std::find_if(sweep.begin(), sweep.end(),
                                       [&](const ParamAxis& a) { return a.name == axis.name; });
        if (same != sweep.end())
            *same = axis;
        else
            sweep.push_back(axis);
    }
    return sweep;
}

// --lesson ID: the lesson's variants, tiers, sizes, sweep and filter parameters. --sizes, --param,
// --tier, --radius and --border, when given, replace the lesson's own; --ops, --variants and
// --input would contradict it. Without a CUDA device, or with --cpu, the host variants of the
// lesson's operations run beside its GPU variants, so the lesson can be followed on any machine.
void apply_lesson(const BenchOptions& o, const Registry& registry, int device_count,
                  RunConfig& config) {
    const Lesson* lesson = find_lesson(o.lesson);
    if (!lesson)
        throw UsageError("--lesson: no lesson is called '" + o.lesson + "' (see --lessons)");
    if (!lesson->runnable)
        throw UsageError("--lesson " + o.lesson + ": Coalesce does not run this experiment yet " +
                         "(missing: " + lesson->missing + ")");
    if (!o.ops.empty() || !o.variants.empty() || !o.input.empty())
        throw UsageError(
            "--lesson chooses the variants itself: leave out --ops, --variants and "
            "--input");
    std::vector<Op> ops;
    for (const std::string& id : lesson->variants) {
        const Variant* v = registry.find(id);
        if (!v)
            throw UsageError("--lesson " + o.lesson + ": variant '" + id +
                             "' is not loaded (texture variants come from the texture plugin)");
        if (std::find(ops.begin(), ops.end(), v->info.op) == ops.end()) ops.push_back(v->info.op);
    }
    config.variants = lesson->variants;
    if (device_count == 0 || o.include_cpu)
        for (const Variant& v : registry.variants())
            if (!v.info.gpu && std::find(ops.begin(), ops.end(), v.info.op) != ops.end())
                config.variants.push_back(v.info.id);
    if (o.tiers.empty()) config.tiers = lesson->tiers;
    config.sweep = lesson_sweep(*lesson, config.sweep);
    config.sizes = lesson->sizes;
    if (o.radius == OpParams{}.radius) config.params.radius = lesson->params.radius;
    if (o.border == border_name(OpParams{}.border)) config.params.border = lesson->params.border;
}

}  // namespace

RunConfig make_run_config(const BenchOptions& o, const Registry& registry, int device_count,
                          std::string* input_description) {
    RunConfig config;
    config.ops = checked_ops(o.ops);
    config.types = checked_types(o, config.ops);
    check_variants(o.variants, registry);
    config.variants = o.variants;
    for (const std::string& name : o.tiers) {
        const auto tier = parse_tier(name);
        if (!tier)
            throw UsageError("--tier: unknown tier '" + name + "' (classic, tuned or experiment)");
        config.tiers.push_back(*tier);
    }
    // Experiments (tuning ideas that lost) run only when asked for, by tier or by name.
    if (o.tiers.empty() && o.variants.empty()) config.tiers = {Tier::classic, Tier::tuned};
    for (const std::string& text : o.params) {
        try {
            config.sweep.push_back(parse_param_axis(text));
        } catch (const std::invalid_argument& e) {
            throw UsageError(std::string("--param: ") + e.what());
        }
    }

    check_range("--radius", o.radius, 0, kMaxRadius);
    config.params.radius = o.radius;
    const auto border = parse_border(o.border);
    if (!border)
        throw UsageError("--border: unknown mode '" + shortened(o.border) + "' (one of " +
                         joined(all_borders(), border_name) + ")");
    config.params.border = *border;

    check_range("--reps", o.reps, 1, kMaxReps);
    check_range("--warmups", o.warmups, 0, kMaxWarmups);
    config.reps = o.reps;
    config.warmups = o.warmups;
    config.seed = o.seed;
    config.include_cpu = o.include_cpu;

    if (o.device) {
        if (device_count == 0)
            throw UsageError("--device " + std::to_string(*o.device) + ": " + no_device_reason());
        check_range("--device", *o.device, 0, device_count - 1);
        config.device = *o.device;
    }

    if (!o.lesson.empty()) apply_lesson(o, registry, device_count, config);
    // Sizes are checked before the image is decoded: a typo fails fast.
    if (!o.sizes.empty()) config.sizes = checked_sizes(o.sizes);
    config.conversion = checked_conversion(o);
    config.channels = checked_channels(o, config.types);
    if (!o.input.empty()) {
        InputImage image = load_input(o.input, config.channels != 1);
        if (input_description) *input_description = image.description;
        if (config.channels != 1) use_colour(o, image);
        set_input(o, std::move(image), config);
    } else if (config.sizes.empty())
        config.sizes = default_sizes(device_count > 0);
    return config;
}

}  // namespace coalesce::cli
