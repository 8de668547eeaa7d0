// Host variants: a naive loop and a cache-blocked one per operation, so every front end does its job
// on a machine without a GPU, and so a GPU's figures can be set beside the host's.
#include "coalesce/registry.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

namespace coalesce {
namespace {

using HostKernel = std::function<void(const Matrix& in, Matrix& out, const OpParams& params)>;

class HostInstance final : public Instance {
public:
    HostInstance(Op op, Shape in, OpParams params, HostKernel kernel)
        : params_(params), kernel_(std::move(kernel)) {
        const Shape out = output_shape(op, in);
        out_ = Matrix(out.rows, out.cols);
    }
    void upload(const Matrix& input) override { in_ = input; }
    void poison() override { std::fill(out_.data(), out_.data() + out_.size(), std::nanf("")); }
    void launch(cudaStream_t) override { kernel_(in_, out_, params_); }
    Matrix download() override { return out_; }

private:
    OpParams params_;
    HostKernel kernel_;
    Matrix in_, out_;
};

constexpr std::size_t kBlock = 64;  // 64x64 floats = 16 KiB: a tile of input and output fit in L1

long long clamp_index(long long i, long long n, Border b) { return border_index(i, n, b); }

float read_or_zero(const float* line, long long j, std::size_t stride) {
    return j < 0 ? 0.0f : line[j * static_cast<long long>(stride)];
}

// ---- naive: the textbook loop nests, in the order the formula reads.
void copy_naive(const Matrix& in, Matrix& out, const OpParams&) {
    for (std::size_t r = 0; r < in.rows(); ++r)
        for (std::size_t c = 0; c < in.cols(); ++c) out.at(r, c) = in.at(r, c);
}
void transpose_naive(const Matrix& in, Matrix& out, const OpParams&) {
    for (std::size_t r = 0; r < in.rows(); ++r)
        for (std::size_t c = 0; c < in.cols(); ++c) out.at(c, r) = in.at(r, c);
}
void row_sums_naive(const Matrix& in, Matrix& out, const OpParams&) {
    for (std::size_t r = 0; r < in.rows(); ++r) {
        float sum = 0.0f;
        for (std::size_t c = 0; c < in.cols(); ++c) sum += in.at(r, c);
        out.at(r, 0) = sum;
    }
}
void col_sums_naive(const Matrix& in, Matrix& out, const OpParams&) {
    // Walks down each column: one cache line fetched per element, the host's uncoalesced lesson.
    for (std::size_t c = 0; c < in.cols(); ++c) {
        float sum = 0.0f;
        for (std::size_t r = 0; r < in.rows(); ++r) sum += in.at(r, c);
        out.at(0, c) = sum;
    }
}
void filter_naive(const Matrix& in, Matrix& out, const OpParams& p, bool along_x) {
    const long long rows = static_cast<long long>(in.rows()), cols = static_cast<long long>(in.cols());
    const float scale = 1.0f / static_cast<float>(2 * p.radius + 1);
    for (long long r = 0; r < rows; ++r)
        for (long long c = 0; c < cols; ++c) {
            float sum = 0.0f;
            for (long long k = -p.radius; k <= p.radius; ++k) {
                if (along_x) {
                    const long long j = clamp_index(c + k, cols, p.border);
                    sum += read_or_zero(in.row(static_cast<std::size_t>(r)), j, 1);
                } else {
                    const long long j = clamp_index(r + k, rows, p.border);
                    sum += read_or_zero(in.data() + c, j, in.cols());
                }
            }
            out.at(static_cast<std::size_t>(r), static_cast<std::size_t>(c)) = sum * scale;
        }
}

// ---- blocked: the same arithmetic in an order that keeps the caches busy.
void copy_blocked(const Matrix& in, Matrix& out, const OpParams&) {
    std::copy(in.data(), in.data() + in.size(), out.data());
}
void transpose_blocked(const Matrix& in, Matrix& out, const OpParams&) {
    for (std::size_t r0 = 0; r0 < in.rows(); r0 += kBlock)
        for (std::size_t c0 = 0; c0 < in.cols(); c0 += kBlock) {
            const std::size_t r1 = std::min(in.rows(), r0 + kBlock), c1 = std::min(in.cols(), c0 + kBlock);
            for (std::size_t r = r0; r < r1; ++r)
                for (std::size_t c = c0; c < c1; ++c) out.at(c, r) = in.at(r, c);
        }
}
void row_sums_blocked(const Matrix& in, Matrix& out, const OpParams&) {
    // Eight independent partial sums let the compiler vectorize without reassociating a single chain.
    for (std::size_t r = 0; r < in.rows(); ++r) {
        float part[8] = {};
        const float* row = in.row(r);
        std::size_t c = 0;
        for (; c + 8 <= in.cols(); c += 8)
            for (int k = 0; k < 8; ++k) part[k] += row[c + k];
        float sum = 0.0f;
        for (float s : part) sum += s;
        for (; c < in.cols(); ++c) sum += row[c];
        out.at(r, 0) = sum;
    }
}
void col_sums_blocked(const Matrix& in, Matrix& out, const OpParams&) {
    // Row by row: each input line is read once, contiguously, into a row of running sums.
    std::fill(out.data(), out.data() + out.size(), 0.0f);
    for (std::size_t r = 0; r < in.rows(); ++r) {
        const float* row = in.row(r);
        float* sums = out.data();
        for (std::size_t c = 0; c < in.cols(); ++c) sums[c] += row[c];
    }
}
void filter_x_blocked(const Matrix& in, Matrix& out, const OpParams& p) {
    // Copies each row with its halo into a padded line once, so the inner loop has no border branches.
    const long long cols = static_cast<long long>(in.cols());
    const float scale = 1.0f / static_cast<float>(2 * p.radius + 1);
    std::vector<float> line(static_cast<std::size_t>(cols + 2 * p.radius));
    for (std::size_t r = 0; r < in.rows(); ++r) {
        const float* row = in.row(r);
        for (long long i = 0; i < cols + 2 * p.radius; ++i)
            line[static_cast<std::size_t>(i)] = read_or_zero(row, clamp_index(i - p.radius, cols, p.border), 1);
        for (long long c = 0; c < cols; ++c) {
            float sum = 0.0f;
            for (long long k = 0; k <= 2 * p.radius; ++k) sum += line[static_cast<std::size_t>(c + k)];
            out.at(r, static_cast<std::size_t>(c)) = sum * scale;
        }
    }
}
void filter_y_blocked(const Matrix& in, Matrix& out, const OpParams& p) {
    // Accumulates whole rows: each term adds a contiguous input row to a contiguous output row.
    const long long rows = static_cast<long long>(in.rows());
    const std::size_t cols = in.cols();
    const float scale = 1.0f / static_cast<float>(2 * p.radius + 1);
    std::vector<float> acc(cols);
    for (long long r = 0; r < rows; ++r) {
        std::fill(acc.begin(), acc.end(), 0.0f);
        for (long long k = -p.radius; k <= p.radius; ++k) {
            const long long j = clamp_index(r + k, rows, p.border);
            if (j < 0) continue;
            const float* src = in.row(static_cast<std::size_t>(j));
            for (std::size_t c = 0; c < cols; ++c) acc[c] += src[c];
        }
        float* dst = out.row(static_cast<std::size_t>(r));
        for (std::size_t c = 0; c < cols; ++c) dst[c] = acc[c] * scale;
    }
}

void add_host(Registry& registry, Op op, const char* name, const char* description, HostKernel kernel) {
    VariantInfo info;
    info.id = std::string(op_name(op)) + "/" + name;
    info.op = op;
    info.memory_space = space::host;
    info.description = description;
    info.gpu = false;
    registry.add({info, [op, kernel](Shape in, const OpParams& params) -> std::unique_ptr<Instance> {
                      return std::make_unique<HostInstance>(op, in, params, kernel);
                  }});
}

}  // namespace

void register_cpu_variants(Registry& registry) {
    add_host(registry, Op::copy, "cpu-naive", "Host loop, element by element: the host's baseline.", copy_naive);
    add_host(registry, Op::copy, "cpu-blocked", "Host std::copy: the memcpy the host copy figure is measured with.", copy_blocked);
    add_host(registry, Op::transpose, "cpu-naive",
             "Host loop writing down columns: every write touches a new cache line.", transpose_naive);
    add_host(registry, Op::transpose, "cpu-blocked",
             "Host transpose in 64x64 blocks: a block of input and output stays in L1.", transpose_blocked);
    add_host(registry, Op::row_sums, "cpu-naive", "Host loop with one running sum per row: a serial add chain.", row_sums_naive);
    add_host(registry, Op::row_sums, "cpu-blocked",
             "Host row sums with eight partial sums: independent adds the compiler vectorizes.", row_sums_blocked);
    add_host(registry, Op::col_sums, "cpu-naive",
             "Host loop walking down each column: a cache line fetched for every element.", col_sums_naive);
    add_host(registry, Op::col_sums, "cpu-blocked",
             "Host column sums row by row into a line of running sums: every read is contiguous.", col_sums_blocked);
    add_host(registry, Op::filter_x, "cpu-naive", "Host box filter with a border check on every read.",
             [](const Matrix& in, Matrix& out, const OpParams& p) { filter_naive(in, out, p, true); });
    add_host(registry, Op::filter_x, "cpu-blocked",
             "Host box filter over a padded copy of each row: no border branches in the inner loop.", filter_x_blocked);
    add_host(registry, Op::filter_y, "cpu-naive",
             "Host box filter reading down columns: a strided access for every term.",
             [](const Matrix& in, Matrix& out, const OpParams& p) { filter_naive(in, out, p, false); });
    add_host(registry, Op::filter_y, "cpu-blocked",
             "Host box filter adding whole rows: contiguous reads and writes for every term.", filter_y_blocked);
}

}  // namespace coalesce
