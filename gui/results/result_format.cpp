#include "result_format.hpp"

#include "coalesce/operation.hpp"

#include <QLocale>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>

namespace coalesce::gui {

QString formatShape(std::size_t rows, std::size_t cols) {
    return QStringLiteral("%1×%2").arg(rows).arg(cols);
}

QString formatMs(double ms) {
    // Milliseconds span 1e-3 (small CPU runs) to seconds: keep four significant digits.
    return QLocale::c().toString(ms, 'g', 4);
}

QString formatGbps(double gbps) {
    QLocale locale = QLocale::c();
    locale.setNumberOptions(QLocale::DefaultNumberOptions);  // C locale alone drops the separator
    return locale.toString(gbps, 'f', 1);
}

QString formatPercent(double pct) {
    return QLocale::c().toString(pct, 'f', 1) + QStringLiteral(" %");
}

QString formatError(double max_abs_error) {
    if (max_abs_error == 0.0) return QStringLiteral("0");
    return QLocale::c().toString(max_abs_error, 'g', 3);
}

QString deviceLabel(const DeviceInfo& device) {
    if (device.name.empty()) return QStringLiteral("unknown device");
    return QString::fromStdString(device.name);
}

bool isPlottable(const RunResult& result) {
    return result.status == Status::ok && result.verified && std::isfinite(result.gbps) &&
           result.gbps > 0.0;
}

int opOrder(const std::string& op) {
    const auto parsed = parse_op(op);
    if (!parsed) return static_cast<int>(all_ops().size());
    const auto& ops = all_ops();
    for (std::size_t i = 0; i < ops.size(); ++i)
        if (ops[i] == *parsed) return static_cast<int>(i);
    return static_cast<int>(ops.size());
}

double inputMebibytes(const RunResult& result) {
    const auto type = parse_elem_type(result.type);
    const double bytes = static_cast<double>(elem_size(type.value_or(ElemType::f32))) *
                         static_cast<double>(std::max(result.channels, 1));
    return static_cast<double>(result.rows) * static_cast<double>(result.cols) * bytes /
           (1024.0 * 1024.0);
}

bool severalTypes(const std::vector<RunResult>& runs) {
    return std::any_of(runs.begin(), runs.end(), [&](const RunResult& r) {
        return type_label(r) != type_label(runs.front());
    });
}

std::string seriesName(const RunResult& result, bool with_type) {
    return with_type ? result.variant + " (" + type_label(result) + ")" : result.variant;
}

void addTypeLabel(QStringList& labels, const RunResult& result) {
    const QString label = QString::fromStdString(type_label(result));
    if (!labels.contains(label)) labels.push_back(label);
}

QString typesText(const QStringList& labels) {
    return labels == QStringList{QStringLiteral("f32")} ? QStringLiteral("float32")
                                                        : labels.join(QStringLiteral(", "));
}

std::vector<Shape> sizesOf(const std::vector<RunResult>& runs,
                           const std::function<bool(const RunResult&)>& keep) {
    std::vector<Shape> sizes;
    for (const RunResult& r : runs) {
        const Shape s{r.rows, r.cols};
        if (keep(r) && std::find(sizes.begin(), sizes.end(), s) == sizes.end()) sizes.push_back(s);
    }
    std::sort(sizes.begin(), sizes.end(), [](const Shape& a, const Shape& b) {
        return std::make_tuple(a.elements(), a.rows) < std::make_tuple(b.elements(), b.rows);
    });
    return sizes;
}

Shape chosenSize(const std::vector<Shape>& sizes, const std::optional<Shape>& requested) {
    if (requested && std::find(sizes.begin(), sizes.end(), *requested) != sizes.end())
        return *requested;
    return sizes.empty() ? Shape{} : sizes.back();
}

std::vector<std::size_t> opOrdered(const std::vector<RunResult>& runs) {
    std::vector<std::size_t> order(runs.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return opOrder(runs[a].op) < opOrder(runs[b].op);
    });
    return order;
}

}  // namespace coalesce::gui
