// Host variants: the plain loop nests each operation's descriptor lists (a naive one and a
// cache-blocked one per operation), so every front end does its job on a machine without a GPU,
// and so a GPU's figures can be set beside the host's. The naive variant of each of the six
// matrix operations also takes u8 and u16 (typed_host_loops.hpp: integer loops written apart from
// the typed reference they are verified against), so an opened 8 or 16-bit image runs as it is
// on any machine.
#include "coalesce/registry.hpp"
#include "coalesce/typed_run.hpp"
#include "typed_host_loops.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace coalesce {
namespace {

class HostInstance final : public Instance {
public:
    HostInstance(Op op, Shape out, OpParams params, const HostImpl& impl)
        : op_(op), params_(std::move(params)), impl_(impl), out_(out.rows, out.cols) {}
    void upload(const Matrix& input) override { in_ = input; }
    void poison() override { std::fill(out_.data(), out_.data() + out_.size(), std::nanf("")); }
    void launch(cudaStream_t) override {
        if (typed_in_) {
            host_loops::run_typed(op_, *typed_in_, params_, typed_out_);
            return;
        }
        impl_.run(in_, out_, params_);
    }
    Matrix download() override { return out_; }

    void upload_typed(const AnyImage& input) override {
        typed_in_ = input;
        typed_out_ = host_loops::typed_output(op_, input, params_);
    }
    void poison_bytes(std::uint8_t byte) override {
        std::visit(
            [&](auto& image) {
                std::memset(image.data(), byte, image.size() * sizeof(image.data()[0]));
            },
            typed_out_);
    }
    AnyImage download_typed() override { return typed_out_; }

private:
    Op op_;
    OpParams params_;
    const HostImpl& impl_;  // lives in the operation table, which outlives every instance
    Matrix in_, out_;
    std::optional<AnyImage> typed_in_;
    AnyImage typed_out_;
};

}  // namespace

void register_cpu_variants(Registry& registry) {
    for (const OpDesc* desc : op_table()) {
        for (const HostImpl& impl : desc->host) {
            VariantInfo info;
            info.id = std::string(desc->op.name()) + "/" + impl.name;
            info.op = desc->op;
            info.memory_space = space::host;
            info.description = impl.description;
            info.gpu = false;
            info.chain = impl.chain;
            if (impl.name == "cpu-naive" && typed::has_typed_semantics(desc->op)) {
                info.types = {ElemType::u8, ElemType::u16, ElemType::f32};
                info.channels = {1, 3, 4};
                info.description +=
                    " u8 and u16 through plain integer loops, grey or colour (3 or 4 interleaved "
                    "channels, each on its own).";
            }
            const Op op = desc->op;
            registry.add({info, [op, &impl](Shape in, const OpParams& params) {
                              return std::make_unique<HostInstance>(
                                  op, output_shape(op, in, params), params, impl);
                          }});
        }
    }
}

}  // namespace coalesce
