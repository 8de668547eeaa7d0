// The "one warp" picture: the requests of the selected result's variant at its parameters, from the
// same builders the runner's model columns come from, with the sector or bank model's counts.
#include "results/results_model.hpp"
#include "results_page.hpp"
#include "warp_picture.hpp"
#include "warp_view.hpp"
#include "window_helpers.hpp"

#include "coalesce/kernels.hpp"

#include <QImage>

#include <gtest/gtest.h>

using namespace coalesce;
using namespace coalesce::gui;

namespace {

const Registry& builtin() {
    static const Registry registry = [] {
        Registry r;
        register_builtin_variants(r);
        return r;
    }();
    return registry;
}

RunResult result_of(const std::string& variant, const std::string& op, ParamValues params,
                    std::size_t rows = 64, std::size_t cols = 8192) {
    RunResult r;
    r.variant = variant;
    r.op = op;
    r.rows = rows;
    r.cols = cols;
    r.params = std::move(params);
    return r;
}

}  // namespace

TEST(WarpView, AnAlignedWarpTouchesFourSectorsAMisalignedOneFive) {
    const WarpView aligned =
        warp_view(builtin(), result_of("offset_read/global", "offset_read", {{"offset", 0}}));
    ASSERT_TRUE(aligned.message.isEmpty()) << aligned.message.toStdString();
    ASSERT_EQ(aligned.requests.size(), 2u);  // the load, then the store
    EXPECT_EQ(aligned.shown, 0);
    const WarpRequestView& load = aligned.requests[0];
    EXPECT_EQ(load.label, "global load 1 of 1");
    EXPECT_EQ(load.cost.sectors, 4);
    EXPECT_EQ(load.cost.lines, 1);
    EXPECT_DOUBLE_EQ(load.efficiency, 1.0);
    EXPECT_TRUE(aligned.title.contains("offset=0"));

    const WarpView misaligned =
        warp_view(builtin(), result_of("offset_read/global", "offset_read", {{"offset", 1}}));
    ASSERT_EQ(misaligned.requests.size(), 2u);
    EXPECT_EQ(misaligned.requests[0].cost.sectors, 5);
    EXPECT_EQ(misaligned.requests[0].cost.lines, 2);
    EXPECT_DOUBLE_EQ(misaligned.requests[0].efficiency, 0.8);
    EXPECT_EQ(misaligned.requests[1].cost.sectors, 4) << "the store stays aligned";

    WarpPicture picture;
    picture.setView(misaligned);
    EXPECT_EQ(picture.shownRequest(), 0);
    EXPECT_TRUE(picture.summaryText().contains("5 sectors")) << picture.summaryText().toStdString();
    EXPECT_TRUE(picture.summaryText().contains("2 lines"));
    EXPECT_TRUE(picture.summaryText().contains("80.0 %"));
    picture.resize(700, 200);
    EXPECT_FALSE(picture.grab().isNull());
    picture.showRequest(1);
    EXPECT_TRUE(picture.summaryText().contains("4 sectors"));
}

TEST(WarpView, AStrideOfThirtyTwoFloatsTakesASectorPerLane) {
    const WarpView view =
        warp_view(builtin(), result_of("gather/global", "gather", {{"stride", 32}}));
    ASSERT_FALSE(view.requests.empty()) << view.message.toStdString();
    EXPECT_EQ(view.requests[0].cost.sectors, 32);
    EXPECT_EQ(view.requests[0].cost.lines, 32);
    WarpPicture picture;
    picture.setView(view);
    picture.resize(700, 200);
    EXPECT_FALSE(picture.grab().isNull());
}

TEST(WarpView, SharedMemoryShowsBanksAndOpensOnTheWorstRequest) {
    const WarpView view = warp_view(
        builtin(), result_of("smem_transpose_tile/set-row-read-col", "smem_transpose_tile",
                             {{"tile_rows", 32}, {"repeat", 1}}, 1024, 1024));
    ASSERT_FALSE(view.requests.empty()) << view.message.toStdString();
    const WarpRequestView& shown = view.requests[static_cast<std::size_t>(view.shown)];
    EXPECT_EQ(shown.memory, WarpRequestView::Memory::shared);
    EXPECT_EQ(shown.conflict_degree, 32);
    for (int lane = 1; lane < 32; ++lane)
        EXPECT_EQ(shown.lane_bank[static_cast<std::size_t>(lane)], shown.lane_bank[0])
            << "a column of the tile lies in one bank";
    WarpPicture picture;
    picture.setView(view);
    EXPECT_TRUE(picture.summaryText().contains("32-way")) << picture.summaryText().toStdString();
}

TEST(WarpView, SaysWhyThereIsNoWarp) {
    const WarpView none =
        warp_view(builtin(), result_of("transpose/cpu-naive", "transpose", {}, 64, 64));
    EXPECT_TRUE(none.requests.empty());
    EXPECT_TRUE(none.message.contains("declares no warp")) << none.message.toStdString();
    const WarpView unknown =
        warp_view(builtin(), result_of("transpose/elsewhere", "transpose", {}));
    EXPECT_TRUE(unknown.message.contains("not a variant")) << unknown.message.toStdString();
    WarpPicture picture;
    picture.setView(unknown);
    EXPECT_EQ(picture.shownRequest(), -1);
    EXPECT_EQ(picture.summaryText(), unknown.message);
}

TEST(WarpView, FollowsTheSelectedRowInTheWindow) {
    auto window = test::make_ready_window();
    RunRecord record;
    record.runs.push_back(result_of("offset_read/global", "offset_read", {{"offset", 0}}));
    record.runs.push_back(result_of("offset_read/global", "offset_read", {{"offset", 3}}));
    window->resultsModel()->setRecord(record);
    window->resultsPage()->selectResult(1);
    EXPECT_TRUE(window->warpPicture()->view().title.contains("offset=3"));
    EXPECT_TRUE(window->warpPicture()->summaryText().contains("5 sectors"))
        << window->warpPicture()->summaryText().toStdString();
    window->resultsPage()->selectResult(0);
    EXPECT_TRUE(window->warpPicture()->summaryText().contains("4 sectors"));
}
