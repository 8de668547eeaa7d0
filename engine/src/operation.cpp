// What every operation shares: lookups in the table, parameter checks, verification.
#include "coalesce/operation.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace coalesce {

long long OpParams::value(std::string_view name) const {
    const auto it = values.find(name);
    if (it == values.end())
        throw std::invalid_argument("parameter '" + std::string(name) + "' is not set");
    return it->second;
}

const OpDesc& describe(Op op) {
    for (const OpDesc* d : op_table())
        if (d->op == op) return *d;
    throw std::invalid_argument("unknown operation '" + std::string(op.name()) + "'");
}

std::vector<Op> all_ops() {
    std::vector<Op> ops;
    for (const OpDesc* d : op_table()) ops.push_back(d->op);
    return ops;
}

const std::vector<Border>& all_borders() {
    static const std::vector<Border> borders = {Border::clamp, Border::zero, Border::wrap,
                                                Border::mirror};
    return borders;
}

std::string_view op_name(Op op) { return op.name(); }

std::string_view border_name(Border b) {
    switch (b) {
    case Border::clamp: return "clamp";
    case Border::zero: return "zero";
    case Border::wrap: return "wrap";
    case Border::mirror: return "mirror";
    }
    return "?";
}

namespace {

std::string normalized(std::string_view name) {
    std::string s;
    for (char ch : name) {
        if (ch == '-' || ch == ' ') ch = '_';
        s += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    }
    return s;
}

}  // namespace

std::optional<Op> parse_op(std::string_view name) {
    const std::string n = normalized(name);
    for (const OpDesc* d : op_table()) {
        if (n == d->op.name()) return d->op;
        for (const std::string& alias : d->aliases)
            if (n == alias) return d->op;
    }
    return std::nullopt;
}

std::optional<Border> parse_border(std::string_view name) {
    const std::string n = normalized(name);
    for (Border b : all_borders())
        if (n == border_name(b)) return b;
    if (n == "border" || n == "constant") return Border::zero;
    if (n == "reflect") return Border::mirror;
    return std::nullopt;
}

bool is_filter(Op op) { return describe(op).filter; }

OpParams resolved_params(Op op, const OpParams& params) {
    const OpDesc& d = describe(op);
    if (d.filter && (params.radius < 0 || params.radius > kMaxRadius))
        throw std::invalid_argument("radius " + std::to_string(params.radius) +
                                    " is out of range 0.." + std::to_string(kMaxRadius));
    OpParams out = params;
    out.values.clear();
    for (const auto& [name, value] : params.values) {
        const auto spec = std::find_if(d.params.begin(), d.params.end(),
                                       [&](const ParamSpec& p) { return p.name == name; });
        if (spec == d.params.end()) continue;  // another operation's parameter in a shared config
        if (value < spec->min || value > spec->max)
            throw std::invalid_argument("parameter " + name + "=" + std::to_string(value) +
                                        " is out of range " + std::to_string(spec->min) + ".." +
                                        std::to_string(spec->max) + " for " +
                                        std::string(op.name()));
        out.values[name] = value;
    }
    for (const ParamSpec& spec : d.params) out.values.emplace(spec.name, spec.default_value);
    return out;
}

std::string input_problem(Op op, Shape input, const OpParams& params) {
    const OpDesc& d = describe(op);
    return d.check ? d.check(input, resolved_params(op, params)) : std::string();
}

namespace {

long long parse_whole(std::string_view text, std::string_view axis) {
    const std::string s(text);
    std::size_t used = 0;
    long long v = 0;
    try {
        v = std::stoll(s, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (s.empty() || used != s.size())
        throw std::invalid_argument("parameter '" + std::string(axis) + "': '" + s +
                                    "' is not a whole number");
    return v;
}

}  // namespace

ParamAxis parse_param_axis(std::string_view text) {
    const std::size_t eq = text.find('=');
    if (eq == std::string_view::npos || eq == 0)
        throw std::invalid_argument("parameter '" + std::string(text.substr(0, 64)) +
                                    "': expected NAME=FIRST:LAST[:STEP] or NAME=V1,V2,...");
    ParamAxis axis{std::string(text.substr(0, eq)), {}};
    const std::string_view spec = text.substr(eq + 1);
    constexpr std::size_t kMaxValues = 4096;
    if (spec.find(':') != std::string_view::npos) {
        const std::size_t c1 = spec.find(':');
        const std::size_t c2 = spec.find(':', c1 + 1);
        const long long first = parse_whole(spec.substr(0, c1), axis.name);
        const long long last =
            parse_whole(spec.substr(c1 + 1, c2 == std::string_view::npos ? std::string_view::npos
                                                                         : c2 - c1 - 1),
                        axis.name);
        const long long step =
            c2 == std::string_view::npos ? 1 : parse_whole(spec.substr(c2 + 1), axis.name);
        if (step <= 0 || last < first)
            throw std::invalid_argument("parameter '" + axis.name +
                                        "': a range needs FIRST <= LAST and a positive STEP");
        if ((last - first) / step + 1 > static_cast<long long>(kMaxValues))
            throw std::invalid_argument("parameter '" + axis.name + "': more than 4096 values");
        for (long long v = first; v <= last; v += step) axis.values.push_back(v);
    } else {
        std::size_t begin = 0;
        while (begin <= spec.size()) {
            const std::size_t end = std::min(spec.find(',', begin), spec.size());
            axis.values.push_back(parse_whole(spec.substr(begin, end - begin), axis.name));
            if (axis.values.size() > kMaxValues)
                throw std::invalid_argument("parameter '" + axis.name + "': more than 4096 values");
            begin = end + 1;
        }
    }
    return axis;
}

std::vector<ParamValues> param_combinations(Op op, const std::vector<ParamAxis>& axes) {
    const OpDesc& d = describe(op);
    std::vector<ParamValues> combos{ParamValues{}};
    for (const ParamAxis& axis : axes) {
        const bool declared = std::any_of(d.params.begin(), d.params.end(),
                                          [&](const ParamSpec& p) { return p.name == axis.name; });
        if (!declared) continue;
        std::vector<ParamValues> next;
        for (const ParamValues& combo : combos)
            for (long long v : axis.values) {
                ParamValues c = combo;
                c[axis.name] = v;
                next.push_back(std::move(c));
            }
        combos = std::move(next);
    }
    return combos;
}

// The descriptors' functions always see resolved parameters (defaults filled in).
Shape output_shape(Op op, Shape in, const OpParams& params) {
    return describe(op).output_shape(in, resolved_params(op, params));
}

std::size_t bytes_moved(Op op, Shape in, const OpParams& params) {
    return describe(op).bytes_moved(in, resolved_params(op, params));
}

Reference cpu_reference(Op op, const Matrix& in, const OpParams& params) {
    return describe(op).reference(in, resolved_params(op, params));
}

double tolerance_factor(std::size_t chain) {
    constexpr double u = 0x1p-24;  // unit roundoff of float32 (round to nearest)
    const double ku = static_cast<double>(chain) * u;
    if (ku >= 0.5) return 1.0;  // a chain this long bounds nothing useful: any value within |terms|
    return ku / (1.0 - ku) + 4.0 * u;
}

Verification verify(Op op, const Reference& ref, const Matrix& out,
                    std::optional<std::size_t> chain) {
    Verification v;
    if (out.shape() != ref.value.shape()) {
        std::ostringstream msg;
        msg << "output is " << out.rows() << "x" << out.cols() << ", expected " << ref.value.rows()
            << "x" << ref.value.cols();
        v.message = msg.str();
        return v;
    }
    const bool exact = describe(op).exact;
    const std::size_t links = chain.value_or(ref.terms > 0 ? ref.terms - 1 : 0);
    v.tolerance_factor = exact ? 0.0 : tolerance_factor(links);
    for (std::size_t i = 0; i < out.size(); ++i) {
        const double got = out.data()[i];
        const double want = ref.value.data()[i];
        if (std::isnan(want)) continue;  // not defined by the operation
        const double err = std::fabs(got - want);
        double tol = v.tolerance_factor * ref.magnitude.data()[i];
        if (!ref.allowance.empty()) tol += ref.allowance.data()[i];
        if ((std::isnan(got) || err > tol) && v.message.empty()) {
            std::ostringstream msg;
            msg.precision(9);
            msg << "element (" << i / out.cols() << ", " << i % out.cols() << "): got " << got
                << ", expected " << want;
            if (std::isnan(got))
                msg << " (NaN: never written, or computed from NaN)";
            else if (!exact)
                msg << " (error " << err << " > tolerance " << tol << " for chains of " << links
                    << " additions)";
            v.message = msg.str();
        }
        if (!std::isnan(got)) v.max_abs_error = std::max(v.max_abs_error, err);
    }
    v.ok = v.message.empty();
    return v;
}

}  // namespace coalesce
