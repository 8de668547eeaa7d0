// Ctrl-C during a run: the first asks the Runner to stop (its timing loops poll the flag before
// every launch), so the results so far are still printed and saved; a second ends the process at
// once (default action).
#pragma once

#include "coalesce/runner.hpp"

namespace coalesce::cli {

class CancelOnInterrupt {
public:
    explicit CancelOnInterrupt(Runner& runner);
    ~CancelOnInterrupt();  // restores the previous SIGINT action
    CancelOnInterrupt(const CancelOnInterrupt&) = delete;
    CancelOnInterrupt& operator=(const CancelOnInterrupt&) = delete;

    static bool interrupted();  // a Ctrl-C arrived while one was installed
};

}  // namespace coalesce::cli
