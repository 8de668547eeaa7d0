#include "warp_view.hpp"

#include <QLocale>
#include <QStringList>

#include <stdexcept>

namespace coalesce::gui {
namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString percent(double fraction) {
    return QLocale::c().toString(100.0 * fraction, 'f', 1) + QStringLiteral(" %");
}

// The parameters the runner handed the variant's model for this result.
OpParams params_of(Op op, const RunResult& r) {
    OpParams params;
    params.radius = r.radius;
    if (const auto border = parse_border(r.border)) params.border = *border;
    params.values = r.params;
    return resolved_params(op, params);
}

void add_requests(std::vector<WarpRequestView>& out, const std::vector<WarpRequest>& requests,
                  WarpRequestView::Memory memory) {
    int loads = 0, stores = 0;
    for (const WarpRequest& r : requests) ++(r.store ? stores : loads);
    int load = 0, store = 0;
    const char* where = memory == WarpRequestView::Memory::global   ? "global"
                        : memory == WarpRequestView::Memory::shared ? "shared"
                                                                    : "constant";
    for (const WarpRequest& r : requests) {
        WarpRequestView v;
        v.memory = memory;
        v.request = r;
        const int index = r.store ? ++store : ++load;
        const int of = r.store ? stores : loads;
        v.label = QStringLiteral("%1 %2 %3 of %4")
                      .arg(QLatin1String(where), r.store ? "store" : "load")
                      .arg(index)
                      .arg(of);
        v.cost = request_cost(r);
        const QString lanes =
            QStringLiteral("%1 lanes × %2 bytes").arg(r.active_lanes).arg(r.bytes_per_lane);
        switch (memory) {
        case WarpRequestView::Memory::global: {
            const long long moved = static_cast<long long>(v.cost.sectors) * kSectorBytes;
            v.efficiency =
                moved > 0 ? static_cast<double>(v.cost.useful_bytes) / static_cast<double>(moved)
                          : 1.0;
            v.summary = QStringLiteral(
                            "%1: %2 sectors of 32 bytes in %3 lines of 128 bytes; %4 useful "
                            "bytes of %5 moved: efficiency %6")
                            .arg(lanes)
                            .arg(v.cost.sectors)
                            .arg(v.cost.lines)
                            .arg(v.cost.useful_bytes)
                            .arg(moved)
                            .arg(percent(v.efficiency));
            break;
        }
        case WarpRequestView::Memory::shared:
            v.conflict_degree = bank_conflict_degree(r);
            for (int lane = 0; lane < 32; ++lane)
                v.lane_bank[static_cast<std::size_t>(lane)] =
                    bank_of(r.offsets[static_cast<std::size_t>(lane)]);
            v.summary = v.conflict_degree <= 1
                            ? QStringLiteral("%1: conflict-free (1-way), one pass").arg(lanes)
                            : QStringLiteral(
                                  "%1: %2-way bank conflict: the busiest bank holds %2 distinct "
                                  "words, served one after another")
                                  .arg(lanes)
                                  .arg(v.conflict_degree);
            break;
        case WarpRequestView::Memory::constant:
            v.distinct_words = distinct_words(r);
            v.summary =
                QStringLiteral("%1: %2 distinct address(es): %2 pass(es) of the constant cache")
                    .arg(lanes)
                    .arg(v.distinct_words);
            break;
        }
        out.push_back(std::move(v));
    }
}

}  // namespace

WarpView warp_view(const Registry& registry, const RunResult& result) {
    WarpView view;
    QStringList title{qs(result.variant)};
    for (const auto& [name, value] : result.params)
        title << QStringLiteral("%1=%2").arg(qs(name)).arg(value);
    title << QStringLiteral("%1×%2").arg(result.rows).arg(result.cols);
    view.title = title.join(QStringLiteral(", "));

    const Variant* variant = registry.find(result.variant);
    if (!variant) {
        view.message =
            QStringLiteral("%1 is not a variant this window has loaded.").arg(qs(result.variant));
        return view;
    }
    const VariantInfo& info = variant->info;
    if (!info.access && !info.shared_access && !info.constant_access) {
        view.message = QStringLiteral("%1 declares no warp for the sector or bank model.")
                           .arg(qs(result.variant));
        return view;
    }
    const Shape shape{result.rows, result.cols};
    try {
        const OpParams params = params_of(info.op, result);
        if (info.access)
            add_requests(view.requests, info.access(shape, params),
                         WarpRequestView::Memory::global);
        const std::size_t first_shared = view.requests.size();
        if (info.shared_access)
            add_requests(view.requests, info.shared_access(shape, params),
                         WarpRequestView::Memory::shared);
        if (info.constant_access)
            add_requests(view.requests, info.constant_access(shape, params),
                         WarpRequestView::Memory::constant);
        // Shared memory opens on its worst request: the degree the table shows.
        int worst = 0;
        for (std::size_t i = first_shared; i < view.requests.size(); ++i)
            if (view.requests[i].memory == WarpRequestView::Memory::shared &&
                view.requests[i].conflict_degree > worst) {
                worst = view.requests[i].conflict_degree;
                view.shown = static_cast<int>(i);
            }
    } catch (const std::exception& e) {
        view.requests.clear();
        view.message = QStringLiteral("No warp for %1: %2").arg(qs(result.variant), e.what());
        return view;
    }
    if (view.requests.empty())
        view.message = QStringLiteral("%1 declares an empty warp.").arg(qs(result.variant));
    return view;
}

}  // namespace coalesce::gui
