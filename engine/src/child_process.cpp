#include "child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace coalesce::detail {
namespace {

// The file actions and attributes of one posix_spawn, released on every path.
class SpawnSetup {
public:
    SpawnSetup() {
        posix_spawn_file_actions_init(&actions);
        posix_spawnattr_init(&attributes);
    }
    ~SpawnSetup() {
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attributes);
    }
    SpawnSetup(const SpawnSetup&) = delete;
    SpawnSetup& operator=(const SpawnSetup&) = delete;

    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
};

ChildExit decode(int status) {
    ChildExit e;
    e.exited = WIFEXITED(status);
    e.code = e.exited ? WEXITSTATUS(status) : (WIFSIGNALED(status) ? WTERMSIG(status) : -1);
    return e;
}

}  // namespace

ChildExit run_child(const std::vector<std::string>& argv, const std::filesystem::path& out,
                    const std::filesystem::path& err, const std::function<bool()>& cancelled) {
    if (argv.empty()) throw std::invalid_argument("run_child: no program");
    std::vector<std::string> text = argv;
    std::vector<char*> args;
    for (std::string& a : text) args.push_back(a.data());
    args.push_back(nullptr);

    SpawnSetup setup;
    const int flags = O_WRONLY | O_CREAT | O_TRUNC;  // no O_CLOEXEC: these become fds 1 and 2
    posix_spawn_file_actions_addopen(&setup.actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&setup.actions, 1, out.c_str(), flags, 0644);
    posix_spawn_file_actions_addopen(&setup.actions, 2, err.c_str(), flags, 0644);
    posix_spawnattr_setpgroup(&setup.attributes, 0);
    posix_spawnattr_setflags(&setup.attributes, POSIX_SPAWN_SETPGROUP);

    pid_t pid = 0;
    const int started =
        posix_spawn(&pid, args[0], &setup.actions, &setup.attributes, args.data(), environ);
    if (started != 0)
        throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(started));

    bool stopped = false;
    for (;;) {
        int status = 0;
        const pid_t done = ::waitpid(pid, &status, cancelled ? WNOHANG : 0);
        if (done == pid) {
            ChildExit e = decode(status);
            e.stopped = stopped;
            return e;
        }
        if (done < 0 && errno != EINTR)
            throw std::runtime_error("waiting for " + argv[0] + ": " + std::strerror(errno));
        if (done == 0) {
            if (!stopped && cancelled()) {
                ::kill(-pid, SIGTERM);  // the whole group: ncu and the program it profiles
                stopped = true;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
}

std::string describe(const ChildExit& exit) {
    return (exit.exited ? "exit status " : "signal ") + std::to_string(exit.code);
}

}  // namespace coalesce::detail
