#include "text_table.hpp"

#include <algorithm>

namespace coalesce::cli {
namespace {

// Characters on screen, not bytes: UTF-8 continuation bytes take no column.
std::size_t display_width(const std::string& s) {
    return static_cast<std::size_t>(std::count_if(
        s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

}  // namespace

void TextTable::add_row(std::vector<std::string> cells) {
    cells.resize(columns_.size());
    for (std::string& cell : cells)
        std::replace_if(
            cell.begin(), cell.end(), [](char c) { return c == '\n' || c == '\r' || c == '\t'; },
            ' ');
    rows_.push_back(std::move(cells));
}

void TextTable::print(std::ostream& out) const {
    std::vector<std::size_t> width(columns_.size());
    for (std::size_t c = 0; c < columns_.size(); ++c) {
        width[c] = display_width(columns_[c].title);
        for (const auto& row : rows_) width[c] = std::max(width[c], display_width(row[c]));
    }
    const auto print_row = [&](const std::vector<std::string>& cells) {
        std::string line;
        for (std::size_t c = 0; c < cells.size(); ++c) {
            const bool last = c + 1 == cells.size();
            const std::string pad(width[c] - display_width(cells[c]), ' ');
            if (c > 0) line += "  ";
            if (columns_[c].align == Align::right)
                line += pad + cells[c];
            else
                line += last ? cells[c] : cells[c] + pad;
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out << line << '\n';
    };

    std::vector<std::string> titles;
    std::vector<std::string> rule;
    for (std::size_t c = 0; c < columns_.size(); ++c) {
        titles.push_back(columns_[c].title);
        // The last column is ragged; its rule stops at a sensible width instead of the longest
        // cell.
        const bool last = c + 1 == columns_.size();
        rule.push_back(std::string(
            last ? std::max(display_width(columns_[c].title), std::min<std::size_t>(width[c], 40))
                 : width[c],
            '-'));
    }
    print_row(titles);
    print_row(rule);
    for (const auto& row : rows_) print_row(row);
}

}  // namespace coalesce::cli
