// Results files opened with the engine's reader (what the window's Open Results does): valid and
// large ones load (exit 0), and hostile ones (megabyte strings, NUL bytes, deep nesting, too many
// runs, truncated JSON, broken CSV quoting, pipes and devices) are refused with a short reason
// (exit 2) before they cost time or memory.
#include "corpus.hpp"

#include "coalesce/results_io.hpp"

#include <nlohmann/json.hpp>

#include <iostream>

namespace coalesce::bad_input {
namespace {

// The child's body: load the file, say how many runs it held, or why it was refused.
std::function<int(const fs::path&)> load(const std::string& file) {
    return [file](const fs::path& dir) {
        try {
            const RunRecord record = load_results(dir / file);
            std::cout << "loaded " << record.runs.size() << " runs\n";
            return 0;
        } catch (const std::exception& e) {
            std::cerr << e.what() << '\n';
            return 2;
        }
    };
}

Case results(std::string name, const std::string& file, std::function<Bytes()> make, int status,
             std::string message) {
    Case c;
    c.name = std::move(name);
    c.body = load(file);
    c.exit_status = status;
    c.message = std::move(message);
    c.setup = [file, make](const fs::path& dir) { write_bytes(dir / file, make()); };
    return c;
}

Case results_special(std::string name, const std::string& file,
                     std::function<void(const fs::path&)> setup, std::string message) {
    Case c = results(std::move(name), file, {}, 2, std::move(message));
    c.setup = std::move(setup);
    return c;
}

RunRecord record(std::size_t runs, std::size_t distinct_variants = 3) {
    RunRecord r;
    r.device.name = "test device";
    r.started_at = "2026-11-23T00:00:00Z";
    r.config.ops = {Op::copy};
    for (std::size_t i = 0; i < runs; ++i) {
        RunResult run;
        run.op = "copy";
        run.variant = "copy/variant-" + std::to_string(i % distinct_variants);
        run.memory_space = "global";
        run.origin = "built-in";
        run.border = "clamp";
        run.rows = 64 + i / distinct_variants;
        run.cols = 64;
        run.verified = true;
        run.median_ms = run.min_ms = run.max_ms = 0.5;
        r.runs.push_back(run);
    }
    return r;
}

Bytes replaced(Bytes text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    if (at == Bytes::npos) throw std::runtime_error("no '" + from + "' in the results text");
    return text.replace(at, from.size(), to);
}

// `runs` copies of one run in compact JSON: written in a blink even in a sanitizer build.
Bytes compact_json_with_runs(std::size_t runs) {
    nlohmann::json j = nlohmann::json::parse(to_json(record(1)));
    const std::string run = j["runs"][0].dump();
    j["runs"] = nlohmann::json::array();
    std::string many;
    many.reserve(runs * (run.size() + 1));
    for (std::size_t i = 0; i < runs; ++i) (many += i ? "," : "") += run;
    return replaced(j.dump(), "\"runs\":[]", "\"runs\":[" + many + "]");
}

Bytes csv_header() {
    const Bytes csv = to_csv(record(1));
    return csv.substr(0, csv.find('\n') + 1);
}

}  // namespace

std::vector<Case> results_file_cases() {
    const std::string mb(1 << 20, 'x');
    const std::string ten_mb(10u << 20, 'v');
    return {
        results(
            "json", "r.json", [] { return to_json(record(6)); }, 0, "loaded 6 runs"),
        results(
            "csv", "r.csv", [] { return to_csv(record(6)); }, 0, "loaded 6 runs"),
        results(
            "json_5000_variants", "many.json", [] { return to_json(record(20000, 5000)); }, 0,
            "loaded 20000 runs"),
        results(
            "csv_5000_variants", "many.csv", [] { return to_csv(record(20000, 5000)); }, 0,
            "loaded 20000 runs"),
        results(
            "csv_crlf", "crlf.csv",
            [] {
                Bytes c = to_csv(record(3)), out;
                for (char ch : c) out += ch == '\n' ? Bytes("\r\n") : Bytes(1, ch);
                return out;
            },
            0, "loaded 3 runs"),

        // Megabyte strings: refused, and quoted back in a line.
        results(
            "json_megabyte_schema", "s.json",
            [mb] { return replaced(to_json(record(1)), "coalesce-results/1", mb); }, 2,
            "not a coalesce results file (schema 'xxxx"),
        results(
            "json_megabyte_schema_version", "v.json",
            [mb] { return replaced(to_json(record(1)), "results/1", "results/" + mb); }, 2,
            "unsupported results schema 'coalesce-results/xxx"),
        results(
            "csv_megabyte_header", "h.csv", [mb] { return mb + "," + csv_header(); }, 2,
            "CSV header starts with 'xxxx"),
        results(
            "csv_run_of_quotes", "q.csv", [] { return csv_header() + Bytes((1 << 20) + 1, '"'); },
            2, "line 2: quoted field never closed"),
        results(
            "json_ten_megabyte_variant", "v.json",
            [ten_mb] { return replaced(to_json(record(1)), "copy/variant-0", ten_mb); }, 2,
            "field 'runs[0].variant' is 10485760 bytes long; the limit is 1024"),
        results(
            "csv_ten_megabyte_variant", "v.csv",
            [ten_mb] { return replaced(to_csv(record(1)), "copy/variant-0", ten_mb); }, 2,
            "column 'variant' is 10485760 bytes long; the limit is 1024"),
        results(
            "json_megabyte_error_text", "e.json",
            [mb] {
                return replaced(to_json(record(1)), "\"error\": \"\"", "\"error\": \"" + mb + "\"");
            },
            2, "field 'runs[0].error' is 1048576 bytes long; the limit is 65536"),
        results(
            "json_10000_operation_names", "ops.json",
            [] {
                std::string ops;
                for (int i = 0; i < 10000; ++i) ops += std::string(i ? "," : "") + "\"copy\"";
                return replaced(to_json(record(1)), "\"ops\": [\n      \"copy\"\n    ]",
                                "\"ops\": [" + ops + "]");
            },
            2, "field 'config.ops[1]': operation 'copy' appears twice"),
        results(
            "json_10001_variant_filters", "vf.json",
            [] {
                std::string ids;
                for (int i = 0; i < 10001; ++i) ids += std::string(i ? "," : "") + "\"v\"";
                return replaced(to_json(record(1)), "\"variants\": []",
                                "\"variants\": [" + ids + "]");
            },
            2, "field 'config.variants' has 10001 items; the limit is 10000"),
        results(
            "json_100001_runs", "runs.json", [] { return compact_json_with_runs(100001); }, 2,
            "field 'runs' has 100001 items; the limit is 100000"),
        results(
            "csv_100001_runs", "runs.csv", [] { return to_csv(record(100001)); }, 2,
            "more than 100000 runs"),
        results(
            "json_8_million_values", "values.json",
            [] {
                std::string zeros = "[0";
                zeros.reserve(16u << 20);
                for (int i = 0; i < 8'000'001; ++i) zeros += ",0";
                return replaced(to_json(record(1)), "{\n  \"schema\"",
                                "{\"x\": " + zeros + "],\n  \"schema\"");
            },
            2, "more than 8000000 values"),

        // NUL bytes, nesting, damage.
        results(
            "json_nul_then_garbage", "nul.json",
            [] { return to_json(record(2)) + Bytes(1, '\0') + "garbage"; }, 2, "NUL byte"),
        results(
            "csv_nul_in_a_field", "nul.csv",
            [] { return replaced(to_csv(record(2)), "copy/variant-1", Bytes("copy\0x", 6)); }, 2,
            "NUL byte"),
        results(
            "json_nested_100000", "deep.json",
            [] { return std::string(100000, '[') + std::string(100000, ']'); }, 2,
            "nested deeper than 16 levels"),
        results(
            "json_nested_in_an_unknown_field", "deep2.json",
            [] {
                return replaced(
                    to_json(record(1)), "{\n  \"schema\"",
                    "{\"x\": " + std::string(20, '[') + std::string(20, ']') + ",\n  \"schema\"");
            },
            2, "nested deeper than 16 levels"),
        results(
            "json_truncated_half", "half.json",
            [] {
                const Bytes j = to_json(record(4));
                return j.substr(0, j.size() / 2);
            },
            2, "results JSON: parse error"),
        results(
            "json_one_brace", "brace.json", [] { return Bytes("{"); }, 2, "results JSON: "),
        results(
            "json_empty_file", "empty.json", [] { return Bytes(); }, 2, "results JSON: "),
        results(
            "json_trailing_garbage", "trail.json", [] { return to_json(record(1)) + "]]"; }, 2,
            "results JSON: parse error"),
        results(
            "json_not_utf8", "utf.json",
            [] { return replaced(to_json(record(1)), "test device", "test \xff\xfe device"); }, 2,
            "results JSON: parse error"),
        results(
            "json_number_overflow", "num.json",
            [] {
                return replaced(to_json(record(1)), "\"median_ms\": 0.5", "\"median_ms\": 1e400");
            },
            2, "results JSON: "),
        results(
            "json_negative_rows", "neg.json",
            [] { return replaced(to_json(record(1)), "\"rows\": 64", "\"rows\": -64"); }, 2,
            "field 'runs[0].rows' must be a non-negative integer"),
        results(
            "json_wrong_schema", "vega.json",
            [] { return replaced(to_json(record(1)), "coalesce-results/1", "vega-lite/5"); }, 2,
            "not a coalesce results file (schema 'vega-lite/5')"),
        results(
            "json_schema_version_2", "v2.json",
            [] { return replaced(to_json(record(1)), "results/1", "results/2"); }, 2,
            "unsupported results schema 'coalesce-results/2'"),
        results(
            "json_no_schema", "none.json", [] { return Bytes("{\"runs\": []}"); }, 2,
            "no 'schema' field"),
        results(
            "json_an_array", "array.json", [] { return Bytes("[1, 2, 3]"); }, 2,
            "not a coalesce results file"),
        results(
            "csv_unclosed_quote", "open.csv", [] { return csv_header() + "\"copy,unclosed\n"; }, 2,
            "quoted field never closed"),
        results(
            "csv_quote_inside_a_field", "mid.csv", [] { return csv_header() + "co\"py\n"; }, 2,
            "a quote inside an unquoted field"),
        results(
            "csv_text_after_a_quote", "after.csv", [] { return csv_header() + "\"copy\"x,1\n"; }, 2,
            "text after a closing quote"),
        results(
            "csv_a_million_commas", "wide.csv", [] { return Bytes(1 << 20, ','); }, 2,
            "has more than 256 fields"),
        results(
            "csv_missing_column", "col.csv",
            [] { return replaced(to_csv(record(1)), ",seed,", ","); }, 2, "missing column 'seed'"),
        results(
            "csv_rows_from_two_runs", "two.csv",
            [] {
                const Bytes one = to_csv(record(1));
                const Bytes row = one.substr(one.find('\n') + 1);
                return one + replaced(row, "2026-11-23T00:00:00Z", "2026-11-24T00:00:00Z");
            },
            2, "comes from another run"),
        results(
            "csv_empty_file", "empty.csv", [] { return Bytes(); }, 2, "empty file"),
        results(
            "name_without_results_extension", "r.txt", [] { return to_json(record(1)); }, 2,
            "must end in .json or .csv"),

        // Not a regular file: refused without reading it.
        results_special(
            "json_named_pipe", "pipe.json", [](const fs::path& d) { make_fifo(d / "pipe.json"); },
            "not a regular file (a named pipe)"),
        results_special(
            "json_link_to_dev_zero", "zero.json",
            [](const fs::path& d) { fs::create_symlink("/dev/zero", d / "zero.json"); },
            "not a regular file (a character device)"),
        results_special(
            "json_a_folder", "dir.json",
            [](const fs::path& d) { fs::create_directory(d / "dir.json"); },
            "not a regular file (a folder)"),
        results_special(
            "json_100_megabytes", "big.json",
            [](const fs::path& d) { write_sparse(d / "big.json", 100u << 20); },
            "larger than the limit of 64 MiB"),
        results_special("json_missing", "missing.json", {}, "No such file or directory"),
    };
}

}  // namespace coalesce::bad_input
