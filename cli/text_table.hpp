// A plain-text table for a terminal: header, rule, aligned columns. The last column is never
// padded, so a long description or error message does not widen the others.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace coalesce::cli {

class TextTable {
public:
    enum class Align { left, right };
    struct Column {
        std::string title;
        Align align = Align::left;
    };

    explicit TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {}
    // Missing trailing cells print empty; newlines inside a cell print as spaces.
    void add_row(std::vector<std::string> cells);
    void print(std::ostream& out) const;
    bool empty() const { return rows_.empty(); }

private:
    std::vector<Column> columns_;
    std::vector<std::vector<std::string>> rows_;
};

}  // namespace coalesce::cli
