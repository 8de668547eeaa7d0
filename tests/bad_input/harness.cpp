// Runs one case's child: coalesce-bench, or a function, in the case's folder, with its memory
// capped so that a blow-up fails the case instead of exhausting the machine, and killed when it
// outlives kChildSeconds so that a hang fails the case instead of the whole suite.
#include "corpus.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <thread>

namespace coalesce::bad_input {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif

// In the child, before it runs anything. AddressSanitizer reserves terabytes of address space for
// its shadow memory, so there the cap is its own resident-memory limit instead of RLIMIT_AS.
void cap_memory() {
    if (kAddressSanitizer) {
        const char* current = std::getenv("ASAN_OPTIONS");
        std::string options = current ? std::string(current) + ":" : std::string();
        options += "hard_rss_limit_mb=" + std::to_string(kMemoryLimit >> 20);
        ::setenv("ASAN_OPTIONS", options.c_str(), 1);
        return;
    }
    const rlimit limit{kMemoryLimit, kMemoryLimit};
    ::setrlimit(RLIMIT_AS, &limit);
}

void redirect(int fd, const fs::path& path, int flags) {
    const int file = ::open(path.c_str(), flags, 0644);
    if (file < 0 || ::dup2(file, fd) < 0) ::_exit(125);
    ::close(file);
}

std::string argument(const std::string& arg, const fs::path& dir) {
    if (arg == "@") return dir.string();
    if (arg.rfind("@/", 0) == 0) return (dir / arg.substr(2)).string();
    return arg;
}

}  // namespace

Case bench(std::string name, std::vector<std::string> args, int exit_status, std::string message,
           std::function<void(const fs::path&)> setup) {
    Case c;
    c.name = std::move(name);
    c.args = std::move(args);
    c.exit_status = exit_status;
    c.message = std::move(message);
    c.setup = std::move(setup);
    return c;
}

Outcome run_case(const Case& c, const fs::path& dir) {
    const fs::path logs = dir.parent_path() / "logs";
    fs::create_directories(logs);
    const fs::path out_path = logs / "stdout.txt", err_path = logs / "stderr.txt";

    std::vector<std::string> args{COALESCE_BENCH};
    for (const std::string& a : c.args) args.push_back(argument(a, dir));
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);

    std::cout.flush();
    std::cerr.flush();
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (::chdir(dir.c_str()) != 0) ::_exit(125);
        redirect(0, "/dev/null", O_RDONLY);
        redirect(1, out_path, O_WRONLY | O_CREAT | O_TRUNC);
        redirect(2, err_path, O_WRONLY | O_CREAT | O_TRUNC);
        cap_memory();
        if (c.body) {
            int status = 125;
            try {
                status = c.body(dir);
            } catch (const std::exception& e) {
                std::cerr << "uncaught: " << e.what() << '\n';
            }
            std::cout.flush();
            std::cerr.flush();
            ::_exit(status);
        }
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }

    Outcome o;
    int status = 0;
    rusage usage{};
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kChildSeconds);
    for (;;) {
        const pid_t done = ::wait4(pid, &status, WNOHANG, &usage);
        if (done == pid) break;
        if (done < 0 && errno != EINTR) break;
        if (std::chrono::steady_clock::now() > deadline) {
            ::kill(pid, SIGKILL);
            ::wait4(pid, &status, 0, &usage);
            o.timed_out = true;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (WIFEXITED(status)) o.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) o.signal = WTERMSIG(status);
    o.max_rss_kib = usage.ru_maxrss;
    o.out = read_bytes(out_path);
    o.err = read_bytes(err_path);
    return o;
}

}  // namespace coalesce::bad_input
