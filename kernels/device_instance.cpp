#include "device_instance.hpp"

#include <memory>
#include <stdexcept>
#include <utility>

namespace coalesce::gpu {
namespace {

class DeviceInstance final : public Instance {
public:
    DeviceInstance(Op op, Shape input, OpParams params, Layout layout, Shape scratch_shape,
                   ScratchLauncher launcher, std::function<void(MatView, MatView)> prepare)
        : op_(op),
          input_shape_(input),
          params_(std::move(params)),
          layout_(layout),
          scratch_shape_(scratch_shape),
          launcher_(std::move(launcher)),
          prepare_(std::move(prepare)) {}

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
        launcher_(input_.view(), output_.view(), scratch_.view(), params_, stream);
    }

    Matrix download() override {
        // The launches ran on a stream this instance does not own; wait for all of them.
        COALESCE_CUDA(cudaDeviceSynchronize());
        return output_.download();
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
};

Variant make_variant(DeviceVariantSpec spec, ScratchShape scratch_shape, ScratchLauncher launcher) {
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
    const Op op = spec.op;
    const Layout layout = spec.layout;
    variant.make = [op, layout, scratch_shape = std::move(scratch_shape),
                    launcher = std::move(launcher), prepare = std::move(spec.prepare)](
                       Shape input, const OpParams& params) -> std::unique_ptr<Instance> {
        check_device_args(op, input, params);
        const Shape scratch = scratch_shape ? scratch_shape(input, params) : Shape{};
        return std::make_unique<DeviceInstance>(op, input, params, layout, scratch, launcher,
                                                prepare);
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
    if (!launcher) throw std::invalid_argument("make_device_variant: no launcher for " + spec.id);
    return make_variant(std::move(spec), nullptr,
                        [launcher = std::move(launcher)](
                            MatView in, MatView out, MatView, const OpParams& params,
                            cudaStream_t stream) { launcher(in, out, params, stream); });
}

Variant make_device_variant(DeviceVariantSpec spec, ScratchShape scratch_shape,
                            ScratchLauncher launcher) {
    if (!launcher || !scratch_shape)
        throw std::invalid_argument("make_device_variant: no launcher or scratch shape for " +
                                    spec.id);
    return make_variant(std::move(spec), std::move(scratch_shape), std::move(launcher));
}

}  // namespace coalesce::gpu
