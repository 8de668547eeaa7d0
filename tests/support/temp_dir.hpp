// A fresh folder for one test, directly inside the system's temporary folder, removed with
// everything in it when the object goes (also when the test fails or a folder in it was locked).
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

namespace coalesce::test {

class TempDir {
public:
    // `label` says whose folder it is ("cli-Suite/Param-Name/0"); characters other than letters,
    // digits, '-' and '_' become '_', so a parameterized test's name never makes nested folders
    // that removing the leaf would leave behind.
    explicit TempDir(std::string_view label) {
        std::string name = "coalesce-";
        for (char ch : label.substr(0, 80)) {
            const bool plain = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                               (ch >= '0' && ch <= '9') || ch == '-' || ch == '_';
            name += plain ? ch : '_';
        }
        std::string pattern =
            (std::filesystem::temp_directory_path() / (name + "-XXXXXX")).string();
        if (::mkdtemp(pattern.data()) == nullptr)
            throw std::runtime_error("cannot make a temporary folder from " + pattern);
        path_ = pattern;
    }
    ~TempDir() { remove(); }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return path_; }

    // Unlocks every folder first: a test may have taken the write permission away.
    void remove() {
        namespace fs = std::filesystem;
        std::error_code ec;
        if (!fs::exists(fs::symlink_status(path_, ec))) return;
        fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, ec);
        for (auto it = fs::recursive_directory_iterator(path_, ec); !ec && it != fs::end(it);
             it.increment(ec)) {
            if (it->is_directory(ec) && !it->is_symlink(ec))
                fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
        }
        fs::remove_all(path_, ec);
    }

private:
    std::filesystem::path path_;
};

}  // namespace coalesce::test
