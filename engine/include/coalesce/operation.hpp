// The operations Coalesce measures, described as data: one OpDesc per operation (name, aliases,
// output shape, bytes-moved model, CPU reference, exactness, the parameters it takes, its host
// variants), all in one table that the engine, the CLI's help, the window and the tests read.
// A new operation is its descriptor in engine/src/ops/<name>.cpp, its kernels in
// kernels/<name>.cu and one line in cmake/operations.cmake.
#pragma once

#include "coalesce/matrix.hpp"

#include <compare>
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace coalesce {

// An operation, named. Values compare by name; the six built-in ones have constants
// (Op::transpose, ...). A name read at run time becomes an Op through parse_op(), which returns
// the table's own Op, so an Op never refers to a string that could go away.
class Op {
public:
    constexpr Op() = default;
    // `name` must outlive every copy: a string literal or a descriptor's name.
    constexpr explicit Op(std::string_view name) : name_(name) {}
    constexpr std::string_view name() const { return name_; }
    friend constexpr bool operator==(Op a, Op b) { return a.name_ == b.name_; }
    friend constexpr std::strong_ordering operator<=>(Op a, Op b) {
        return a.name_.compare(b.name_) <=> 0;
    }

    static const Op copy, transpose, row_sums, col_sums, filter_x, filter_y;

private:
    std::string_view name_ = "copy";
};
inline constexpr Op Op::copy{"copy"};
inline constexpr Op Op::transpose{"transpose"};
inline constexpr Op Op::row_sums{"row_sums"};
inline constexpr Op Op::col_sums{"col_sums"};
inline constexpr Op Op::filter_x{"filter_x"};
inline constexpr Op Op::filter_y{"filter_y"};

// What a filter reads outside the matrix. clamp repeats the edge; zero reads 0; wrap is periodic;
// mirror reflects with the edge repeated (… c b a | a b c …): CUDA's cudaAddressModeMirror and
// OpenCV's BORDER_REFLECT (abcd|dcba), not BORDER_REFLECT_101.
enum class Border { clamp, zero, wrap, mirror };

inline constexpr int kMaxRadius = 64;  // filters accept radius 0..kMaxRadius

struct OpParams {
    int radius = 4;  // filters: mean of the 2r+1 neighbours
    Border border = Border::clamp;
    // Named integer parameters of operations that declare them (offset, stride, ...). The runner
    // fills in each declared parameter's default before a variant sees the params.
    std::map<std::string, long long, std::less<>> values{};

    // The value of a declared parameter; throws std::invalid_argument naming it when absent.
    long long value(std::string_view name) const;
};

// CPU reference in double. `magnitude` receives, per output element, the sum of |terms| that built
// it (times the filters' scale): the scale of the rounding error a float32 implementation makes.
struct Reference {
    Matrix value;
    Matrix magnitude;
    std::size_t terms = 1;  // number of summands per output element
    // Per output element, an absolute error the operation allows beyond rounding: a hardware path
    // specified only to a documented precision (the texture unit's 8-bit interpolation weights).
    // Empty: none.
    Matrix allowance{};
};

// A named integer parameter an operation takes, swept with `--param name=...`.
struct ParamSpec {
    std::string name;  // "offset"
    long long min = 0;
    long long max = 0;
    long long default_value = 0;
    std::string help;  // "elements the read is shifted by"
};

// One host implementation of an operation: a plain loop nest the CPU runs. Registered for every
// operation that has them as "<op>/<name>" in the host memory space.
struct HostImpl {
    std::string name;         // "cpu-naive"
    std::string description;  // what it demonstrates
    std::function<void(const Matrix& in, Matrix& out, const OpParams& params)> run;
    // Longest chain of float32 additions behind one output (see verify); empty: sequential.
    std::function<std::size_t(Shape input, std::size_t terms)> chain;
};

// Values one parameter takes in a sweep: each combination of the axes is a run.
struct ParamAxis {
    std::string name;
    std::vector<long long> values;
};
// Parses "offset=0:32" (inclusive range), "offset=0:32:4" (with a step) or "stride=1,2,4,8";
// throws std::invalid_argument naming the parameter and what is wrong.
ParamAxis parse_param_axis(std::string_view text);
// The named values one run of `op` sees: the cartesian product of the axes the operation declares
// (one empty combination when it declares none of them).
using ParamValues = std::map<std::string, long long, std::less<>>;
std::vector<ParamValues> param_combinations(Op op, const std::vector<ParamAxis>& axes);

struct OpDesc {
    Op op;
    std::vector<std::string> aliases;  // other spellings parse_op accepts ("rowsums")
    std::string summary;               // one line for --help, tooltips and lists
    bool filter = false;               // takes a radius and a border mode
    bool exact = false;                // verified bit for bit (else within rounding, see verify)
    std::vector<ParamSpec> params;     // named parameters beyond radius and border
    std::function<Shape(Shape input, const OpParams& params)> output_shape;
    // Bytes the operation must move at least: each input element it needs read once plus each
    // output element written once. [bytes]
    std::function<std::size_t(Shape input, const OpParams& params)> bytes_moved;
    std::function<Reference(const Matrix& input, const OpParams& params)> reference;
    std::vector<HostImpl> host;  // host variants (run anywhere)
    // Why an input shape cannot take these parameters (a stride past the end of the buffer, say);
    // empty when it can. Optional.
    std::function<std::string(Shape input, const OpParams& params)> check{};
    // Element loads one launch performs, for operations timed per access (constant memory): the
    // runner reports the time per warp-wide load. Optional.
    std::function<double(Shape input, const OpParams& params)> accesses{};
};

// The table, in the order users see the operations.
const std::vector<const OpDesc*>& op_table();
// The descriptor of `op`; throws std::invalid_argument for an operation not in the table.
const OpDesc& describe(Op op);

std::vector<Op> all_ops();
const std::vector<Border>& all_borders();
std::string_view op_name(Op op);                    // "copy", "transpose", "row_sums", ...
std::string_view border_name(Border b);             // "clamp", "zero", "wrap", "mirror"
std::optional<Op> parse_op(std::string_view name);  // names and aliases; '-' and ' ' read as '_'
std::optional<Border> parse_border(std::string_view name);
bool is_filter(Op op);

// Parameters as the operation will see them: declared parameters' defaults filled in, parameters
// it does not declare dropped. Throws std::invalid_argument naming the parameter for a value out of
// its range, and for a radius outside 0..kMaxRadius on a filter.
OpParams resolved_params(Op op, const OpParams& params);

// Empty when `input` can run with `params`; otherwise why not (the descriptor's check).
std::string input_problem(Op op, Shape input, const OpParams& params);

Shape output_shape(Op op, Shape in, const OpParams& params = {});
std::size_t bytes_moved(Op op, Shape in, const OpParams& params = {});
inline constexpr const char* kBandwidthFormula =
    "gbps = bytes_moved / median_seconds / 1e9, bytes_moved = each input element the operation "
    "needs read once + each output element written once";

#if defined(__CUDACC__)
#define COALESCE_HOST_DEVICE __host__ __device__
#else
#define COALESCE_HOST_DEVICE
#endif

// Index of the element a filter reads at position i (may be outside [0, n)) for a border mode;
// -1 means "outside, reads zero" (Border::zero). One definition for the CPU reference and the GPU
// filters, so both read exactly the same neighbours; wrap and mirror are periodic, so radii wider
// than the line still land inside it.
COALESCE_HOST_DEVICE inline long long border_index(long long i, long long n, Border b) {
    if (i >= 0 && i < n) return i;
    switch (b) {
    case Border::clamp: return i < 0 ? 0 : n - 1;
    case Border::zero: return -1;
    case Border::wrap: return ((i % n) + n) % n;
    case Border::mirror: {
        const long long period = 2 * n;
        const long long m = ((i % period) + period) % period;
        return m < n ? m : period - 1 - m;
    }
    }
    return -1;
}

Reference cpu_reference(Op op, const Matrix& in, const OpParams& params);

// Verification: elements whose reference is NaN are not defined by the operation (a scatter leaves
// the slots between its strides alone) and are not checked. Exact for exact operations; otherwise,
// per element,
//   |out - ref| <= (gamma(chain) + 4u) * magnitude,  u = 2^-24, gamma(k) = k u / (1 - k u),
// where `chain` is the longest chain of float32 additions the variant performs for one output
// (a summation tree of height k errs by at most gamma(k) * sum|terms|: rigorous, whatever the
// values); 4u covers a filter's scaling, the scale's own rounding and the reference's rounding to
// float. A variant that sums sequentially has chain = terms - 1 (the default); tree reductions
// declare shorter chains, and a missing term is caught whenever it exceeds the bound. A
// reference's allowance, where it has one, is added to the bound element by element.
struct Verification {
    bool ok = false;
    double max_abs_error = 0.0;
    double tolerance_factor = 0.0;  // the bound's factor on magnitude
    std::string message;            // empty when ok; otherwise the first bad element and why
};
Verification verify(Op op, const Reference& ref, const Matrix& out,
                    std::optional<std::size_t> chain = std::nullopt);
double tolerance_factor(std::size_t chain);

}  // namespace coalesce
