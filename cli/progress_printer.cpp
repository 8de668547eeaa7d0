#include "progress_printer.hpp"

#include "report.hpp"

#include <cstdio>
#include <string>

namespace coalesce::cli {
namespace {

std::string counter(std::size_t done, std::size_t total) {
    const std::string t = std::to_string(total);
    std::string d = std::to_string(done);
    return "[" + std::string(t.size() > d.size() ? t.size() - d.size() : 0, ' ') + d + "/" + t +
           "]";
}

}  // namespace

void ProgressPrinter::clear_line() {
    if (line_open_) out_ << "\r\033[K";
    line_open_ = false;
}

void ProgressPrinter::on_progress(const Progress& progress) {
    last_ = progress;
    if (!terminal_ || progress.done == progress.total) return;
    clear_line();
    out_ << counter(progress.done + 1, progress.total) << ' ' << progress.what << std::flush;
    line_open_ = true;
}

void ProgressPrinter::on_result(const RunResult& r) {
    const bool bad = r.status == Status::failed || (r.status == Status::ok && !r.verified);
    if (terminal_ && !bad) return;  // the rewritten line already shows it ran
    clear_line();
    std::string line = counter(last_.done + 1, last_.total) + " " + r.variant + " " +
                       size_text(r.rows, r.cols) + ": " + outcome_text(r);
    if (r.status == Status::ok && r.verified) {
        char gbps[32];
        std::snprintf(gbps, sizeof gbps, "%.1f", r.gbps);
        line += ", " + milliseconds_text(r.median_ms) + " ms, " + gbps + " GB/s";
    }
    for (char& ch : line)
        if (ch == '\n' || ch == '\r') ch = ' ';
    out_ << line << '\n' << std::flush;
}

void ProgressPrinter::finish() {
    clear_line();
    out_ << std::flush;
}

}  // namespace coalesce::cli
