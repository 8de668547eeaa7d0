// Shared by the window tests: a window whose device probe has finished, and small waits.
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

inline QString sample(const char* name) { return QString(COALESCE_SAMPLES_DIR) + "/" + name; }

}  // namespace coalesce::gui::test
