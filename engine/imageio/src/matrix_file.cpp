#include "matrix_file.hpp"

#include "decoder_messages.hpp"
#include "refusal.hpp"

#include "coalesce/shortened.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace coalesce::imageio {
namespace {

int xml_depth(std::string_view text, int limit) {
    int depth = 0, deepest = 0;
    std::size_t at = 0;
    const auto skip_past = [&](std::string_view end) {
        const auto found = text.find(end, at);
        at = found == std::string_view::npos ? text.size() : found + end.size();
    };
    while ((at = text.find('<', at)) != std::string_view::npos) {
        const std::string_view rest = text.substr(at);
        if (rest.substr(0, 4) == "<!--")
            skip_past("-->");
        else if (rest.substr(0, 9) == "<![CDATA[")
            skip_past("]]>");
        else if (rest.substr(0, 2) == "<?")
            skip_past("?>");
        else if (rest.substr(0, 2) == "<!")
            skip_past(">");
        else if (rest.substr(0, 2) == "</") {
            depth = std::max(0, depth - 1);
            skip_past(">");
        } else {
            skip_past(">");
            if (text[at - 1] != '/') deepest = std::max(deepest, ++depth);
        }
        if (deepest > limit) return deepest;
    }
    return deepest;
}

int yaml_depth(std::string_view text, int limit) {
    std::vector<std::size_t> indents;  // of the open block levels
    int flow = 0;                      // open [ and { brackets
    int flow_base = 0;                 // the block level the outermost bracket opened at
    int deepest = 0;
    std::size_t begin = 0;
    while (begin < text.size()) {
        std::size_t end = text.find('\n', begin);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view line = text.substr(begin, end - begin);
        begin = end + 1;
        std::size_t at = line.find_first_not_of(' ');
        if (at == std::string_view::npos || line[at] == '#' || line[at] == '%' ||
            line.substr(at, 3) == "---")
            continue;
        int level = 0;
        if (flow == 0) {  // inside brackets indentation means nothing
            while (!indents.empty() && indents.back() >= at) indents.pop_back();
            indents.push_back(at);
            level = static_cast<int>(indents.size());
            while (at < line.size() && line[at] == '-' &&
                   (at + 1 == line.size() || line[at + 1] == ' ')) {  // "- - x": a level each
                ++level;
                at = std::min(line.size(), at + 2);
            }
            deepest = std::max(deepest, level);
        }
        char quote = 0;
        for (; at < line.size() && deepest <= limit; ++at) {
            const char ch = line[at];
            if (quote) {
                if (ch == quote) quote = 0;
            } else if (ch == '"' || ch == '\'') {
                quote = ch;
            } else if (ch == '#' && at > 0 && line[at - 1] == ' ') {
                break;  // a comment
            } else if (ch == '[' || ch == '{') {
                if (flow++ == 0) flow_base = level;
                deepest = std::max(deepest, flow_base + flow);
            } else if (ch == ']' || ch == '}') {
                flow = std::max(0, flow - 1);
            }
        }
        if (deepest > limit) return deepest;
    }
    return deepest;
}

// "f" -> CV_32F, "3u" -> CV_8UC3; -1 for a type a matrix cannot have.
int mat_type(const std::string& dt, int& channels) {
    std::size_t at = 0;
    channels = 0;
    while (at < dt.size() && std::isdigit(static_cast<unsigned char>(dt[at])) && at < 3)
        channels = channels * 10 + (dt[at++] - '0');
    if (at == 0) channels = 1;
    if (at + 1 != dt.size()) return -1;
    static const std::string codes = "ucwsifd";  // OpenCV's depth codes, CV_8U .. CV_64F
    const auto depth = codes.find(dt[at]);
    if (depth == std::string::npos) return -1;
    return static_cast<int>(depth);
}

[[noreturn]] void refuse_matrix(const std::string& name, const std::string& why) {
    refuse("matrix '" + shortened(name) + "'" + why);
}

bool looks_like_a_matrix(const cv::FileNode& node) {
    return node.isMap() && !node["dt"].empty() && !node["data"].empty() &&
           ((!node["rows"].empty() && !node["cols"].empty()) || !node["sizes"].empty());
}

cv::Mat checked_matrix(const cv::FileNode& node, std::size_t max_elements) {
    const std::string name = node.name();
    if (!node["sizes"].empty() && node["rows"].empty()) {
        const cv::FileNode sizes = node["sizes"];
        refuse_matrix(name, " has " + std::to_string(sizes.isSeq() ? sizes.size() : 1) +
                                " dimensions; only 2-D matrices are supported");
    }
    for (const char* key : {"rows", "cols"})
        if (!node[key].isInt())
            refuse_matrix(name, ": '" + std::string(key) + "' is not a whole number");
    const int rows = static_cast<int>(node["rows"]), cols = static_cast<int>(node["cols"]);
    const std::string shape = std::to_string(rows) + "x" + std::to_string(cols);
    if (rows <= 0 || cols <= 0)
        refuse_matrix(name, " declares " + shape + " elements: both must be positive");
    const std::size_t elements = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
    if (elements > max_elements)
        refuse_matrix(
            name, " declares " + shape + " elements; the limit is " + std::to_string(max_elements));

    if (!node["dt"].isString()) refuse_matrix(name, ": 'dt' is not a type name");
    const std::string dt = static_cast<std::string>(node["dt"]);
    int channels = 0;
    const int depth = mat_type(dt, channels);
    if (depth < 0)
        refuse_matrix(
            name,
            " has element type '" + shortened(dt) +
                "', not one of u, c, w, s, i, f, d (with an optional channel count, e.g. 3f)");
    if (channels < 1 || channels > 4)
        refuse("has " + std::to_string(channels) + " channels; 1 to 4 are supported");

    const cv::FileNode data = node["data"];
    if (!data.isSeq()) refuse_matrix(name, ": 'data' is not a list of numbers");
    const std::size_t declared = elements * static_cast<std::size_t>(channels);
    if (data.size() != declared)
        refuse_matrix(name, " declares " + std::to_string(declared) + " values (" + shape + ", " +
                                std::to_string(channels) +
                                (channels == 1 ? " channel" : " channels") + ") but holds " +
                                std::to_string(data.size()));
    std::size_t index = 0;
    for (cv::FileNodeIterator it = data.begin(); it != data.end(); ++it, ++index) {
        const cv::FileNode value = *it;
        if (!value.isInt() && !value.isReal())
            refuse_matrix(name, ": value " + std::to_string(index + 1) + " of " +
                                    std::to_string(declared) + " is not a number");
    }
    cv::Mat m;
    try {
        node >> m;
    } catch (const cv::Exception& e) {
        refuse_matrix(name, " cannot be read (" + plain_decoder_text(e.err) + ")");
    }
    if (m.empty() || m.rows != rows || m.cols != cols) refuse_matrix(name, " cannot be read");
    return m;
}

}  // namespace

int nesting_depth(std::string_view text, int limit) {
    std::string_view start = text;
    while (!start.empty() && std::isspace(static_cast<unsigned char>(start.front())))
        start.remove_prefix(1);
    return start.substr(0, 1) == "<" ? xml_depth(text, limit) : yaml_depth(text, limit);
}

cv::Mat read_first_matrix(const std::string& text, std::size_t max_elements) {
    std::string start = text.substr(0, 64);
    start.erase(0, start.find_first_not_of(" \t\r\n"));
    const std::string kind = start.rfind("<", 0) == 0 ? "XML" : "YAML";
    cv::FileStorage storage;
    std::string said;
    try {
        said = capture_stderr(
            [&] { storage.open(text, cv::FileStorage::READ | cv::FileStorage::MEMORY); });
    } catch (const cv::Exception& e) {
        refuse("is not a valid OpenCV " + kind + " file (" + plain_decoder_text(e.err) + ")");
    }
    if (!storage.isOpened())
        refuse("is not a valid OpenCV " + kind + " file" +
               (said.empty() ? std::string() : " (" + plain_decoder_text(said) + ")"));
    const cv::FileNode root = storage.root();
    if (root.isMap() || root.isSeq()) {
        for (cv::FileNodeIterator it = root.begin(); it != root.end(); ++it)
            if (looks_like_a_matrix(*it)) return checked_matrix(*it, max_elements);
    }
    refuse("holds no matrix (an opencv-matrix entry with rows, cols, dt and data)");
}

}  // namespace coalesce::imageio
