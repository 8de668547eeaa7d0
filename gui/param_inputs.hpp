// The operations' named parameters in the run panel: one input per parameter the chosen
// operations declare (offset, stride, span, ...), each taking one value or a sweep in
// coalesce-bench's --param syntax (0:32, 0:32:4, 1,2,4,8), checked as it is typed.
#pragma once

#include "coalesce/operation.hpp"

#include <QGroupBox>
#include <QString>

#include <map>
#include <optional>
#include <vector>

class QGridLayout;
class QLabel;
class QLineEdit;
class QSettings;

namespace coalesce::gui {

// What an input's text means for the operations `ops`: nothing (empty text: the default), an
// axis, or why not (the engine's own message: bad syntax, a value out of an operation's range).
struct ParamInputCheck {
    std::optional<ParamAxis> axis;
    QString error;  // empty when the text can run
};
ParamInputCheck check_param_input(const QString& name, const QString& text,
                                  const std::vector<Op>& ops);

class ParamInputs : public QGroupBox {
    Q_OBJECT
public:
    explicit ParamInputs(QWidget* parent = nullptr);

    // Shows the inputs of the parameters these operations declare, and checks them against them.
    void setOperations(const std::vector<Op>& ops);
    // Every shown input can run.
    bool isValid() const { return valid_; }
    // The first shown input's problem, "name: why"; empty when valid.
    QString problem() const;
    // The axes of the shown inputs that have text, in the table's order of parameters.
    std::vector<ParamAxis> axes() const;

    // The input of a parameter; nullptr for a name no operation declares.
    QLineEdit* input(const QString& name) const;
    bool isShown(const QString& name) const;
    // One value per named parameter (a lesson's); the other inputs are emptied.
    void setValues(const ParamValues& values);

    void saveSettings(QSettings& settings) const;
    void restoreSettings(const QSettings& settings);

signals:
    void validityChanged(bool valid);

private:
    void recheck();

    QGridLayout* grid_ = nullptr;
    std::vector<QString> names_;  // the table's order
    std::map<QString, QLineEdit*> inputs_;
    std::map<QString, QLabel*> labels_;
    std::map<QString, QString> tooltips_;
    std::vector<Op> ops_;
    bool valid_ = true;
};

}  // namespace coalesce::gui
