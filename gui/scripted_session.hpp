// The command line's steps, in order, each started when the window says the previous one is done
// (signals, never a timer guessing how long a step takes): open the input, open or compare
// results, run once the device is known, and, for scripts, export the chart and grab the window
// once the pictures are drawn, then quit with 0 when everything worked.
#pragma once

#include "app_options.hpp"

#include <QObject>

namespace coalesce::gui {

class MainWindow;

class ScriptedSession : public QObject {
    Q_OBJECT
public:
    // input: the file to open (options.input, or the one the window opens by default);
    // input_required: a failure to open it fails the script.
    ScriptedSession(MainWindow& window, AppOptions options, QString input, bool input_required);

    void start();

private:
    void afterInput(bool ok);
    void startRunWhenReady();
    void whenIdle(void (ScriptedSession::*next)());
    void finish();
    void fail(const QString& why);

    MainWindow& window_;
    AppOptions options_;
    QString input_;
    bool input_required_;
    bool ok_ = true;
    bool finished_ = false;
};

}  // namespace coalesce::gui
