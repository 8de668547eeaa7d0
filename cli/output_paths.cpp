#include "output_paths.hpp"

#include "exit_status.hpp"

#include "coalesce/results_io.hpp"
#include "coalesce/shortened.hpp"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <system_error>

namespace coalesce::cli {
namespace {

namespace fs = std::filesystem;

std::string errno_text(int err) { return std::error_code(err, std::generic_category()).message(); }

std::string quoted(const fs::path& path) { return "'" + shortened(path.string()) + "'"; }

// 0 when `folder` takes a new file, else the errno of the attempt. The file made has no name (or,
// where the filesystem cannot do that, is removed at once): nothing is left behind.
int try_new_file(const fs::path& folder) {
    int fd = ::open(folder.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
        const fs::path probe = folder / (".coalesce-probe-" + std::to_string(::getpid()));
        fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd >= 0) ::unlink(probe.c_str());
    }
    if (fd < 0) return errno;
    ::close(fd);
    return 0;
}

std::string special_kind(mode_t mode) {
    if (S_ISFIFO(mode)) return "a named pipe";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISBLK(mode)) return "a block device";
    return "a special file";
}

// The first part of `path` (from its start) that exists but is not a folder; empty if none.
fs::path first_non_folder(const fs::path& path) {
    fs::path part;
    for (const fs::path& component : path) {
        part /= component;
        std::error_code ec;
        const auto status = fs::status(part, ec);
        if (fs::exists(status) && !fs::is_directory(status)) return part;
    }
    return {};
}

}  // namespace

void check_writable(const fs::path& path, std::string_view option) {
    const std::string prefix = std::string(option) + " " + shortened(path.string()) + ": ";
    if (path.empty()) throw UsageError(std::string(option) + ": the file name is empty");
    const std::size_t path_bytes = path.string().size();
    if (path_bytes >= PATH_MAX)
        throw UsageError(prefix + "the path is " + std::to_string(path_bytes) +
                         " bytes long; the limit is " + std::to_string(PATH_MAX - 1));
    if (path.filename().empty()) throw UsageError(prefix + "not a file name");

    fs::path target;
    try {
        target = write_target(path);
    } catch (const std::runtime_error&) {
        throw UsageError(prefix + "too many levels of symbolic links");
    }
    const std::size_t name_bytes = target.filename().string().size();
    if (name_bytes > NAME_MAX)
        throw UsageError(prefix + "the file name is " + std::to_string(name_bytes) +
                         " bytes long; the limit is " + std::to_string(NAME_MAX));

    const fs::path folder = target.parent_path().empty() ? fs::path(".") : target.parent_path();
    std::error_code ec;
    const auto folder_status = fs::status(folder, ec);
    if (!fs::exists(folder_status))
        throw UsageError(prefix + "folder " + quoted(folder) + " does not exist");
    if (!fs::is_directory(folder_status))
        throw UsageError(prefix + quoted(folder) + " is not a folder");

    struct stat st {};
    if (::stat(target.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) throw UsageError(prefix + "is a folder");
        if (S_ISCHR(st.st_mode)) {  // /dev/null, a terminal: written to, never replaced
            if (::access(target.c_str(), W_OK) != 0)
                throw UsageError(prefix + "not writable (" + errno_text(errno) + ")");
            return;
        }
        if (!S_ISREG(st.st_mode))
            throw UsageError(
                prefix + "is " + special_kind(st.st_mode) +
                "; results are written to regular files or to devices such as /dev/null");
        if (::access(target.c_str(), W_OK) != 0)
            throw UsageError(prefix + "not writable (" + errno_text(errno) + ")");
    }
    // The file is written next to its target and renamed into place: the folder must take new
    // files.
    if (const int err = try_new_file(folder); err != 0)
        throw UsageError(prefix + "folder " + quoted(folder) + " does not take new files (" +
                         errno_text(err) + ")");
}

void prepare_folder(const fs::path& dir, std::string_view option) {
    if (dir.empty()) throw UsageError(std::string(option) + ": the folder name is empty");
    const std::string prefix = std::string(option) + " " + shortened(dir.string()) + ": ";
    const std::size_t path_bytes = dir.string().size();
    if (path_bytes >= PATH_MAX)
        throw UsageError(prefix + "the path is " + std::to_string(path_bytes) +
                         " bytes long; the limit is " + std::to_string(PATH_MAX - 1));
    std::error_code made, ec;
    fs::create_directories(dir, made);
    const auto status = fs::status(dir, ec);
    if (!fs::exists(status)) {
        // "Not a directory" alone does not say which part of the path is a file.
        if (const fs::path file = first_non_folder(dir); !file.empty())
            throw UsageError(prefix + quoted(file) + " is not a folder");
        throw UsageError(prefix + "cannot make the folder (" +
                         (made ? made.message() : std::string("it does not appear")) + ")");
    }
    if (!fs::is_directory(status)) throw UsageError(prefix + "is not a folder");
    if (const int err = try_new_file(dir); err != 0)
        throw UsageError(prefix + "the folder does not take new files (" + errno_text(err) + ")");
}

void check_distinct(const fs::path& json, const fs::path& csv) {
    std::error_code ec;
    const fs::path a = fs::weakly_canonical(fs::absolute(write_target(json)), ec);
    const fs::path b = fs::weakly_canonical(fs::absolute(write_target(csv)), ec);
    if (a == b || fs::equivalent(a, b, ec))
        throw UsageError("--json and --csv name the same file (" + quoted(a) +
                         "): one would replace the other");
}

}  // namespace coalesce::cli
