// Where coalesce-bench writes its results: paths refused before anything runs (exit 2), devices
// and links written through and never replaced, a save that fails only at the end (exit 1) still
// writing the other file, and temporaries of killed saves cleaned up.
#include "corpus.hpp"

#include "coalesce/results_io.hpp"

#include <gmock/gmock.h>
#include <sys/stat.h>

#include <fstream>

namespace coalesce::bad_input {
namespace {

using ::testing::HasSubstr;

std::vector<std::string> quick(std::vector<std::string> outputs) {
    std::vector<std::string> args{"--variants", "copy/cpu-naive", "--sizes", "4x4", "--reps",
                                  "1",          "--warmups",      "0"};
    args.insert(args.end(), outputs.begin(), outputs.end());
    return args;
}

Case with_outputs(Case c, std::vector<std::string> outputs) {
    c.outputs = std::move(outputs);
    return c;
}

Case with_devices(Case c) {
    c.needs_devices = true;
    return c;
}

Case with_check(Case c, std::function<void(const fs::path&, const Outcome&)> check) {
    c.check = std::move(check);
    return c;
}

void notes(const fs::path& dir) { std::ofstream(dir / "notes.txt") << "notes\n"; }

}  // namespace

std::vector<Case> output_path_cases() {
    const std::string long_name(300, 'n');
    std::string long_path = "@";
    while (long_path.size() < 4200) long_path += "/" + std::string(200, 'd');

    std::vector<Case> cases = {
        bench("json_empty_name", quick({"--json", ""}), 2, "--json: the file name is empty"),
        bench("csv_empty_name", quick({"--csv", ""}), 2, "--csv: the file name is empty"),
        bench("json_and_csv_the_same", quick({"--json", "@/r.out", "--csv", "@/r.out"}), 2,
              "--json and --csv name the same file"),
        bench("json_and_csv_the_same_relative", quick({"--json", "r.out", "--csv", "./r.out"}), 2,
              "--json and --csv name the same file"),
        bench("json_and_csv_the_same_through_a_link",
              quick({"--json", "@/r.out", "--csv", "@/link.out"}), 2,
              "--json and --csv name the same file",
              [](const fs::path& dir) { fs::create_symlink("r.out", dir / "link.out"); }),
        bench("json_in_a_missing_folder", quick({"--json", "@/no-such-folder/r.json"}), 2,
              "no-such-folder' does not exist"),
        bench("json_is_a_folder", quick({"--json", "@/folder"}), 2, "is a folder",
              [](const fs::path& dir) { fs::create_directory(dir / "folder"); }),
        bench("json_below_a_file", quick({"--json", "@/notes.txt/r.json"}), 2, "is not a folder",
              notes),
        bench("json_is_a_named_pipe", quick({"--json", "@/pipe.json"}), 2, "is a named pipe",
              [](const fs::path& dir) { make_fifo(dir / "pipe.json"); }),
        bench("csv_link_to_a_named_pipe", quick({"--csv", "@/link.csv"}), 2, "is a named pipe",
              [](const fs::path& dir) {
                  make_fifo(dir / "pipe");
                  fs::create_symlink("pipe", dir / "link.csv");
              }),
        bench("json_name_too_long", quick({"--json", "@/" + long_name + ".json"}), 2,
              "the file name is 305 bytes long; the limit is 255"),
        bench("json_path_too_long", quick({"--json", long_path}), 2, "the path is"),
        bench("json_in_proc", quick({"--json", "/proc/self/r.json"}), 2,
              "/proc/self' does not take new files"),
        bench("json_link_to_a_folder", quick({"--json", "@/link.json"}), 2, "is a folder",
              [](const fs::path& dir) {
                  fs::create_directory(dir / "folder");
                  fs::create_symlink("folder", dir / "link.json");
              }),
        bench("json_link_loop", quick({"--json", "@/a.json"}), 2,
              "too many levels of symbolic links",
              [](const fs::path& dir) {
                  fs::create_symlink("b.json", dir / "a.json");
                  fs::create_symlink("a.json", dir / "b.json");
              }),
    };

    cases.push_back(with_check(
        with_outputs(bench("json_through_a_link", quick({"--json", "@/link.json"}), 0, "verified",
                           [](const fs::path& dir) {
                               std::ofstream(dir / "real.json") << "old";
                               fs::create_symlink("real.json", dir / "link.json");
                           }),
                     {"real.json"}),
        [](const fs::path& dir, const Outcome&) {
            EXPECT_TRUE(fs::is_symlink(dir / "link.json"));
            EXPECT_GT(fs::file_size(dir / "real.json"), 100u);
        }));
    cases.push_back(with_check(
        with_outputs(
            bench("json_through_a_dangling_link", quick({"--json", "@/link.json"}), 0, "verified",
                  [](const fs::path& dir) { fs::create_symlink("made.json", dir / "link.json"); }),
            {"made.json"}),
        [](const fs::path& dir, const Outcome&) {
            EXPECT_TRUE(fs::is_symlink(dir / "link.json"));
            EXPECT_TRUE(fs::is_regular_file(dir / "made.json"));
        }));
    cases.push_back(with_check(
        with_outputs(bench("json_replacing_a_file_keeps_its_mode", quick({"--json", "@/r.json"}), 0,
                           "verified",
                           [](const fs::path& dir) {
                               std::ofstream(dir / "r.json") << "old";
                               fs::permissions(dir / "r.json", fs::perms::owner_read |
                                                                   fs::perms::owner_write |
                                                                   fs::perms::group_read);
                           }),
                     {}),
        [](const fs::path& dir, const Outcome&) {
            EXPECT_EQ(fs::status(dir / "r.json").permissions() & fs::perms::all,
                      fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
            EXPECT_NO_THROW(load_results(dir / "r.json"));
        }));
    // A device is written to, never replaced by a regular file.
    cases.push_back(with_devices(with_check(
        with_outputs(
            bench("json_to_a_null_device", quick({"--json", "@/null", "--csv", "@/r.csv"}), 0,
                  "verified", [](const fs::path& dir) { make_device(dir / "null", 1, 3); }),
            {"r.csv"}),
        [](const fs::path& dir, const Outcome&) {
            EXPECT_TRUE(fs::is_character_file(dir / "null"));
        })));
    // Full only at the end: the benchmark ran, the other file is still written, exit 1.
    cases.push_back(with_devices(with_check(
        with_outputs(bench("json_to_a_full_device", quick({"--json", "@/full", "--csv", "@/r.csv"}),
                           1, "No space left on device",
                           [](const fs::path& dir) { make_device(dir / "full", 1, 7); }),
                     {"r.csv"}),
        [](const fs::path& dir, const Outcome& o) {
            EXPECT_TRUE(fs::is_character_file(dir / "full"));
            EXPECT_TRUE(fs::is_regular_file(dir / "r.csv"));
            EXPECT_THAT(o.out, HasSubstr("1 verified"));
        })));
    cases.push_back(with_devices(
        with_check(bench("both_outputs_to_full_devices",
                         quick({"--json", "@/full", "--csv", "@/full2"}), 1, "cannot write",
                         [](const fs::path& dir) {
                             make_device(dir / "full", 1, 7);
                             make_device(dir / "full2", 1, 7);
                         }),
                   [](const fs::path&, const Outcome& o) {
                       EXPECT_THAT(o.err, HasSubstr("full'"));
                       EXPECT_THAT(o.err, HasSubstr("full2'"));
                   })));
    // A killed save of an earlier process left a temporary: the next save there removes it.
    cases.push_back(with_check(
        with_outputs(
            bench("stale_temporaries_removed", quick({"--json", "@/r.json"}), 0, "verified",
                  [](const fs::path& dir) {
                      const fs::path stale = dir / ("old.json.tmp-" + std::to_string(dead_pid()));
                      std::ofstream(stale) << "{\"half";
                      age(stale, 3600);
                      std::ofstream(dir / "keep.txt.tmp-1") << "not ours";
                  }),
            {"r.json"}),
        [](const fs::path& dir, const Outcome&) {
            for (const auto& e : fs::directory_iterator(dir))
                EXPECT_THAT(e.path().filename().string(),
                            ::testing::AnyOf("r.json", "keep.txt.tmp-1"));
        }));
    return cases;
}

}  // namespace coalesce::bad_input
