// A host copy that runner tests drive: each launch copies the input to the output (all but the
// last element when told to forget it, which verification must catch), counts itself and calls
// an optional hook (a Ctrl-C arriving after the Nth launch, say).
#pragma once

#include "coalesce/matrix.hpp"
#include "coalesce/variant.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>

namespace coalesce::test {

class HostCopy final : public Instance {
public:
    // after_launch(n) runs after the n-th launch (1-based), the verification launch included.
    explicit HostCopy(std::function<void(int)> after_launch = {}, bool forget_last = false)
        : after_launch_(std::move(after_launch)), forget_last_(forget_last) {}

    void upload(const Matrix& input) override {
        in_ = input;
        out_ = Matrix(input.rows(), input.cols());
    }
    void poison() override { std::fill(out_.data(), out_.data() + out_.size(), std::nanf("")); }
    void launch(cudaStream_t) override {
        const std::size_t n = in_.size() - (forget_last_ && in_.size() > 0 ? 1 : 0);
        std::copy(in_.data(), in_.data() + n, out_.data());
        ++launches;
        if (after_launch_) after_launch_(launches);
    }
    Matrix download() override { return out_; }

    int launches = 0;

private:
    std::function<void(int)> after_launch_;
    bool forget_last_;
    Matrix in_, out_;
};

}  // namespace coalesce::test
