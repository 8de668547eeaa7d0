// The course's findings as data: every lesson is complete, names a seed file, and a runnable one
// names variants that exist (the built-in ones and the texture plugin's) in its tiers, at sensible
// sizes, with a sweep its operations take.
#include "coalesce/kernels.hpp"
#include "coalesce/lessons.hpp"
#include "coalesce/operation.hpp"
#include "coalesce/plugin_loader.hpp"
#include "coalesce/registry.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace coalesce {
namespace {

// The five documents of shared/seeds/.
const std::vector<std::string> kSeedFiles = {"000_5aa101e1dc0295b6.txt", "001_dd22bfe62432ce4c.txt",
                                             "002_42031390f676189f.txt", "003_bacf824dcd5d0fdc.txt",
                                             "004_8d4c2e1c662df269.txt"};

const Registry& registry_with_textures() {
    static const Registry registry = [] {
        Registry r;
        register_builtin_variants(r);
        const PluginReport report = load_plugin(COALESCE_TEXTURES_PLUGIN, r);
        EXPECT_TRUE(report.loaded) << report.message;
        return r;
    }();
    return registry;
}

TEST(Lessons, IdsAreUniqueAndEveryLessonIsComplete) {
    std::set<std::string> ids;
    for (const Lesson& l : lessons()) {
        EXPECT_TRUE(ids.insert(l.id).second) << "duplicate id " << l.id;
        EXPECT_FALSE(l.id.empty());
        EXPECT_EQ(l.id.find(' '), std::string::npos) << l.id;
        EXPECT_FALSE(l.title.empty()) << l.id;
        EXPECT_FALSE(l.course_figure.empty()) << l.id;
        EXPECT_GE(l.finding.size(), 60u) << l.id;
    }
    EXPECT_GE(lessons().size(), 20u);
}

TEST(Lessons, EverySourceNamesASeedFile) {
    for (const Lesson& l : lessons()) {
        bool named = false;
        for (const std::string& seed : kSeedFiles) named = named || l.source.rfind(seed, 0) == 0;
        EXPECT_TRUE(named) << l.id << ": " << l.source;
    }
}

TEST(Lessons, EverySeedFileHasLessons) {
    for (const std::string& seed : kSeedFiles) {
        int count = 0;
        for (const Lesson& l : lessons()) count += l.source.rfind(seed, 0) == 0 ? 1 : 0;
        EXPECT_GE(count, 2) << seed;
    }
}

TEST(Lessons, RunnableLessonsNameGpuVariantsThatExistInTheLessonsTiers) {
    const Registry& registry = registry_with_textures();
    for (const Lesson& l : lessons()) {
        if (!l.runnable) continue;
        EXPECT_TRUE(l.missing.empty()) << l.id;
        EXPECT_GE(l.variants.size(), 1u) << l.id;
        EXPECT_GE(l.sizes.size(), 1u) << l.id;
        EXPECT_FALSE(l.tiers.empty()) << l.id;
        bool experiment = false;
        for (const std::string& id : l.variants) {
            const Variant* v = registry.find(id);
            ASSERT_NE(v, nullptr) << l.id << " names " << id << ", which is not registered";
            EXPECT_TRUE(v->info.gpu) << l.id << ": " << id;
            EXPECT_NE(std::find(l.tiers.begin(), l.tiers.end(), v->info.tier), l.tiers.end())
                << l.id << ": " << id << " is of a tier the lesson does not run";
            experiment = experiment || v->info.tier == Tier::experiment;
        }
        // Experiments run only where a lesson names one: no other lesson picks them up.
        const bool runs_experiments =
            std::find(l.tiers.begin(), l.tiers.end(), Tier::experiment) != l.tiers.end();
        EXPECT_EQ(runs_experiments, experiment) << l.id;
        for (Shape s : l.sizes) {
            EXPECT_GE(s.rows, 1u) << l.id;
            EXPECT_GE(s.cols, 1u) << l.id;
        }
        EXPECT_GE(l.params.radius, 0) << l.id;
        EXPECT_LE(l.params.radius, kMaxRadius) << l.id;
    }
}

// Every axis of a lesson's sweep is a parameter one of its operations takes, every value is in
// that parameter's range, fits the lesson's sizes, and reads back through the CLI's parser.
TEST(Lessons, EverySweepIsTakenByItsOperationsAndFitsItsSizes) {
    const Registry& registry = registry_with_textures();
    int swept = 0;
    for (const Lesson& l : lessons()) {
        if (!l.runnable) continue;
        swept += l.sweep.empty() ? 0 : 1;
        std::vector<Op> ops;
        for (const std::string& id : l.variants)
            if (const Variant* v = registry.find(id)) ops.push_back(v->info.op);
        std::set<std::string> names;
        for (const ParamAxis& axis : l.sweep) {
            EXPECT_TRUE(names.insert(axis.name).second) << l.id << ": " << axis.name << " twice";
            EXPECT_FALSE(axis.values.empty()) << l.id << ": " << axis.name;
            bool taken = false;
            for (Op op : ops)
                for (const ParamSpec& spec : describe(op).params) taken |= spec.name == axis.name;
            EXPECT_TRUE(taken) << l.id << ": no operation of the lesson takes " << axis.name;
            // The sweep as `--param` would spell it parses back to the same axis.
            std::string text = axis.name + "=";
            for (std::size_t i = 0; i < axis.values.size(); ++i)
                text += (i ? "," : "") + std::to_string(axis.values[i]);
            const ParamAxis parsed = parse_param_axis(text);
            EXPECT_EQ(parsed.name, axis.name) << l.id;
            EXPECT_EQ(parsed.values, axis.values) << l.id;
        }
        for (Op op : ops)
            for (const ParamValues& values : param_combinations(op, l.sweep)) {
                OpParams p = l.params;
                p.values = values;
                EXPECT_NO_THROW(resolved_params(op, p)) << l.id << " " << op.name();
                for (Shape s : l.sizes)
                    EXPECT_EQ(input_problem(op, s, p), "") << l.id << " " << op.name();
            }
    }
    EXPECT_GE(swept, 10);
}

TEST(Lessons, SweepTextSpellsRangesAndLists) {
    EXPECT_EQ(sweep_text({}), "");
    EXPECT_EQ(sweep_text({{"offset", {0, 1, 2, 3, 4}}, {"repeat", {65}}}),
              "offset = 0..4, repeat = 65");
    EXPECT_EQ(sweep_text({{"stride", {1, 2, 4, 8}}}), "stride = 1,2,4,8");
    EXPECT_EQ(sweep_text({{"span", {32, 1024, 0}}}), "span = 32,1024,0");
}

TEST(Lessons, TheAccessPatternAndOnChipFindingsAreRunnable) {
    for (const char* id :
         {"granularity-offset", "granularity-scattered", "granularity-mixed",
          "offset-two-transactions", "strided-transactions", "add-coalesced-vs-strided",
          "matrix-add-2d", "shared-row-vs-column-major", "shared-dynamic",
          "shared-rectangular-padding", "constant-uniform-vs-divergent", "texture-random-sampling",
          "texture-interpolation", "texture-conversion", "transactions-per-warp"}) {
        const Lesson* lesson = find_lesson(id);
        ASSERT_NE(lesson, nullptr) << id;
        EXPECT_TRUE(lesson->runnable) << id;
    }
    const Lesson* offset = find_lesson("offset-two-transactions");
    ASSERT_EQ(offset->sweep.size(), 1u);
    EXPECT_EQ(offset->sweep[0].name, "offset");
    EXPECT_EQ(offset->sweep[0].values.size(), 33u);  // 0..32: the course's curve, every offset
}

TEST(Lessons, NonRunnableLessonsSayWhichExperimentIsMissing) {
    int runnable = 0;
    for (const Lesson& l : lessons()) {
        if (l.runnable) {
            ++runnable;
            continue;
        }
        EXPECT_FALSE(l.missing.empty()) << l.id;
        EXPECT_TRUE(l.variants.empty()) << l.id;
    }
    EXPECT_GE(runnable, 30);
}

TEST(Lessons, TheNotebooksLessonsRunAtItsSizes) {
    const Lesson* sums = find_lesson("col-sums-beat-row-sums");
    ASSERT_NE(sums, nullptr);
    EXPECT_TRUE(sums->runnable);
    const std::vector<Shape> expected = {{8192, 8192}, {16384, 16384}};
    EXPECT_EQ(sums->sizes, expected);
    const Lesson* padding = find_lesson("transpose-padding");
    ASSERT_NE(padding, nullptr);
    const std::vector<std::string> order = {"transpose/global-naive", "transpose/shared-tile",
                                            "transpose/shared-padded"};
    EXPECT_EQ(padding->variants, order);
}

TEST(Lessons, FindLessonFindsEveryIdAndNothingElse) {
    for (const Lesson& l : lessons()) EXPECT_EQ(find_lesson(l.id), &l) << l.id;
    EXPECT_EQ(find_lesson(""), nullptr);
    EXPECT_EQ(find_lesson("no-such-lesson"), nullptr);
}

}  // namespace
}  // namespace coalesce
