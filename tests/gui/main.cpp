// GoogleTest main for the GUI tests: the offscreen platform (set before QApplication exists, since
// gtest_discover_tests runs this binary at build time where there may be no display) and settings
// in a temporary folder, so tests neither read nor change the person's own.
#include "heap_padding.hpp"

#include <QApplication>
#include <QTemporaryDir>
#include <QtGlobal>

#include <gtest/gtest.h>

int main(int argc, char** argv) {
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QTemporaryDir config_home;
    qputenv("XDG_CONFIG_HOME", config_home.path().toUtf8());
    ::testing::InitGoogleTest(&argc, argv);
    coalesce::gui::pad_the_heap();  // as the application does (see heap_padding.hpp)
    QApplication app(argc, argv);
    QApplication::setOrganizationName("Coalesce");
    QApplication::setApplicationName("coalesce-gui-tests");
    return RUN_ALL_TESTS();
}
