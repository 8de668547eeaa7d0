#include "interrupt.hpp"

#include <atomic>
#include <csignal>

namespace coalesce::cli {
namespace {

// Only lock-free atomics may be touched from a signal handler.
std::atomic<Runner*> g_runner{nullptr};
std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<Runner*>::is_always_lock_free && std::atomic<bool>::is_always_lock_free);
struct sigaction g_previous {};

extern "C" void on_sigint(int) {
    g_interrupted = true;
    if (Runner* runner = g_runner.load()) runner->cancel();  // sets an atomic<bool>
}

}  // namespace

CancelOnInterrupt::CancelOnInterrupt(Runner& runner) {
    g_runner = &runner;
    struct sigaction action {};
    action.sa_handler = on_sigint;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;  // the second Ctrl-C takes the default action: the process ends
    sigaction(SIGINT, &action, &g_previous);
}

CancelOnInterrupt::~CancelOnInterrupt() {
    sigaction(SIGINT, &g_previous, nullptr);
    g_runner = nullptr;
}

bool CancelOnInterrupt::interrupted() { return g_interrupted; }

}  // namespace coalesce::cli
