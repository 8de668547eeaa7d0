#include "generate_dialog.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QSpinBox>

namespace coalesce::gui {

std::shared_ptr<const Matrix> GenerateRequest::make() const {
    switch (kind) {
    case Kind::random: return std::make_shared<Matrix>(Matrix::random(rows, cols, seed));
    case Kind::gradient: return std::make_shared<Matrix>(Matrix::gradient(rows, cols));
    case Kind::checkerboard:
        return std::make_shared<Matrix>(Matrix::checkerboard(rows, cols, square));
    }
    return nullptr;
}

QString GenerateRequest::describe() const {
    const QString size = QString("%1 x %2").arg(rows).arg(cols);
    switch (kind) {
    case Kind::random: return QString("random %1 (seed %2)").arg(size).arg(seed);
    case Kind::gradient: return QString("gradient %1").arg(size);
    case Kind::checkerboard:
        return QString("checkerboard %1 (squares of %2)").arg(size).arg(square);
    }
    return size;
}

GenerateDialog::GenerateDialog(const GenerateRequest& initial, QWidget* parent) : QDialog(parent) {
    setWindowTitle("Generate matrix");
    auto* form = new QFormLayout(this);
    kind_ = new QComboBox(this);
    kind_->addItems({"Random (uniform -1..1)", "Gradient", "Checkerboard"});
    kind_->setCurrentIndex(static_cast<int>(initial.kind));
    form->addRow("Kind", kind_);
    const auto spin = [this](int lo, int hi, long long value) {
        auto* s = new QSpinBox(this);
        s->setRange(lo, hi);
        s->setValue(static_cast<int>(value));
        return s;
    };
    // 32768 x 32768 float32 is 4 GiB: the largest that still makes sense on a desktop.
    rows_ = spin(1, 32768, static_cast<long long>(initial.rows));
    cols_ = spin(1, 32768, static_cast<long long>(initial.cols));
    seed_ = spin(0, 1 << 30, static_cast<long long>(initial.seed));
    square_ = spin(1, 4096, static_cast<long long>(initial.square));
    form->addRow("Rows", rows_);
    form->addRow("Columns", cols_);
    form->addRow("Seed (random)", seed_);
    form->addRow("Square size (checkerboard)", square_);
    const auto update = [this] {
        seed_->setEnabled(kind_->currentIndex() == 0);
        square_->setEnabled(kind_->currentIndex() == 2);
    };
    connect(kind_, &QComboBox::currentIndexChanged, this, update);
    update();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

GenerateRequest GenerateDialog::request() const {
    GenerateRequest r;
    r.kind = static_cast<GenerateRequest::Kind>(kind_->currentIndex());
    r.rows = static_cast<std::size_t>(rows_->value());
    r.cols = static_cast<std::size_t>(cols_->value());
    r.seed = static_cast<std::uint64_t>(seed_->value());
    r.square = static_cast<std::size_t>(square_->value());
    return r;
}

}  // namespace coalesce::gui
