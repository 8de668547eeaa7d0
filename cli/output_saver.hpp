// --save-output DIR: each verified run's output matrix, and the input it ran on, as NumPy .npy
// files, written as soon as the run is verified so that a sweep never holds more than one output.
#pragma once

#include "coalesce/matrix.hpp"
#include "coalesce/runner.hpp"
#include "coalesce/typed_image.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <string_view>

namespace coalesce::cli {

// "filter_x/fast-seg4096-occ5" at 8192x8192, radius 4, clamp ->
// "filter_x__fast-seg4096-occ5__8192x8192__r4-clamp.npy" ("...__8192x8192__u8__r4-clamp.npy" for
// a u8 run); named parameters follow as
// "offset3-stride2"; characters other than letters, digits, '.', '-', '_' and '=' become '_'.
std::string output_file_name(const RunResult& r);

// "input__7x5__seed42.npy" for random data; "input__7x5__<file name>.npy" for --input. A u8/u16
// input says its type after the size: "input__7x5__u8__seed42.npy".
std::string input_file_name(Shape shape, std::uint64_t seed, std::string_view input_file,
                            std::string_view type = "f32");

// Letters, digits, '.', '-', '_' and '=' are kept; anything else ('/', spaces, ...) becomes '_'.
std::string safe_file_name(std::string_view text);

class OutputSaver {
public:
    // `dir` must exist (prepare_folder); `input_file` is --input as given (empty: random data).
    OutputSaver(std::filesystem::path dir, std::uint64_t seed, std::string input_file);

    // Writes the input (once per shape) and r.output. Never throws: the first failure is kept in
    // error() and nothing more is written, so the runs and their results files still finish.
    void save(const RunResult& r, const Matrix& input);
    // The same for a u8/u16 run: r.typed_output and its input in their own element types.
    void save_typed(const RunResult& r, const AnyImage& input);

    const std::string& error() const { return error_; }  // empty: every write succeeded
    std::size_t files_written() const { return files_written_; }

private:
    template <class Image>
    void write(std::string name, const Image& image);

    std::filesystem::path dir_;
    std::uint64_t seed_;
    std::string input_file_;
    std::set<std::string> names_;   // written in this call: a name is never reused
    std::set<std::string> inputs_;  // input files already written
    std::string error_;
    std::size_t files_written_ = 0;
};

}  // namespace coalesce::cli
