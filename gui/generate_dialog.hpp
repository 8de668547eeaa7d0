// Asks for a generated matrix instead of a file: random, gradient or checkerboard of a chosen size.
#pragma once

#include "coalesce/matrix.hpp"

#include <QDialog>

#include <memory>

class QComboBox;
class QSpinBox;

namespace coalesce::gui {

struct GenerateRequest {
    enum class Kind { random, gradient, checkerboard };
    Kind kind = Kind::random;
    std::size_t rows = 512, cols = 512;
    std::uint64_t seed = 42;  // random
    std::size_t square = 8;   // checkerboard [elements]

    std::shared_ptr<const Matrix> make() const;
    QString describe() const;  // "random 512 x 512 (seed 42)"
};

class GenerateDialog : public QDialog {
    Q_OBJECT
public:
    explicit GenerateDialog(const GenerateRequest& initial, QWidget* parent = nullptr);
    GenerateRequest request() const;

private:
    QComboBox* kind_ = nullptr;
    QSpinBox* rows_ = nullptr;
    QSpinBox* cols_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QSpinBox* square_ = nullptr;
};

}  // namespace coalesce::gui
