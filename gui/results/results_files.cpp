#include "results_files.hpp"

#include "coalesce/results_io.hpp"

#include <QFileInfo>

#include <exception>
#include <filesystem>

namespace coalesce::gui {

namespace {

bool knownSuffix(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("json") || suffix == QLatin1String("csv");
}

std::filesystem::path toPath(const QString& path) {
    // Through UTF-8 explicitly: std::filesystem's narrow constructor uses the C locale.
    const QByteArray utf8 = path.toUtf8();
    return std::filesystem::path(std::u8string(utf8.begin(), utf8.end()));
}

void setError(QString* error, const QString& message) {
    if (error) *error = message;
}

}  // namespace

bool saveResultsFile(const QString& path, const RunRecord& record, QString* error) {
    if (!knownSuffix(path)) {
        setError(error, QStringLiteral("%1: unknown results format (use .json or .csv)").arg(path));
        return false;
    }
    try {
        save_results(toPath(path), record);
        return true;
    } catch (const std::exception& e) {
        setError(error, QString::fromStdString(e.what()));  // names the path and the reason
    } catch (...) {
        setError(error, QStringLiteral("cannot write %1").arg(path));
    }
    return false;
}

std::optional<RunRecord> loadResultsFile(const QString& path, QString* error) {
    if (!knownSuffix(path)) {
        setError(error, QStringLiteral("%1: unknown results format (use .json or .csv)").arg(path));
        return std::nullopt;
    }
    try {
        return load_results(toPath(path));
    } catch (const std::exception& e) {
        setError(error, QString::fromStdString(e.what()));  // the engine's messages name the path
    } catch (...) {
        setError(error, QStringLiteral("cannot read %1").arg(path));
    }
    return std::nullopt;
}

}  // namespace coalesce::gui
