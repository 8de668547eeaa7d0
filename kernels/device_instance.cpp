#include "device_instance.hpp"

#include "coalesce/typed_run.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <utility>

namespace coalesce::gpu {
namespace {

// The device image holds rows of cols * channels elements.
RawView raw_view(const DeviceImage& image, std::size_t channels) {
    return {image.data(), image.shape().rows, image.shape().cols / channels, image.pitch_bytes(),
            channels};
}

// The element type of a typed run's input: u8 or u16.
ElemType input_type(const AnyImage& input) {
    if (std::holds_alternative<TypedImage<std::uint8_t>>(input)) return ElemType::u8;
    if (std::holds_alternative<TypedImage<std::uint16_t>>(input)) return ElemType::u16;
    throw std::invalid_argument("upload_typed: a typed run's input is u8 or u16, not " +
                                std::string(typed::type_name_of(input)));
}

// An empty host image of a typed run's output: the input's type, or the sums' accumulator.
AnyImage output_image(ElemType type, std::size_t elem_bytes, Shape shape, std::size_t channels) {
    if (elem_bytes == 8) return TypedImage<std::uint64_t>(shape.rows, shape.cols, channels);
    if (elem_bytes == 4) return TypedImage<std::uint32_t>(shape.rows, shape.cols, channels);
    if (type == ElemType::u16) return TypedImage<std::uint16_t>(shape.rows, shape.cols, channels);
    return TypedImage<std::uint8_t>(shape.rows, shape.cols, channels);
}

class DeviceInstance final : public Instance {
public:
    DeviceInstance(Op op, Shape input, OpParams params, Layout layout, Shape scratch_shape,
                   ScratchLauncher launcher, std::function<void(MatView, MatView)> prepare,
                   TypedLauncher typed, std::vector<int> channels)
        : op_(op),
          input_shape_(input),
          params_(std::move(params)),
          layout_(layout),
          scratch_shape_(scratch_shape),
          launcher_(std::move(launcher)),
          prepare_(std::move(prepare)),
          typed_(std::move(typed)),
          channels_taken_(std::move(channels)) {}

    void upload(const Matrix& input) override {
        if (input.shape() != input_shape_)
            throw std::invalid_argument("upload: input shape differs from the instance's shape");
        input_ = DeviceMatrix(input_shape_, layout_);
        output_ = DeviceMatrix(output_shape(op_, input_shape_, params_), layout_);
        if (scratch_shape_.elements() > 0) scratch_ = DeviceMatrix(scratch_shape_, Layout::dense);
        input_.upload(input);
        if (prepare_) prepare_(input_.view(), scratch_.view());
        // The runner launches on its own non-blocking stream, which does not wait for the legacy
        // default stream the copies above may use: finish them here (not timed).
        COALESCE_CUDA(cudaDeviceSynchronize());
    }

    void poison() override {
        output_.fill_nan();
        COALESCE_CUDA(cudaDeviceSynchronize());
    }

    void launch(cudaStream_t stream) override {
        if (typed_run_)
            typed_(type_, raw_view(typed_in_, channels_), raw_view(typed_out_, channels_),
                   raw_view(typed_scratch_, 1), params_, stream);
        else
            launcher_(input_.view(), output_.view(), scratch_.view(), params_, stream);
    }

    Matrix download() override {
        // The launches ran on a stream this instance does not own; wait for all of them.
        COALESCE_CUDA(cudaDeviceSynchronize());
        return output_.download();
    }

    void upload_typed(const AnyImage& input) override {
        if (!typed_ || prepare_)
            throw std::logic_error("upload_typed: this variant takes f32 only");
        if (typed::shape_of(input) != input_shape_)
            throw std::invalid_argument("upload: input shape differs from the instance's shape");
        type_ = input_type(input);
        const int channels = typed::channels_of(input);
        if (std::find(channels_taken_.begin(), channels_taken_.end(), channels) ==
            channels_taken_.end())
            throw std::logic_error("upload_typed: this variant does not take " +
                                   std::to_string(channels) + " channels");
        channels_ = static_cast<std::size_t>(typed::channels_of(input));
        const std::size_t out_bytes = typed::output_elem_size(op_, type_, input_shape_);
        // A colour row is cols * channels elements on the device, interleaved as on the host.
        const auto wide = [&](Shape s) { return Shape{s.rows, s.cols * channels_}; };
        typed_in_ = DeviceImage(wide(input_shape_), elem_size(type_), layout_);
        typed_out_ =
            DeviceImage(wide(output_shape(op_, input_shape_, params_)), out_bytes, layout_);
        if (scratch_shape_.elements() > 0)
            typed_scratch_ = DeviceImage(scratch_shape_, out_bytes, Layout::dense);
        std::visit([&](const auto& image) { typed_in_.upload(image.data()); }, input);
        typed_run_ = true;
        COALESCE_CUDA(cudaDeviceSynchronize());  // as upload(): the runner's stream does not wait
    }

    void poison_bytes(std::uint8_t byte) override {
        typed_out_.fill_bytes(byte);
        COALESCE_CUDA(cudaDeviceSynchronize());
    }

    AnyImage download_typed() override {
        COALESCE_CUDA(cudaDeviceSynchronize());
        const Shape s = typed_out_.shape();
        AnyImage out =
            output_image(type_, typed_out_.elem_bytes(), {s.rows, s.cols / channels_}, channels_);
        std::visit([&](auto& image) { typed_out_.download(image.data()); }, out);
        return out;
    }

private:
    Op op_;
    Shape input_shape_;
    OpParams params_;
    Layout layout_;
    Shape scratch_shape_;
    ScratchLauncher launcher_;
    std::function<void(MatView, MatView)> prepare_;
    DeviceMatrix input_, output_, scratch_;
    TypedLauncher typed_;  // empty: f32 only
    bool typed_run_ = false;
    ElemType type_ = ElemType::f32;
    std::vector<int> channels_taken_;
    std::size_t channels_ = 1;
    DeviceImage typed_in_, typed_out_, typed_scratch_;
};

Variant make_variant(DeviceVariantSpec spec, ScratchShape scratch_shape, ScratchLauncher launcher,
                     TypedLauncher typed) {
    Variant variant;
    variant.info.id = std::move(spec.id);
    variant.info.op = spec.op;
    variant.info.memory_space = spec.memory_space;
    variant.info.description = std::move(spec.description);
    variant.info.gpu = true;
    variant.info.tier = spec.tier;
    variant.info.kernel = std::move(spec.kernel);
    variant.info.limits = spec.limits;
    variant.info.access = std::move(spec.access);
    variant.info.shared_access = std::move(spec.shared_access);
    variant.info.constant_access = std::move(spec.constant_access);
    variant.info.chain = std::move(spec.chain);
    if (typed) variant.info.types = {ElemType::f32, ElemType::u8, ElemType::u16};
    variant.info.channels = spec.channels;
    const Op op = spec.op;
    const Layout layout = spec.layout;
    variant.make = [op, layout, scratch_shape = std::move(scratch_shape),
                    launcher = std::move(launcher), prepare = std::move(spec.prepare),
                    typed = std::move(typed), channels = spec.channels](
                       Shape input, const OpParams& params) -> std::unique_ptr<Instance> {
        check_device_args(op, input, params);
        const Shape scratch = scratch_shape ? scratch_shape(input, params) : Shape{};
        return std::make_unique<DeviceInstance>(op, input, params, layout, scratch, launcher,
                                                prepare, typed, channels);
    };
    return variant;
}

}  // namespace

void check_device_args(Op op, Shape input, const OpParams& params) {
    if (input.rows == 0 || input.cols == 0)
        throw std::invalid_argument("GPU variants need a matrix of at least 1x1");
    if (is_filter(op) && (params.radius < 0 || params.radius > kMaxRadius))
        throw std::invalid_argument("filter radius " + std::to_string(params.radius) +
                                    " is outside 0.." + std::to_string(kMaxRadius));
}

Variant make_device_variant(DeviceVariantSpec spec, Launcher launcher) {
    return make_device_variant(std::move(spec), std::move(launcher), TypedLauncher{});
}

Variant make_device_variant(DeviceVariantSpec spec, ScratchShape scratch_shape,
                            ScratchLauncher launcher) {
    return make_device_variant(std::move(spec), std::move(scratch_shape), std::move(launcher),
                               TypedLauncher{});
}

Variant make_device_variant(DeviceVariantSpec spec, Launcher launcher, TypedLauncher typed) {
    if (!launcher) throw std::invalid_argument("make_device_variant: no launcher for " + spec.id);
    return make_variant(
        std::move(spec), nullptr,
        [launcher = std::move(launcher)](MatView in, MatView out, MatView, const OpParams& params,
                                         cudaStream_t stream) {
            launcher(in, out, params, stream);
        },
        std::move(typed));
}

Variant make_device_variant(DeviceVariantSpec spec, ScratchShape scratch_shape,
                            ScratchLauncher launcher, TypedLauncher typed) {
    if (!launcher || !scratch_shape)
        throw std::invalid_argument("make_device_variant: no launcher or scratch shape for " +
                                    spec.id);
    return make_variant(std::move(spec), std::move(scratch_shape), std::move(launcher),
                        std::move(typed));
}

Variant make_typed_device_variant(DeviceVariantSpec spec, TypedLauncher typed) {
    if (!typed)
        throw std::invalid_argument("make_typed_device_variant: no launcher for " + spec.id);
    Variant variant = make_variant(std::move(spec), nullptr, ScratchLauncher{}, std::move(typed));
    variant.info.types = {ElemType::u8, ElemType::u16};
    return variant;
}

}  // namespace coalesce::gpu
