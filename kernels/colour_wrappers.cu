// Colour variants made from grey ones, so that colour inherits the grey kernels' speed:
//
//   planar       the interleaved host image is split into one plane per channel at upload (not
//                timed, like a pitched upload) and merged back at download. Operations whose
//                rows are independent (copy, row_sums, filter_x) run the grey kernel once on the
//                planes stacked into a (channels * rows) x cols image, and so does transpose,
//                whose output is then the planes' transposes side by side; the others (col_sums,
//                filter_y) run once per plane, back to back on the run's stream.
//   interleaved  where the interleaved image is itself a grey image the operation treats the
//                same way: copy, filter_y and col_sums of rows x cols pixels of c channels are the
//                grey operation on rows x (cols * c) elements, in the same order (col_sums: per
//                column, per channel). The bytes go up and come down untouched.
//
// A wrapper's instance makes the grey variant's instances at upload, when the channel count is
// known, so the grey variant's own refusals (Unsupported) still skip the run with its reason.
#include "colour_wrappers.hpp"

#include "coalesce/kernels.hpp"
#include "coalesce/registry.hpp"
#include "coalesce/typed_run.hpp"

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace coalesce {
namespace {

enum class Form {
    stacked,  // planes stacked into one (channels * rows) x cols grey image
    // stacked, for transpose: the output, cols x (channels * rows), holds plane p's transpose in
    // its columns p * rows .. (p + 1) * rows - 1
    stacked_transposed,
    per_plane,  // one grey instance per plane
    wide,       // the interleaved rows as grey rows of cols * channels elements
};

// Plane p of an interleaved image, as a grey image.
template <class T>
TypedImage<T> plane_of(const TypedImage<T>& in, std::size_t p) {
    TypedImage<T> out(in.rows(), in.cols(), 1);
    const std::size_t ch = in.channels();
    const T* src = in.data() + p;
    T* dst = out.data();
    for (std::size_t i = 0; i < out.size(); ++i) dst[i] = src[i * ch];
    return out;
}

// The planes of an interleaved image one under the other: plane p's row r is row p * rows + r.
template <class T>
TypedImage<T> stacked_planes(const TypedImage<T>& in) {
    const std::size_t ch = in.channels(), n = in.rows() * in.cols();
    TypedImage<T> out(ch * in.rows(), in.cols(), 1);
    for (std::size_t p = 0; p < ch; ++p)
        for (std::size_t i = 0; i < n; ++i) out.data()[p * n + i] = in.data()[i * ch + p];
    return out;
}

// The same elements under other dimensions (rows * cols * channels unchanged).
template <class T>
TypedImage<T> reshaped(const TypedImage<T>& in, std::size_t rows, std::size_t cols,
                       std::size_t channels) {
    TypedImage<T> out(rows, cols, channels);
    if (out.size() != in.size()) throw std::logic_error("colour wrapper: reshape changes the size");
    std::memcpy(out.data(), in.data(), in.size() * sizeof(T));
    return out;
}

// Grey planes (each rows x cols, one channel, of one type) interleaved into one image.
template <class T>
TypedImage<T> interleaved(const std::vector<const TypedImage<T>*>& planes) {
    const std::size_t ch = planes.size();
    TypedImage<T> out(planes[0]->rows(), planes[0]->cols(), ch);
    const std::size_t n = out.rows() * out.cols();
    for (std::size_t p = 0; p < ch; ++p) {
        if (planes[p]->size() != n) throw std::logic_error("colour wrapper: planes differ");
        for (std::size_t i = 0; i < n; ++i) out.data()[i * ch + p] = planes[p]->data()[i];
    }
    return out;
}

// The input's planes as the form's grey inputs.
std::vector<AnyImage> grey_inputs(const AnyImage& input, Form form) {
    return std::visit(
        [&](const auto& in) -> std::vector<AnyImage> {
            switch (form) {
            case Form::stacked:
            case Form::stacked_transposed: return {AnyImage(stacked_planes(in))};
            case Form::wide:
                return {AnyImage(reshaped(in, in.rows(), in.cols() * in.channels(), 1))};
            case Form::per_plane: break;
            }
            std::vector<AnyImage> planes;
            for (std::size_t p = 0; p < in.channels(); ++p) planes.emplace_back(plane_of(in, p));
            return planes;
        },
        input);
}

// The grey outputs of the form back as one interleaved colour output.
AnyImage colour_output(std::vector<AnyImage> outputs, Form form, std::size_t ch) {
    return std::visit(
        [&](const auto& first) -> AnyImage {
            using Image = std::decay_t<decltype(first)>;
            using T = typename Image::value_type;
            if (form == Form::wide) return reshaped(first, first.rows(), first.cols() / ch, ch);
            std::vector<Image> split;
            if (form == Form::stacked_transposed) {
                const std::size_t rows = first.cols() / ch;  // the planes' rows
                for (std::size_t p = 0; p < ch; ++p) {
                    Image plane(first.rows(), rows, 1);
                    for (std::size_t r = 0; r < first.rows(); ++r)
                        std::memcpy(plane.data() + r * rows,
                                    first.data() + r * first.cols() + p * rows, rows * sizeof(T));
                    split.push_back(std::move(plane));
                }
            } else if (form == Form::stacked) {
                const std::size_t rows = first.rows() / ch;
                for (std::size_t p = 0; p < ch; ++p) {
                    Image plane(rows, first.cols(), 1);
                    std::memcpy(plane.data(), first.data() + p * plane.size(),
                                plane.size() * sizeof(T));
                    split.push_back(std::move(plane));
                }
            } else {
                for (const AnyImage& out : outputs) split.push_back(std::get<Image>(out));
            }
            std::vector<const Image*> planes;
            for (const Image& plane : split) planes.push_back(&plane);
            return interleaved(planes);
        },
        outputs.at(0));
}

class ColourInstance final : public Instance {
public:
    ColourInstance(std::shared_ptr<const Variant> grey, Form form, Shape shape, OpParams params)
        : grey_(std::move(grey)), form_(form), shape_(shape), params_(std::move(params)) {}

    void upload(const Matrix&) override { throw std::logic_error(kColourOnly); }
    void poison() override { throw std::logic_error(kColourOnly); }
    Matrix download() override { throw std::logic_error(kColourOnly); }

    void upload_typed(const AnyImage& input) override {
        if (typed::shape_of(input) != shape_)
            throw std::invalid_argument("upload: input shape differs from the instance's shape");
        channels_ = static_cast<std::size_t>(typed::channels_of(input));
        if (channels_ == 1) throw std::logic_error(kColourOnly);
        grey_instances_.clear();
        for (AnyImage& grey : grey_inputs(input, form_)) {
            grey_instances_.push_back(grey_->make(typed::shape_of(grey), params_));
            grey_instances_.back()->upload_typed(grey);
        }
    }

    void poison_bytes(std::uint8_t byte) override {
        for (auto& instance : grey_instances_) instance->poison_bytes(byte);
    }

    void launch(cudaStream_t stream) override {
        for (auto& instance : grey_instances_) instance->launch(stream);
    }

    AnyImage download_typed() override {
        std::vector<AnyImage> outputs;
        for (auto& instance : grey_instances_) outputs.push_back(instance->download_typed());
        return colour_output(std::move(outputs), form_, channels_);
    }

private:
    static constexpr const char* kColourOnly = "this variant takes u8 and u16 colour images only";
    std::shared_ptr<const Variant> grey_;
    Form form_;
    Shape shape_;
    OpParams params_;
    std::size_t channels_ = 3;
    std::vector<std::unique_ptr<Instance>> grey_instances_;
};

// The form that runs `op` on planes: stacked where rows are independent, and for transpose (one
// launch instead of one per plane: on an H200 at 8000x6000 x 3, three launches of a 48 MB plane
// each reached 84-86% of copy).
Form planar_form(Op op) {
    if (op == Op::transpose) return Form::stacked_transposed;
    return op == Op::copy || op == Op::row_sums || op == Op::filter_x ? Form::stacked
                                                                      : Form::per_plane;
}

Variant wrapped(const Registry& registry, const std::string& grey_id, const std::string& id,
                colour::Layout layout, const std::string& description) {
    const Variant* found = registry.find(grey_id);
    if (!found) throw std::logic_error("colour variants: no grey variant '" + grey_id + "'");
    return colour::wrap(*found, id, layout, description);
}

std::string planar_why(const std::string& grey_id) {
    return "colour on planes: the interleaved image is split into one plane per channel at upload "
           "(not timed) and " +
           grey_id +
           " runs on the planes (stacked into one image where rows are independent and for "
           "transpose, else plane by plane); the output is merged back at download. Set beside the "
           "-interleaved variant "
           "of the same operation, the difference is what the layout costs on the device";
}

std::string wide_why(const std::string& grey_id) {
    return "colour as it is stored: rows of c interleaved channels are grey rows of cols * c "
           "elements that this operation treats the same way, so " +
           grey_id +
           " runs on them unchanged (the same bytes, the same order: col_sums gives per column, "
           "per channel)";
}

}  // namespace

Variant colour::wrap(const Variant& grey_variant, std::string id, Layout layout,
                     std::string description) {
    if (!grey_variant.info.takes(ElemType::u8) || !grey_variant.info.takes(ElemType::u16))
        throw std::invalid_argument("colour variant " + id + ": '" + grey_variant.info.id +
                                    "' does not take u8 and u16");
    const Op op = grey_variant.info.op;
    if (layout == Layout::interleaved && op != Op::copy && op != Op::filter_y && op != Op::col_sums)
        throw std::invalid_argument("colour variant " + id + ": " + std::string(op.name()) +
                                    " of interleaved rows is not the grey " +
                                    std::string(op.name()) + " of wider rows");
    const Form form = layout == Layout::interleaved ? Form::wide : planar_form(op);
    auto grey = std::make_shared<const Variant>(grey_variant);  // a registry may move its own
    Variant v;
    v.info = grey->info;
    v.info.id = std::move(id);
    v.info.description = std::move(description);
    v.info.types = {ElemType::u8, ElemType::u16};
    v.info.channels = {3, 4};
    // Shapes are the grey variant's to judge, on the grey shape it gets (its make refuses).
    v.info.limits.cols_multiple = 1;
    v.info.limits.max_rows = v.info.limits.max_cols = 0;
    v.info.chain = nullptr;
    v.info.access = nullptr;
    v.info.shared_access = nullptr;
    v.info.constant_access = nullptr;
    v.make = [grey, form](Shape input, const OpParams& params) -> std::unique_ptr<Instance> {
        return std::make_unique<ColourInstance>(grey, form, input, params);
    };
    return v;
}

void register_colour_wrappers(Registry& registry) {
    struct Planar {
        const char* grey;
        const char* id;
    };
    for (const Planar& p : {Planar{"copy/fast-typed-uint4", "copy/fast-planar"},
                            // pitched: on the stacked 24000 x 6000 planes of an 8000 x 6000
                            // colour image (H200) 93.2 / 92.4% of copy (u8 / u16) against the
                            // dense kernel's 91.1 / 88.8
                            Planar{"transpose/fast-typed-prmt-pitched", "transpose/fast-planar"},
                            Planar{"row_sums/fast-typed-dp4a", "row_sums/fast-planar"},
                            Planar{"col_sums/fast-typed-strip", "col_sums/fast-planar"},
                            Planar{"filter_x/fast-int-running", "filter_x/fast-planar"},
                            Planar{"filter_y/fast-int-running", "filter_y/fast-planar"}}) {
        registry.add(wrapped(registry, p.grey, p.id, colour::Layout::planar, planar_why(p.grey)));
    }
    for (const Planar& p :
         {Planar{"copy/fast-typed-uint4", "copy/fast-interleaved"},
          Planar{"col_sums/fast-typed-strip", "col_sums/fast-interleaved"},
          Planar{"filter_y/fast-int-running", "filter_y/fast-interleaved"},
          // Dense interleaved rows (18000 bytes for 6000 x 3 u8) start at every multiple of 16
          // mod 128, so the walk's cp.async copies land 48 or 80 bytes off their shared-memory
          // slots on about two rows in eight, which cost 6% in a probe on an H100; a pitched
          // image starts each row on 128 bytes (H100, u8 8000x6000 x 3, r = 64: 81.5-81.9 dense
          // against 90.4 pitched).
          Planar{"filter_y/fast-int-running-pitched", "filter_y/fast-interleaved-pitched"}})
        registry.add(
            wrapped(registry, p.grey, p.id, colour::Layout::interleaved, wide_why(p.grey)));
    // The course pair's planar half (its interleaved half is in colour_interleaved.cu).
    Variant classic = wrapped(
        registry, "filter_x/global", "filter_x/global-planar", colour::Layout::planar,
        "The slides' globalFilterX on planes (one plane per channel, split at upload): a thread "
        "per output element of a plane, its 2r+1 loads each a warp's 32 neighbouring elements. "
        "The twin of filter_x/global-interleaved, which reads the same bytes as pixels");
    registry.add(std::move(classic));
}

}  // namespace coalesce
