// Parameter axes: parsing, combinations per operation, refusals that name the parameter.
#include "coalesce/operation.hpp"

#include <gtest/gtest.h>

using namespace coalesce;

TEST(ParamAxis, ParsesRangesStepsAndLists) {
    EXPECT_EQ(parse_param_axis("offset=0:4").values, (std::vector<long long>{0, 1, 2, 3, 4}));
    EXPECT_EQ(parse_param_axis("offset=0:32:8").values, (std::vector<long long>{0, 8, 16, 24, 32}));
    const ParamAxis stride = parse_param_axis("stride=1,2,4,1024");
    EXPECT_EQ(stride.name, "stride");
    EXPECT_EQ(stride.values, (std::vector<long long>{1, 2, 4, 1024}));
    EXPECT_EQ(parse_param_axis("offset=-3").values, (std::vector<long long>{-3}));
}

TEST(ParamAxis, RefusesMalformedSpecsNamingTheParameter) {
    for (const char* bad : {"offset", "=3", "offset=", "offset=a", "offset=3:1", "offset=0:8:0",
                            "offset=1,,2", "offset=0:100000000"}) {
        try {
            parse_param_axis(bad);
            ADD_FAILURE() << "accepted '" << bad << "'";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("parameter '"), std::string::npos) << e.what();
        }
    }
}

TEST(ParamAxis, OperationsThatDoNotTakeAParameterRunOnce) {
    const std::vector<ParamAxis> axes = {parse_param_axis("offset=0:3")};
    const auto combos = param_combinations(Op::transpose, axes);
    ASSERT_EQ(combos.size(), 1u);
    EXPECT_TRUE(combos[0].empty());
}
