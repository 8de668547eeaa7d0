#include "param_inputs.hpp"

#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>

#include <algorithm>
#include <stdexcept>

namespace coalesce::gui {
namespace {

QString qs(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

bool declares(Op op, const std::string& name) {
    const auto& specs = describe(op).params;
    return std::any_of(specs.begin(), specs.end(),
                       [&](const ParamSpec& p) { return p.name == name; });
}

constexpr const char* kInvalidStyle = "QLineEdit { background: #f8d7da; color: #721c24; }";

}  // namespace

ParamInputCheck check_param_input(const QString& name, const QString& text,
                                  const std::vector<Op>& ops) {
    ParamInputCheck out;
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty()) return out;
    try {
        ParamAxis axis = parse_param_axis((name + '=' + trimmed).toStdString());
        // The engine's own range check, value by value, so the message is the CLI's.
        for (Op op : ops) {
            if (!declares(op, axis.name)) continue;
            for (long long v : axis.values) {
                OpParams params;
                params.values[axis.name] = v;
                resolved_params(op, params);
            }
        }
        out.axis = std::move(axis);
    } catch (const std::invalid_argument& e) {
        out.error = QString::fromUtf8(e.what());
    }
    return out;
}

ParamInputs::ParamInputs(QWidget* parent) : QGroupBox(tr("Operation parameters"), parent) {
    setObjectName("paramInputs");
    grid_ = new QGridLayout(this);
    grid_->setColumnStretch(1, 1);
    grid_->setColumnStretch(3, 1);
    const QString syntax =
        tr("One value (8), a range FIRST:LAST or FIRST:LAST:STEP (0:32, 0:32:4) or a list "
           "(1,2,4,8): each value is a run. Empty: the default.");
    // One input per name: operations that share a parameter (stride) share its input.
    std::map<QString, QStringList> lines;
    std::map<QString, long long> defaults;
    for (const OpDesc* desc : op_table())
        for (const ParamSpec& spec : desc->params) {
            const QString name = qs(spec.name);
            if (!inputs_.count(name)) {
                names_.push_back(name);
                auto* edit = new QLineEdit(this);
                edit->setObjectName("param_" + name);
                edit->setClearButtonEnabled(true);
                connect(edit, &QLineEdit::textChanged, this, &ParamInputs::recheck);
                inputs_[name] = edit;
                auto* label = new QLabel(name, this);
                label->setBuddy(edit);
                labels_[name] = label;
                defaults[name] = spec.default_value;
            }
            lines[name] << tr("%1: %2 (%3..%4, default %5)")
                               .arg(qs(desc->op.name()), qs(spec.help).toHtmlEscaped())
                               .arg(spec.min)
                               .arg(spec.max)
                               .arg(spec.default_value);
        }
    for (const QString& name : names_) {
        tooltips_[name] =
            "<b>" + name + "</b><br>" + lines[name].join("<br>") + "<br><br>" + syntax;
        inputs_[name]->setToolTip(tooltips_[name]);
        inputs_[name]->setPlaceholderText(tr("default %1").arg(defaults[name]));
    }
    setToolTip(syntax);
    setOperations({});
}

void ParamInputs::setOperations(const std::vector<Op>& ops) {
    ops_ = ops;
    // Two parameters a row, only those of the chosen operations: the settings column stays short.
    for (const QString& name : names_) {
        grid_->removeWidget(labels_[name]);
        grid_->removeWidget(inputs_[name]);
    }
    int shown = 0;
    for (const QString& name : names_) {
        const bool show = isShown(name);
        labels_[name]->setVisible(show);
        inputs_[name]->setVisible(show);
        if (!show) continue;
        grid_->addWidget(labels_[name], shown / 2, (shown % 2) * 2);
        grid_->addWidget(inputs_[name], shown / 2, (shown % 2) * 2 + 1);
        ++shown;
    }
    setVisible(shown > 0);
    recheck();
}

bool ParamInputs::isShown(const QString& name) const {
    const auto it = inputs_.find(name);
    return it != inputs_.end() && std::any_of(ops_.begin(), ops_.end(), [&](Op op) {
               return declares(op, name.toStdString());
           });
}

QLineEdit* ParamInputs::input(const QString& name) const {
    const auto it = inputs_.find(name);
    return it == inputs_.end() ? nullptr : it->second;
}

void ParamInputs::recheck() {
    bool valid = true;
    for (const QString& name : names_) {
        QLineEdit* edit = inputs_[name];
        const ParamInputCheck check = check_param_input(name, edit->text(), ops_);
        const bool bad = !check.error.isEmpty();
        edit->setStyleSheet(bad ? QString::fromLatin1(kInvalidStyle) : QString());
        edit->setToolTip(bad ? check.error.toHtmlEscaped() : tooltips_[name]);
        if (bad && isShown(name)) valid = false;
    }
    if (valid != valid_) {
        valid_ = valid;
        emit validityChanged(valid);
    }
}

QString ParamInputs::problem() const {
    for (const QString& name : names_) {
        if (!isShown(name)) continue;
        const ParamInputCheck check = check_param_input(name, inputs_.at(name)->text(), ops_);
        if (!check.error.isEmpty()) return check.error;
    }
    return {};
}

std::vector<ParamAxis> ParamInputs::axes() const {
    std::vector<ParamAxis> out;
    for (const QString& name : names_) {
        if (!isShown(name)) continue;
        ParamInputCheck check = check_param_input(name, inputs_.at(name)->text(), ops_);
        if (check.axis) out.push_back(std::move(*check.axis));
    }
    return out;
}

void ParamInputs::setValues(const ParamValues& values) {
    for (const QString& name : names_) {
        const auto it = values.find(name.toStdString());
        inputs_[name]->setText(it == values.end() ? QString() : QString::number(it->second));
    }
}

void ParamInputs::saveSettings(QSettings& settings) const {
    for (const QString& name : names_)
        settings.setValue("run/param/" + name, inputs_.at(name)->text());
}

void ParamInputs::restoreSettings(const QSettings& settings) {
    for (const QString& name : names_)
        inputs_[name]->setText(settings.value("run/param/" + name).toString());
}

}  // namespace coalesce::gui
