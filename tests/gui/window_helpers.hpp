// Shared by the window tests: a window whose device probe has finished, and waits for the work
// the window does off its thread (reading inputs, drawing pictures).
#pragma once

#include "main_window.hpp"

#include <QSignalSpy>

#include <gtest/gtest.h>

#include <memory>

namespace coalesce::gui::test {

// A window after the worker has reported whether there is a CUDA device.
inline std::unique_ptr<MainWindow> make_ready_window() {
    auto window = std::make_unique<MainWindow>();
    window->setClosePromptAnswer(QMessageBox::Discard);
    if (!window->deviceProbed()) {
        QSignalSpy ready(window.get(), &MainWindow::deviceReady);
        EXPECT_TRUE(ready.wait(30000)) << "the worker never reported the device";
    }
    return window;
}

// Where the tests find what they read: the paths this build was made at, unless the environment
// says otherwise (the GPU check runs these binaries far from the source tree; see
// scripts/gpu-gui-check.sh).
inline QString test_path(const char* variable, const char* built_at) {
    const QString given = qEnvironmentVariable(variable);
    return given.isEmpty() ? QString::fromUtf8(built_at) : given;
}
inline QString samples_dir() {
    return test_path("COALESCE_TEST_SAMPLES_DIR", COALESCE_SAMPLES_DIR);
}
inline QString docs_dir() { return test_path("COALESCE_TEST_DOCS_DIR", COALESCE_DOCS_DIR); }
inline QString app_path() { return test_path("COALESCE_TEST_APP", COALESCE_APP); }

inline QString sample(const char* name) { return samples_dir() + "/" + name; }

// Waits until the window has read `path`: true when it became the input, false when the window
// refused it (the reason is in errorText()).
inline bool open_and_wait(MainWindow& window, const QString& path, int timeout_ms = 60000) {
    QSignalSpy changed(&window, &MainWindow::inputChanged);
    QSignalSpy failed(&window, &MainWindow::inputFailed);
    window.openFile(path);
    for (int waited = 0; changed.isEmpty() && failed.isEmpty() && waited < timeout_ms; waited += 50)
        changed.wait(50);
    return !changed.isEmpty();
}

inline bool generate_and_wait(MainWindow& window, const GenerateRequest& request) {
    QSignalSpy changed(&window, &MainWindow::inputChanged);
    QSignalSpy failed(&window, &MainWindow::inputFailed);
    window.generate(request);
    for (int waited = 0; changed.isEmpty() && failed.isEmpty() && waited < 60000; waited += 50)
        changed.wait(50);
    return !changed.isEmpty();
}

// Waits until nothing is being read or drawn.
inline bool wait_idle(MainWindow& window, int timeout_ms = 60000) {
    if (!window.isBusy()) return true;
    QSignalSpy idle(&window, &MainWindow::idle);
    return idle.wait(timeout_ms) || !window.isBusy();
}

// Selects a result row and waits until its pictures are on screen.
inline bool select_and_wait(MainWindow& window, int row, int timeout_ms = 60000) {
    QSignalSpy shown(&window, &MainWindow::picturesShown);
    window.selectResult(row);
    return shown.wait(timeout_ms) || !shown.isEmpty();
}

}  // namespace coalesce::gui::test
