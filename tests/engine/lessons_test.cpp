// The course's findings as data: every lesson is complete, names a seed file, and a runnable one
// names variants that exist (the built-in ones and the texture plugin's) at sensible sizes.
#include "coalesce/kernels.hpp"
#include "coalesce/lessons.hpp"
#include "coalesce/plugin_loader.hpp"
#include "coalesce/registry.hpp"

#include <gtest/gtest.h>

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

TEST(Lessons, RunnableLessonsNameClassicOrTextureVariantsThatExist) {
    const Registry& registry = registry_with_textures();
    for (const Lesson& l : lessons()) {
        if (!l.runnable) continue;
        EXPECT_TRUE(l.missing.empty()) << l.id;
        EXPECT_GE(l.variants.size(), 1u) << l.id;
        EXPECT_GE(l.sizes.size(), 1u) << l.id;
        for (const std::string& id : l.variants) {
            const Variant* v = registry.find(id);
            ASSERT_NE(v, nullptr) << l.id << " names " << id << ", which is not registered";
            EXPECT_TRUE(v->info.gpu) << l.id << ": " << id;
            EXPECT_EQ(v->info.tier, Tier::classic) << l.id << ": " << id;
        }
        for (Shape s : l.sizes) {
            EXPECT_GE(s.rows, 1u) << l.id;
            EXPECT_GE(s.cols, 1u) << l.id;
        }
        EXPECT_GE(l.params.radius, 0) << l.id;
        EXPECT_LE(l.params.radius, kMaxRadius) << l.id;
    }
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
    EXPECT_GE(runnable, 10);
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
