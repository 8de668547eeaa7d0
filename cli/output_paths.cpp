#include "output_paths.hpp"

#include "exit_status.hpp"

#include <unistd.h>

#include <cerrno>
#include <string>
#include <system_error>

namespace coalesce::cli {

void check_writable(const std::filesystem::path& path, std::string_view option) {
    namespace fs = std::filesystem;
    const std::string prefix = std::string(option) + " " + path.string() + ": ";
    const auto errno_text = [] { return std::error_code(errno, std::generic_category()).message(); };

    if (path.empty() || path.filename().empty()) throw UsageError(prefix + "not a file name");
    const fs::path folder = path.parent_path().empty() ? fs::path(".") : path.parent_path();
    std::error_code ec;
    const auto folder_status = fs::status(folder, ec);
    if (!fs::exists(folder_status)) throw UsageError(prefix + "folder '" + folder.string() + "' does not exist");
    if (!fs::is_directory(folder_status)) throw UsageError(prefix + "'" + folder.string() + "' is not a folder");
    // The file is written next to itself and renamed into place: the folder must take new files.
    if (::access(folder.c_str(), W_OK | X_OK) != 0)
        throw UsageError(prefix + "folder '" + folder.string() + "' is not writable (" + errno_text() + ")");

    const auto file_status = fs::status(path, ec);
    if (fs::is_directory(file_status)) throw UsageError(prefix + "is a folder");
    if (fs::exists(file_status) && ::access(path.c_str(), W_OK) != 0)
        throw UsageError(prefix + "not writable (" + errno_text() + ")");
}

}  // namespace coalesce::cli
