// coalesce-bench's command line: every option given a value it must refuse, with the option
// named in the one line it prints, and exit status 2 before anything runs.
#include "corpus.hpp"

#include "coalesce/operation.hpp"

#include <gmock/gmock.h>

#include <fstream>

namespace coalesce::bad_input {
namespace {

void notes(const fs::path& dir) { std::ofstream(dir / "notes.txt") << "not an image\n"; }

// A run small enough to finish at once on any machine, on a host variant.
std::vector<std::string> quick(std::vector<std::string> more) {
    std::vector<std::string> args{"--variants", "copy/cpu-naive", "--sizes", "4x4", "--reps",
                                  "1",          "--warmups",      "0"};
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

}  // namespace

std::vector<Case> argument_cases() {
    // The kernel passes no single argument longer than 128 KiB to a program.
    const std::string huge(100000, 'a');
    const std::string seed_range = "must be a whole number from 0 to 18446744073709551615";
    std::vector<Case> cases = {
        bench("ops_unknown", {"--ops", "blur"}, 2, "--ops: unknown operation 'blur'"),
        bench("ops_with_space", {"--ops", "copy,bl ur"}, 2, "--ops: unknown operation 'bl ur'"),
        bench("ops_empty_item", {"--ops", "copy,,transpose"}, 2, "--ops: unknown operation ''"),
        bench("ops_hundred_kilobyte_name", {"--ops", huge}, 2, "--ops: unknown operation 'aaaa"),
        bench("ops_not_utf8", {"--ops", "\xff\xfe"}, 2, "--ops: unknown operation"),
        bench("variants_unknown", {"--variants", "transpose/nonexistent"}, 2,
              "--variants: no variant is called or starts with 'transpose/nonexistent'"),
        bench("variants_hundred_kilobyte_name", {"--variants", huge}, 2,
              "--variants: no variant is called or starts with 'aaaa"),
        bench("variants_outside_ops", {"--ops", "copy", "--variants", "transpose/"}, 2,
              "no variant matches"),
        bench("sizes_zero_rows", {"--sizes", "0x5"}, 2, "--sizes: bad size '0x5'"),
        bench("sizes_negative", {"--sizes", "-3x5"}, 2, "--sizes: bad size '-3x5'"),
        bench("sizes_no_x", {"--sizes", "12"}, 2, "--sizes: bad size '12'"),
        bench("sizes_fraction", {"--sizes", "1.5x2"}, 2, "--sizes: bad size '1.5x2'"),
        bench("sizes_empty_item", {"--sizes", "4x4,,8x8"}, 2, "--sizes: bad size"),
        bench("sizes_overflowing_number", {"--sizes", "99999999999999999999x1"}, 2,
              "--sizes: bad size '99999999999999999999x1'"),
        bench("sizes_overflowing_product", {"--sizes", "4294967296x4294967296"}, 2,
              "--sizes: bad size '4294967296x4294967296'"),
        bench("sizes_larger_than_memory", {"--sizes", "100000x100000", "--reps", "1"}, 2,
              "needs about"),
        bench("radius_negative", {"--radius", "-1"}, 2, "--radius -1: must be between 0 and"),
        bench("radius_too_large", {"--radius", std::to_string(kMaxRadius + 1)}, 2,
              "--radius " + std::to_string(kMaxRadius + 1) + ": must be between 0 and"),
        bench("radius_text", {"--radius", "wide"}, 2, "--radius"),
        bench("radius_overflowing", {"--radius", "99999999999"}, 2, "--radius"),
        bench("border_unknown", {"--border", "bounce"}, 2, "--border: unknown mode 'bounce'"),
        bench("border_hundred_kilobytes", {"--border", huge}, 2, "--border: unknown mode 'aaaa"),
        bench("reps_zero", {"--reps", "0"}, 2, "--reps 0: must be between 1 and 1000"),
        bench("reps_int_max", {"--reps", "2147483647"}, 2,
              "--reps 2147483647: must be between 1 and 1000"),
        bench("reps_overflowing", {"--reps", "99999999999"}, 2, "--reps"),
        bench("warmups_negative", {"--warmups", "-2"}, 2,
              "--warmups -2: must be between 0 and 100"),
        bench("warmups_int_max", {"--warmups", "2147483647"}, 2,
              "--warmups 2147483647: must be between 0 and 100"),
        bench("seed_minus_one", {"--seed", "-1"}, 2, "--seed -1: " + seed_range),
        bench("seed_text", {"--seed", "abc"}, 2, "--seed abc: " + seed_range),
        bench("seed_fraction", {"--seed", "1.5"}, 2, "--seed 1.5: " + seed_range),
        bench("seed_overflowing", {"--seed", "18446744073709551616"}, 2,
              "--seed 18446744073709551616: " + seed_range),
        bench("seed_empty", {"--seed", ""}, 2, "--seed : " + seed_range),
        bench("device_missing", {"--device", "99"}, 2, "--device 99: "),
        bench("device_negative", {"--device", "-1"}, 2, "--device -1: "),
        bench("device_overflowing", {"--device", "2147483648"}, 2, "--device"),
        bench("plugins_missing_folder", {"--plugins", "@/no-such-folder"}, 2, "--plugins"),
        bench("plugins_a_file", {"--plugins", "@/notes.txt"}, 2, "not a folder", notes),
        bench("option_unknown", {"--frobnicate"}, 2, "--frobnicate"),
        bench("argument_stray", {"stray"}, 2, "stray"),
        bench("option_without_value", {"--sizes", "4x4", "--json"}, 2, "--json"),
        bench("input_with_sizes", {"--input", "@/notes.txt", "--sizes", "4x4"}, 2, "excludes",
              notes),
        bench("help_says_what_mirror_is", {"--help"}, 0, "BORDER_REFLECT"),
        bench("help_states_the_reps_bound", {"--help"}, 0, "1..1000"),
        bench("version", {"--version"}, 0, "coalesce-bench "),
        bench("quick_run_verifies", quick({}), 0, "1 verified, 0 failed"),
    };

    // The operations --help lists are the engine's, not a copy of them.
    Case help = bench("help_lists_every_operation", {"--help"}, 0, "--ops");
    help.check = [](const fs::path&, const Outcome& o) {
        for (Op op : all_ops()) EXPECT_THAT(o.out, ::testing::HasSubstr(std::string(op_name(op))));
    };
    cases.push_back(help);
    return cases;
}

}  // namespace coalesce::bad_input
