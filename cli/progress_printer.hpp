// Progress on stderr while the Runner works: one line per finished variant, or a single line
// rewritten in place when stderr is a terminal (failures still get a line of their own).
#pragma once

#include "coalesce/runner.hpp"

#include <ostream>

namespace coalesce::cli {

class ProgressPrinter {
public:
    ProgressPrinter(std::ostream& out, bool terminal) : out_(out), terminal_(terminal) {}

    void on_progress(const Progress& progress);
    void on_result(const RunResult& result);
    void finish();  // clears the rewritten line, if any

private:
    void clear_line();

    std::ostream& out_;
    bool terminal_;
    bool line_open_ = false;
    Progress last_;
};

}  // namespace coalesce::cli
