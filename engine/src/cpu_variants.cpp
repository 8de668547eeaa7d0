// Host variants: the plain loop nests each operation's descriptor lists (a naive one and a
// cache-blocked one per operation), so every front end does its job on a machine without a GPU,
// and so a GPU's figures can be set beside the host's.
#include "coalesce/registry.hpp"

#include <algorithm>
#include <cmath>

namespace coalesce {
namespace {

class HostInstance final : public Instance {
public:
    HostInstance(Shape out, OpParams params, const HostImpl& impl)
        : params_(std::move(params)), impl_(impl), out_(out.rows, out.cols) {}
    void upload(const Matrix& input) override { in_ = input; }
    void poison() override { std::fill(out_.data(), out_.data() + out_.size(), std::nanf("")); }
    void launch(cudaStream_t) override { impl_.run(in_, out_, params_); }
    Matrix download() override { return out_; }

private:
    OpParams params_;
    const HostImpl& impl_;  // lives in the operation table, which outlives every instance
    Matrix in_, out_;
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
            const Op op = desc->op;
            registry.add({info, [op, &impl](Shape in, const OpParams& params) {
                              return std::make_unique<HostInstance>(output_shape(op, in, params),
                                                                    params, impl);
                          }});
        }
    }
}

}  // namespace coalesce
