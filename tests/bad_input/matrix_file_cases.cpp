// OpenCV YAML/XML matrix files given to coalesce-bench --input: valid ones (exit 0), and ones with
// too few or too many values, impossible shapes or types, nesting that would overflow OpenCV's
// recursive parser, damaged text, NaN (exit 2, what is wrong on stderr).
#include "corpus.hpp"

namespace coalesce::bad_input {
namespace {

Case matrix_file(std::string name, const std::string& file, std::function<Bytes()> make, int status,
                 std::string message) {
    Case c = bench(
        std::move(name),
        {"--input", "@/" + file, "--variants", "copy/cpu-naive", "--reps", "1", "--warmups", "0"},
        status, std::move(message),
        [file, make](const fs::path& dir) { write_bytes(dir / file, make()); });
    c.needs_opencv = true;
    return c;
}

// A matrix file past the size limit: sparse, so it costs no disk.
Case sparse_matrix_file() {
    Case c = bench("yaml_larger_than_the_limit",
                   {"--input", "@/big.yml", "--variants", "copy/cpu-naive", "--reps", "1"}, 2,
                   "larger than the limit of 128 MiB",
                   [](const fs::path& dir) { write_sparse(dir / "big.yml", (129u << 20)); });
    c.needs_opencv = true;
    return c;
}

std::string nested_yaml_maps(int depth) {
    std::string text = "%YAML:1.0\n---\n";
    for (int i = 0; i < depth; ++i)
        text += std::string(2 * static_cast<std::size_t>(i), ' ') + "k:\n";
    return text + std::string(2 * static_cast<std::size_t>(depth), ' ') + "v: 1\n";
}

}  // namespace

std::vector<Case> matrix_file_cases() {
    const std::string six = values(6);
    return {
        matrix_file(
            "yaml", "m.yml", [six] { return yaml_matrix("m", 2, 3, "d", six); }, 0,
            "OpenCV matrix file, 64-bit float, 1 channel"),
        matrix_file(
            "xml", "m.xml", [six] { return xml_matrix("m", 2, 3, "f", six); }, 0,
            "OpenCV matrix file, 32-bit float, 1 channel"),
        matrix_file(
            "yaml_gzip", "m.yml.gz",
            [six] { return gzip_stored(yaml_matrix("m", 2, 3, "f", six)); }, 0,
            "OpenCV matrix file"),
        matrix_file(
            "yaml_without_extension_rule", "m.matrix",
            [six] { return yaml_matrix("m", 2, 3, "f", six); }, 0, "OpenCV matrix file"),
        matrix_file(
            "yaml_three_channels", "rgb.yml",
            [] { return yaml_matrix("m", 2, 2, "3f", values(12)); }, 0,
            "3 channels (RGB) → luminance"),
        matrix_file(
            "yaml_too_few_values", "few.yml", [] { return yaml_matrix("m", 2, 3, "f", values(5)); },
            2, "matrix 'm' declares 6 values (2x3, 1 channel) but holds 5"),
        matrix_file(
            "yaml_too_many_values", "many.yml",
            [] { return yaml_matrix("m", 2, 3, "f", values(7)); }, 2,
            "matrix 'm' declares 6 values (2x3, 1 channel) but holds 7"),
        matrix_file(
            "xml_too_few_values", "few.xml", [] { return xml_matrix("m", 2, 3, "f", values(5)); },
            2, "matrix 'm' declares 6 values (2x3, 1 channel) but holds 5"),
        matrix_file(
            "yaml_no_matrix", "none.yml", [] { return Bytes("%YAML:1.0\n---\nanswer: 42\n"); }, 2,
            "holds no matrix"),
        matrix_file(
            "yaml_header_only", "header.yml", [] { return Bytes("%YAML:1.0\n"); }, 2,
            "holds no matrix"),
        matrix_file(
            "yaml_unknown_type", "q.yml", [six] { return yaml_matrix("m", 2, 3, "q", six); }, 2,
            "matrix 'm' has element type 'q'"),
        matrix_file(
            "yaml_five_channels", "five.yml",
            [] { return yaml_matrix("m", 1, 2, "5f", values(10)); }, 2,
            "has 5 channels; 1 to 4 are supported"),
        matrix_file(
            "yaml_zero_rows", "zero.yml", [] { return yaml_matrix("m", 0, 3, "f", "1"); }, 2,
            "matrix 'm' declares 0x3 elements"),
        matrix_file(
            "yaml_negative_rows", "neg.yml", [] { return yaml_matrix("m", -2, 3, "f", "1"); }, 2,
            "matrix 'm' declares -2x3 elements"),
        matrix_file(
            "yaml_100000_square", "huge.yml",
            [] { return yaml_matrix("m", 100000, 100000, "f", "1"); }, 2,
            "matrix 'm' declares 100000x100000 elements; the limit is 268435456"),
        matrix_file(
            "yaml_rows_not_a_number", "rows.yml",
            [] {
                return Bytes(
                    "%YAML:1.0\n---\nm: !!opencv-matrix\n   rows: abc\n   cols: 2\n"
                    "   dt: f\n   data: [ 1, 2 ]\n");
            },
            2, "matrix 'm': 'rows' is not a whole number"),
        matrix_file(
            "yaml_text_values", "text.yml", [] { return yaml_matrix("m", 1, 3, "f", "1, two, 3"); },
            2, "matrix 'm': value 2 of 3 is not a number"),
        matrix_file(
            "yaml_nan", "nan.yml", [] { return yaml_matrix("m", 2, 2, "f", "1, .Nan, 3, 4"); }, 2,
            "a NaN pixel at row 0, column 1"),
        matrix_file(
            "yaml_n_dimensional", "nd.yml",
            [] {
                return Bytes(
                    "%YAML:1.0\n---\nm: !!opencv-nd-matrix\n   sizes: [ 2, 2, 2 ]\n"
                    "   dt: f\n   data: [ 1, 2, 3, 4, 5, 6, 7, 8 ]\n");
            },
            2, "matrix 'm' has 3 dimensions; only 2-D matrices are supported"),
        matrix_file(
            "yaml_nested_100000_flow", "deep.yml",
            [] {
                return "%YAML:1.0\n---\na: " + std::string(100000, '[') + std::string(100000, ']') +
                       "\n";
            },
            2, "nests deeper than 64 levels"),
        matrix_file(
            "yaml_nested_200_maps", "maps.yml", [] { return nested_yaml_maps(200); }, 2,
            "nests deeper than 64 levels"),
        matrix_file(
            "yaml_nested_200_sequences", "dashes.yml",
            [] {
                std::string t = "%YAML:1.0\n---\na:\n  ";
                for (int i = 0; i < 200; ++i) t += "- ";
                return t + "1\n";
            },
            2, "nests deeper than 64 levels"),
        matrix_file(
            "xml_nested_100000", "deep.xml",
            [] {
                std::string t = "<?xml version=\"1.0\"?>\n<opencv_storage>\n";
                for (int i = 0; i < 100000; ++i) t += "<a>";
                for (int i = 0; i < 100000; ++i) t += "</a>";
                return t + "\n</opencv_storage>\n";
            },
            2, "nests deeper than 64 levels"),
        matrix_file(
            "yaml_empty", "empty.yml", [] { return Bytes(); }, 2, "is empty (0 bytes)"),
        matrix_file(
            "yaml_damaged", "bad.yml",
            [] { return Bytes("%YAML:1.0\n---\nm: !!opencv-matrix\n  rows: [ {\n"); }, 2,
            "is not a valid OpenCV YAML file"),
        matrix_file(
            "xml_cut_in_half", "cut.xml",
            [six] {
                const std::string x = xml_matrix("m", 2, 3, "f", six);
                return x.substr(0, x.size() / 2);
            },
            2, "is not a valid OpenCV XML file"),
        matrix_file(
            "yaml_nul_byte", "nul.yml",
            [six] {
                std::string y = yaml_matrix("m", 2, 3, "f", six);
                y[20] = '\0';
                return y;
            },
            2, "a NUL byte at byte 20"),
        matrix_file(
            "yaml_gzip_cut", "cut.yml.gz",
            [six] {
                const Bytes g = gzip_stored(yaml_matrix("m", 2, 3, "f", six));
                return g.substr(0, g.size() - 20);
            },
            2, "is a damaged gzip file"),
        sparse_matrix_file(),
    };
}

}  // namespace coalesce::bad_input
